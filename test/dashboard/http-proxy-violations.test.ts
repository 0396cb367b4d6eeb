// The proxy's Violations page at a large count (review of issue 28): 10,000 operations with 100 violations each
// (1,000,000 found, the checker keeping its newest 10,000) — the page reads the newest 500 and the count only, each
// violation's operation in O(1), so it is made in a bounded time however many were found.
import { describe, expect, it } from 'vitest';
import { Ring } from '../../src/conformance/bounded.js';
import type { Exchange, Violation } from '../../src/conformance/types.js';
import { SupportModel } from '../../src/proxy/support-model.js';
import { useCleanup } from '../helpers/cleanup.js';
import { servedModel } from './proxy-setup.js';

const defer = useCleanup();

const OPERATIONS = 10_000;
const EACH = 100;
const idOf = (i: number) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;

/** A state read through the proxy answering operation `i`: the exchange the model files its violations under. */
function stateRead(i: number): Exchange {
  const at = new Date(Date.UTC(2026, 10, 28, 9, 0, 0, i)).toISOString();
  return {
    seq: i + 1,
    startedAt: at,
    durationMs: 1,
    credential: 'key_000000000001',
    request: {
      method: 'POST',
      path: '/v1/get_operation_state',
      query: {},
      headers: {},
      body: { operation_id: idOf(i) },
    },
    response: { status: 200, headers: {}, body: { operation_id: idOf(i), status: 'pending', type: 'payment' } },
  };
}

function violation(i: number, j: number): Violation {
  return {
    rule: 'state.illegal_move',
    section: '§3',
    endpoint: 'operation.state',
    expected: 'e',
    got: `g${j}`,
    exchange: i + 1,
  };
}

describe('the Violations page on the proxy at 1,000,000 violations', () => {
  it(
    'shows the newest 500 and the count, each with its operation, in a bounded time',
    { timeout: 60_000 },
    async () => {
      const model = new SupportModel();
      const kept = new Ring<Violation>(10_000);
      for (let i = 0; i < OPERATIONS; i++) {
        const found = Array.from({ length: EACH }, (_, j) => violation(i, j));
        model.observe(stateRead(i), found);
        for (const v of found) kept.push(v);
      }
      const { url, cookie } = await servedModel(defer, model, (n) => ({ newest: kept.newest(n), total: kept.total }));
      const times: number[] = [];
      let html = '';
      for (let k = 0; k < 5; k++) {
        const res = await fetch(`${url}/dashboard/violations`, { headers: { cookie } });
        expect(res.status).toBe(200);
        html = await res.text();
        times.push(Number(/app;dur=([\d.]+)/.exec(res.headers.get('server-timing') ?? '')![1]));
      }
      expect(html).toContain('1000000 in all; the newest 500 shown.');
      expect(html.match(/data-rule="state\.illegal_move"/g)).toHaveLength(500);
      // Newest first, each linked to the operation it was seen on: the last operation's 100, then the one before's.
      const links = [...html.matchAll(/href="\/dashboard\/operations\/([0-9a-f-]+)"/g)].map((m) => m[1]);
      expect(links[0]).toBe(idOf(OPERATIONS - 1));
      expect(links[100]).toBe(idOf(OPERATIONS - 2));
      const median = times.sort((a, b) => a - b)[2]!;
      expect(median, `server times ${times.join(', ')} ms`).toBeLessThan(100);
    },
  );
});
