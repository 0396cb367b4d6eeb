// The package's public entries resolve by name (as an installed package would) and expose their main symbols.
import { describe, expect, it } from 'vitest';

describe('package exports', () => {
  it.each([
    ['paygate', ['Paygate', 'createSandbox', 'createInProcessDispatcher']],
    ['paygate/client', ['Paygate', 'APIError', 'createInProcessDispatcher']],
    ['paygate/emulator', ['createSandbox', 'startSandbox']],
    ['paygate/contract', ['Operation', 'endpoints', 'buildOpenApiDocument']],
    ['paygate/testing', ['startSandbox', 'runScenario', 'WebhookEvents']],
    ['paygate/msw', ['createPaygateHandlers']],
  ])('%s', async (entry, names) => {
    const mod = (await import(/* @vite-ignore */ entry)) as Record<string, unknown>;
    for (const n of names) expect(mod[n], `${entry} exports ${n}`).toBeDefined();
  });

  it('the client talks to an in-process sandbox with no socket', async () => {
    const { createSandbox, Paygate, createInProcessDispatcher } = (await import(
      /* @vite-ignore */ 'paygate'
    )) as unknown as typeof import('../../src/index.js');
    const sandbox = await createSandbox();
    try {
      const client = new Paygate({
        baseUrl: 'http://paygate.local',
        apiKey: 'pg_test_b_3Fk8Zp1YdQ6sWe5J',
        dispatcher: createInProcessDispatcher(sandbox),
      });
      const { balances } = await client.balances.list();
      expect(balances).toEqual([{ currency: 'RUB', balance: '250000.00', current_minus: '0.00', reserved: '0.00' }]);
    } finally {
      await sandbox.close();
    }
  });
});
