// Fixture validation: the default world is valid and holds what the README and docs/sandbox.md promise; mistakes name their JSON path.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createSandbox } from '../../src/emulator/index.js';
import { DEFAULT_FIXTURES, FixtureError, loadWorld, parseWorld } from '../../src/world/load.js';
import { useSandboxes } from '../helpers/sandbox.js';
import { tempDir, useCleanup } from '../helpers/cleanup.js';

const raw = () => JSON.parse(readFileSync(DEFAULT_FIXTURES, 'utf8'));
const defer = useCleanup();
/** Sandboxes a test opens, closed after it (before its temp dirs are removed). */
const open = useSandboxes(defer);

describe('fixtures', () => {
  it('the default world holds the shops docs/sandbox.md describes', async () => {
    const world = loadWorld();
    const sb = (await open()).sandbox;
    const [a, b, pool] = sb.demo.shops;
    expect(a).toMatchObject({ id: 'shop_a', hosted_page: true, flexible_links: false, pool_only: false });
    expect(b).toMatchObject({ id: 'shop_b', hosted_page: false, pool_only: false });
    expect(a!.merchant_id).not.toBe(b!.merchant_id);
    expect(pool).toMatchObject({ id: 'shop_pool', flexible_links: true, pool_only: true });
    expect(sb.demo.revoked_api_key).toBeTruthy();
    expect(world.providers.some((p) => p.requires_receipt)).toBe(true);
    expect(world.providers.some((p) => p.conversion && p.conversion.to !== 'RUB')).toBe(true);
    expect(world.banks.map((x) => x.code)).toEqual(expect.arrayContaining(['sber', 'tcs']));
    expect(world.banks.length).toBeGreaterThanOrEqual(6);
  });

  it.each([
    [(w: any) => (w.routes[3].providers[0] = 'sim_nope'), '$.routes[3].providers[0]: unknown provider sim_nope'],
    [(w: any) => (w.shops[1].merchant_id = 'm_x'), '$.shops[1].merchant_id: unknown merchant m_x'],
    [(w: any) => (w.providers[1].expiry = 'soon'), '$.providers[1].expiry: must be a duration'],
    [(w: any) => (w.pricing[0].tiers[0].percent = -1), '$.pricing[0].tiers[0].percent'],
    [(w: any) => (w.api_keys[0].key = 'short'), '$.api_keys[0].key: must be at least 16 characters'],
    [(w: any) => (w.methods[0].currency = 'EUR'), '$.methods[0].currency: currency EUR is not in currencies'],
    [(w: any) => (w.shops[0].colour = 'red'), '$.shops[0]'],
  ])('a broken fixture names the JSON path at fault (%#)', (mutate, expected) => {
    const w = raw();
    mutate(w);
    expect(() => parseWorld(w, 'broken.json')).toThrow(FixtureError);
    expect(() => parseWorld(w, 'broken.json')).toThrow(expected);
  });

  it('a fixture file that is not JSON, or missing, is a clear error', async () => {
    const dir = tempDir(defer, 'paygate-fx-');
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, '{ "shops": [ }');
    await expect(createSandbox({ fixtures: bad })).rejects.toThrow(/bad\.json is not valid JSON/);
    await expect(createSandbox({ fixtures: join(dir, 'missing.json') })).rejects.toThrow(/cannot read fixture file/);
    expect(readFileSync(bad, 'utf8')).toBe('{ "shops": [ }');
  });
});

describe('file store through the sandbox', () => {
  it('keeps operations across a restart and refuses a second owner', async () => {
    const dir = tempDir(defer, 'paygate-st-');
    const store = join(dir, 'sandbox.json');
    const sb = (await open({ store })).sandbox;
    const op = await sb.service.create('shop_a', 'payment', {
      merchant_operation_id: 'keep-1',
      client_id: 'c',
      method: 'WT_RUB_C2C',
      amount: '500.00',
      currency: 'RUB',
    });
    await expect(createSandbox({ store })).rejects.toThrow(/is locked: .*pid/);
    await sb.close();
    const again = (await open({ store })).sandbox;
    expect(again.store.state.operation(op.id)).toEqual(op);
    expect(again.store.state.postings.size).toBe(sb.store.state.postings.size);
    await again.close();
    const reset = (await open({ store, reset: true })).sandbox;
    expect(reset.store.state.operations.size).toBe(0);
  });

  it('a corrupt store is a clear start-up error and is never overwritten', async () => {
    const dir = tempDir(defer, 'paygate-st-');
    const store = join(dir, 'sandbox.json');
    writeFileSync(store, '{"format":"paygate-store","version":1,"collections":{"operations":[{"id":');
    await expect(createSandbox({ store })).rejects.toThrow(/sandbox\.json is corrupt/);
    expect(readFileSync(store, 'utf8')).toBe(
      '{"format":"paygate-store","version":1,"collections":{"operations":[{"id":',
    );
  });
});
