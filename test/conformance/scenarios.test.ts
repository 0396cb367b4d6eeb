// No false positives: bundled scenarios run against a sandbox on 127.0.0.1 (frozen clock, the runner advances it)
// with every exchange through the checker, and the checker finds nothing wrong with the sandbox.
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createConformanceChecker, type Exchange, type Violation } from '../../src/conformance/index.js';
import { parseScenario } from '../../src/scenarios/load.js';
import { runOneScenario } from '../../src/scenarios/run-scenario.js';
import { harness, type Harness } from '../helpers/harness.js';
import { checkGlobalFetch } from './capture.js';

// A scenario against a running sandbox waits, in real time, for the webhooks it expects (up to 5 s a step).
vi.setConfig({ testTimeout: 60_000 });

const FILES = [
  'payments/card-payment-paid.yaml',
  'payments/cancellation.yaml',
  'payments/payer-pays-less-and-more.yaml',
  'payouts/payout-settles.yaml',
  'payouts/payout-fails.yaml',
  'payouts/payout-auto-conversion.yaml',
  'idempotency/idempotency.yaml',
  'receipts/receipt-completes-payment.yaml',
  'receipts/review-approve-decline.yaml',
  'receipts/manual-check-reasons.yaml',
  'receipts/evidence-unavailable.yaml',
  'pool/pool-matching.yaml',
  'pool/flexible-links.yaml',
  'ledger/mixed-day.yaml',
  'access/shop-isolation.yaml',
];

describe('bundled scenarios through the checker', () => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it.each(FILES)('%s: passes, and the checker finds no violation', async (file) => {
    h = await harness('http', { adminToken: 'pg_admin_conformance_test', frozenClock: true });
    const path = `scenarios/${file}`;
    const scenario = parseScenario(readFileSync(path, 'utf8'), path);
    const checker = createConformanceChecker();
    const seen: Exchange[] = [];
    const capture = checkGlobalFetch(checker, seen);
    try {
      const result = await runOneScenario(scenario, {
        seed: 1,
        remote: { baseUrl: h.baseUrl, adminToken: h.sandbox.adminToken },
      });
      expect(result.status, result.error ?? JSON.stringify(result.steps.find((s) => s.status === 'failed'))).toBe(
        'passed',
      );
    } finally {
      capture.restore();
    }
    expect(seen.filter((x) => x.request.path.startsWith('/v1/')).length).toBeGreaterThan(0);
    // A scenario may send what the gateway refuses on purpose (cancellation.yaml: both identifiers, a bad UUID): the
    // checker names those requests, and nothing else.
    const refusedOnPurpose = (v: Violation) =>
      v.rule.startsWith('request.') && seen[v.exchange - 1]!.response.status === 400;
    expect(checker.violations.filter((v) => !refusedOnPurpose(v))).toEqual([]);
  });
});
