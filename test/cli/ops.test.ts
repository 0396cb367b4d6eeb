// `paygate ops list | show | watch`, `paygate logs tail` and `paygate balances --all-shops`, their run functions called
// in this process against an in-process sandbox on a frozen clock: the views, paging and its hint, --all, --json,
// --csv (read back with a CSV parser), the usage errors, the admin token against a shop key, and the live commands
// driven by the sandbox's controls. The binary itself (exit codes, Ctrl+C, help): ops-process.test.ts.
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { APIError } from '../../src/client/index.js';
import type { SandboxOperationRow, SandboxRequestLogEntry } from '../../src/client/resources/sandbox-support.js';
import { balances } from '../../src/cli/commands/balances/run.js';
import { tailUntil } from '../../src/cli/commands/logs/run.js';
import { list, show } from '../../src/cli/commands/ops/run.js';
import { watchUntil } from '../../src/cli/commands/ops/watch.js';
import type { OpsListOptions, OpsShowOptions, OpsWatchOptions } from '../../src/cli/commands/ops/define.js';
import { UsageError } from '../../src/cli/errors.js';
import { CSV_COLUMNS, opsPageView } from '../../src/cli/support-views.js';
import { operationListView } from '../../src/cli/views.js';
import { useSandbox } from '../helpers/sandbox.js';
import { inProcessDeps, type InProcessDeps } from './run-deps.js';

const ADMIN = 'adm';
const T0 = '2026-01-01T00:00:00.000Z';
const h = useSandbox({ frozenClock: true, startTime: T0, adminToken: ADMIN });

const asAdmin = () => inProcessDeps(h, { adminToken: ADMIN });
const asShop = (shop: string) => inProcessDeps(h, { apiKey: h.keyOf(shop) });
const listOpts = (o: Partial<OpsListOptions> = {}): OpsListOptions => ({ all: false, json: false, csv: false, ...o });
const showOpts = (o: Partial<OpsShowOptions> = {}): OpsShowOptions => ({ json: false, ...o });
const watchOpts = (o: Partial<OpsWatchOptions> = {}): OpsWatchOptions => ({ json: false, ...o });

const payment = (moid: string, client: string, amount = '500.00', method = 'WT_RUB_C2C') => ({
  merchant_operation_id: moid,
  client_id: client,
  method,
  amount,
  currency: 'RUB',
});

/** Three operations in shop A, two in shop B, one minute apart; order-1 is used by both shops. */
async function world(): Promise<Record<string, string>> {
  const a = h.make({ apiKey: h.keyOf('shop_a') });
  const b = h.make({ apiKey: h.keyOf('shop_b') });
  const ids: Record<string, string> = {};
  const steps: [string, typeof a, ReturnType<typeof payment>][] = [
    ['a1', a, payment('order-1', 'user-42', '1500.00')],
    ['b1', b, payment('order-1', 'user-7', '700.00')],
    ['a2', a, payment('order-2', 'user-42+reject', '2500.00')],
    ['b2', b, payment('order-3', 'user-7', '900.00')],
    ['a3', a, payment('order-4', 'user, "the" second', '1500.00', 'WT_RUB_PHONE')],
  ];
  for (const [name, client, body] of steps) {
    ids[name] = (await client.payments.create(body)).operation_id;
    await h.admin.sandbox.clock.advance('1m');
  }
  await a.sandbox.operations.pay({ operation_id: ids.a1! });
  return ids;
}

/** The data rows of a human table: lines between the header and the blank line. */
function tableRows(stdout: string): string[][] {
  const lines = stdout.split('\n');
  const head = lines.findIndex((l) => l.startsWith('created '));
  const end = lines.indexOf('', head);
  return lines.slice(head + 1, end).map((l) => l.trim().split(/ {2,}/));
}

describe('paygate ops list', () => {
  it('a table newest first: created, updated, shop, merchant_operation_id, client_id, type, method, amount, actual, status, reason', async () => {
    await world();
    const deps = asAdmin();
    await list(listOpts(), deps);
    const out = deps.output.stdout;
    expect(out.split('\n')[0]!.trim().split(/ {2,}/)).toEqual([
      'created',
      'updated',
      'shop',
      'merchant_operation_id',
      'client_id',
      'type',
      'method',
      'amount',
      'actual',
      'status',
      'reason',
    ]);
    const rows = tableRows(out);
    expect(rows.map((r) => [r[2], r[3]])).toEqual([
      ['shop_a', 'order-4'],
      ['shop_b', 'order-3'],
      ['shop_a', 'order-2'],
      ['shop_b', 'order-1'],
      ['shop_a', 'order-1'],
    ]);
    expect(rows[4]).toEqual([
      '2026-01-01T00:00:00Z',
      '2026-01-01T00:05:00Z',
      'shop_a',
      'order-1',
      'user-42',
      'payment',
      'WT_RUB_C2C',
      '1500.00 RUB',
      '1500.00 RUB',
      'completed',
      'payer transferred 1500.00 RUB',
    ]);
    expect(rows[2]!.slice(-2)).toEqual(['rejected', 'create: no_provider_accepted']);
    expect(out).toMatch(/^5 of 5$/m);
    expect(out).not.toContain('more:');
    expect(deps.connects).toEqual([{ needKey: false }]);
  });

  it('a page with more prints the command for the next one; running it continues where the page ended', async () => {
    await world();
    const deps = asAdmin();
    await list(listOpts({ limit: 2, clientId: 'user-7' }), deps);
    expect(tableRows(deps.output.stdout).map((r) => r[3])).toEqual(['order-3', 'order-1']);
    expect(deps.output.stdout).toMatch(/^2 of 2$/m);

    const first = asAdmin();
    await list(listOpts({ limit: 2, since: '2026-01-01' }), first);
    const hint = /^more: paygate ops list --since 2026-01-01 --limit 2 --cursor ([0-9a-f-]{36})$/m.exec(
      first.output.stdout,
    );
    expect(hint, first.output.stdout).not.toBeNull();
    const second = asAdmin();
    await list(listOpts({ limit: 2, since: '2026-01-01', cursor: hint![1] }), second);
    expect(tableRows(second.output.stdout).map((r) => [r[2], r[3]])).toEqual([
      ['shop_a', 'order-2'],
      ['shop_b', 'order-1'],
    ]);
    expect(second.output.stdout).toContain('more: ');
  });

  it('a hint quotes what the shell would split', async () => {
    await world();
    const deps = asAdmin();
    await list(listOpts({ limit: 1, clientId: "it's me" }), deps);
    expect(deps.output.stdout).toMatch(/^0 of 0$/m);
    const more = asAdmin();
    await list(listOpts({ limit: 1, method: 'WT_RUB_C2C', minAmount: '600.00' }), more);
    expect(more.output.stdout).toMatch(
      /^more: paygate ops list --method WT_RUB_C2C --min-amount 600.00 --limit 1 --cursor /m,
    );
  });

  it('--all walks every page and prints every row once', async () => {
    const ids = await world();
    const deps = asAdmin();
    await list(listOpts({ all: true, limit: 2 }), deps);
    expect(tableRows(deps.output.stdout)).toHaveLength(5);
    expect(deps.output.stdout).toMatch(/^5 of 5$/m);
    expect(deps.output.spinners).toHaveLength(3);
    const json = asAdmin();
    await list(listOpts({ all: true, limit: 2, json: true }), json);
    const body = JSON.parse(json.output.stdout) as {
      total: number;
      operations: SandboxOperationRow[];
      has_more: boolean;
      next_cursor: null;
    };
    expect(body.operations.map((o) => o.operation_id)).toEqual([ids.a3, ids.b2, ids.a2, ids.b1, ids.a1]);
    expect(body).toMatchObject({ total: 5, has_more: false, next_cursor: null });
  });

  it('--json is exactly the body of GET /sandbox/operations', async () => {
    await world();
    const deps = asAdmin();
    await list(listOpts({ json: true, status: 'pending', limit: 2 }), deps);
    const raw = await h.call('GET', '/sandbox/operations?status=pending&limit=2', {
      key: null,
      headers: { 'x-admin-token': ADMIN },
    });
    expect(JSON.parse(deps.output.stdout)).toEqual(raw.body);
  });

  it('--csv: a header row and RFC 4180 records (CRLF, quotes doubled) that read back to the rows; the next page on stderr', async () => {
    await world();
    const deps = asAdmin();
    await list(listOpts({ csv: true, limit: 4 }), deps);
    const text = deps.output.stdout;
    expect(text.split('\r\n')[0]).toBe(CSV_COLUMNS.join(','));
    expect(text.endsWith('\r\n')).toBe(true);
    expect(text).toContain('"user, ""the"" second"');
    const records = parse(text, { columns: true, record_delimiter: '\r\n' }) as Record<string, string>[];
    const body = (await h.admin.sandbox.operations.list({ limit: 4 })).operations;
    expect(records).toEqual(body.map((r) => Object.fromEntries(CSV_COLUMNS.map((c) => [c, String(r[c] ?? '')]))));
    expect(records[0]!.client_id).toBe('user, "the" second');
    expect(deps.output.stderr).toMatch(/^more: paygate ops list --limit 4 --csv --cursor /m);

    const all = asAdmin();
    await list(listOpts({ csv: true, all: true, limit: 2 }), all);
    expect(all.output.stdout.split('\r\n').filter((l) => l.startsWith('operation_id,'))).toHaveLength(1);
    expect(parse(all.output.stdout, { columns: true })).toHaveLength(5);
  });

  it("a shop's key lists its own shop only", async () => {
    await world();
    const deps = asShop('shop_b');
    await list(listOpts(), deps);
    expect(tableRows(deps.output.stdout).map((r) => r[2])).toEqual(['shop_b', 'shop_b']);
    await expect(list(listOpts({ shop: 'shop_a' }), asShop('shop_b'))).rejects.toMatchObject({
      status: 400,
      code: 'validation_error',
    });
  });

  const usage: [string, Partial<OpsListOptions>, RegExp][] = [
    ['a status that is none', { status: 'lost' }, /^--status "lost": /],
    ['a date that is none', { since: 'yesterday' }, /^--since "yesterday": must be an RFC 3339 timestamp or a date/],
    ['a grouped amount', { minAmount: '1,500.00' }, /^--min-amount "1,500.00": must be a decimal string/],
    ['a negative amount', { maxAmount: '-1.00' }, /^--max-amount "-1.00": /],
    ['--json and --csv', { json: true, csv: true }, /^pass either --json or --csv/],
  ];
  for (const [what, o, message] of usage) {
    it(`usage error, before any request: ${what}`, async () => {
      const deps = asAdmin();
      const err = await list(listOpts(o), deps).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(UsageError);
      expect((err as Error).message).toMatch(message);
      expect(deps.connects).toEqual([]);
    });
  }

  it('no admin token and no API key is a usage error that says which to pass', async () => {
    const deps = inProcessDeps(h, {});
    const err = await list(listOpts(), deps).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UsageError);
    expect(err).toMatchObject({
      message: 'no sandbox admin token and no API key',
      hint: expect.stringMatching(/--admin-token .*--api-key/),
    });
  });
});

describe('paygate ops show', () => {
  it('by merchant_operation_id: summary with the outcome, timeline, receipts with the amount found, postings', async () => {
    const a = h.make({ apiKey: h.keyOf('shop_a') });
    const op = await a.payments.create(payment('order-9', 'user-1', '1500.00', 'WT_RUB_PHONE'));
    await a.payments.confirm({
      operation_id: op.operation_id,
      receipt: new URL('../../fixtures/receipts/ok-1500.pdf', import.meta.url).pathname,
    });
    const deps = asAdmin();
    await show(showOpts({ ref: 'order-9' }), deps);
    const out = deps.output.stdout;
    expect(out).toMatch(new RegExp(`^operation_id +${op.operation_id}$`, 'm'));
    expect(out).toMatch(/^shop_id +shop_a$/m);
    expect(out).toMatch(/^outcome +completed for the expected amount: .*amount_matches/m);
    const timeline = out.slice(out.indexOf('timeline\n'), out.indexOf('\n\nreceipts'));
    expect(
      timeline
        .split('\n')
        .slice(2)
        .map((l) => l.split(/ {2,}/)[1]),
    ).toEqual(['request', 'transition', 'receipt', 'transition']);
    expect(timeline).toMatch(/receipt +ok-1500\.pdf: 1500\.00 RUB found → completed \(amount_matches\)/);
    expect(timeline).toMatch(/transition +awaiting_confirmation → completed {2}\(.*amount_matches.*\)/);
    expect(out).toMatch(/^2026-01-01T00:00:00Z +ok-1500\.pdf +\d+ B +1500\.00 RUB +amount_matches +completed/m);
    expect(out).toMatch(/^2026-01-01T00:00:00Z +payment_settled +world:payins +shop:shop_a:balance +1455\.00 RUB$/m);
    expect(out).toContain('no webhook deliveries');
  });

  it('by operation_id, --json is the body of GET /sandbox/operations/:id', async () => {
    const ids = await world();
    const deps = asAdmin();
    await show(showOpts({ ref: ids.b1, json: true }), deps);
    expect(JSON.parse(deps.output.stdout)).toEqual(
      (await h.call('GET', `/sandbox/operations/${ids.b1}`, { key: null, headers: { 'x-admin-token': ADMIN } })).body,
    );
  });

  it('a merchant_operation_id two shops used: 409 ambiguous_reference naming them; --shop picks one; a key needs none', async () => {
    const ids = await world();
    const err = await show(showOpts({ ref: 'order-1' }), asAdmin()).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(APIError);
    expect(err).toMatchObject({ status: 409, code: 'ambiguous_reference' });
    expect((err as Error).message).toMatch(/shop_a.*shop_b|shop_b.*shop_a/);
    const b = asAdmin();
    await show(showOpts({ ref: 'order-1', shop: 'shop_b' }), b);
    expect(b.output.stdout).toMatch(new RegExp(`^operation_id +${ids.b1}$`, 'm'));
    const key = asShop('shop_a');
    await show(showOpts({ merchantOperationId: 'order-1' }), key);
    expect(key.output.stdout).toMatch(new RegExp(`^operation_id +${ids.a1}$`, 'm'));
  });

  it('usage errors: nothing named, or both forms', async () => {
    await expect(show(showOpts(), asAdmin())).rejects.toThrow(/missing <operation_id \| merchant_operation_id>/);
    await expect(show(showOpts({ ref: 'x', merchantOperationId: 'y' }), asAdmin())).rejects.toBeInstanceOf(UsageError);
  });
});

/** Resolves once the sandbox has registered one more write listener (a stream is open). */
function streamOpened(): Promise<void> {
  const set = h.sandbox.service.writeListeners;
  const before = set.size;
  return new Promise((resolve) => {
    const add = set.add.bind(set);
    set.add = (l) => {
      const r = add(l);
      if (set.size > before) {
        set.add = add;
        resolve();
      }
      return r;
    };
  });
}

describe('paygate ops watch', () => {
  it('one operation: its current state, each change with the move and its cause, and it returns once terminal', async () => {
    const a = h.make({ apiKey: h.keyOf('shop_a') });
    const op = await a.payments.create(payment('w-1', 'user-1'));
    const deps = asAdmin();
    const opened = streamOpened();
    const done = watchUntil(watchOpts({ id: 'w-1', shop: 'shop_a' }), deps, new AbortController().signal);
    await opened;
    await h.admin.sandbox.clock.advance('31m');
    await done;
    const lines = deps.output.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toBe(
      `2026-01-01T00:00:00Z  shop_a  w-1  payment WT_RUB_C2C  500.00 RUB  pending  (create)  ${op.operation_id}`,
    );
    expect(lines[1]).toMatch(/^2026-01-01T00:30:00Z {2}shop_a {2}w-1 .* pending → rejected {2}\(expired.*\)/);
    expect(deps.output.stderr).toContain('Watching w-1 until it is terminal (Ctrl+C stops)');
    expect(h.sandbox.service.writeListeners.size).toBe(0);
  });

  it('a tail with filters, as NDJSON: only the matching changes; it ends when the signal aborts', async () => {
    const a = h.make({ apiKey: h.keyOf('shop_a') });
    const b = h.make({ apiKey: h.keyOf('shop_b') });
    const deps = asAdmin();
    const ac = new AbortController();
    const opened = streamOpened();
    const done = watchUntil(watchOpts({ clientId: 'vip', json: true }), deps, ac.signal);
    await opened;
    await a.payments.create(payment('t-1', 'someone'));
    const vip = await b.payments.create(payment('t-2', 'vip', '800.00'));
    await b.sandbox.operations.pay({ operation_id: vip.operation_id });
    await h.sandbox.store.sync();
    // In process the events are delivered as written; wait for the last one to be printed.
    while (deps.output.stdout.split('\n').length < 3) await new Promise((r) => setImmediate(r));
    ac.abort();
    await done;
    const rows = deps.output.stdout
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as SandboxOperationRow);
    expect(rows.map((r) => [r.merchant_operation_id, r.status, r.shop_id])).toEqual([
      ['t-2', 'pending', 'shop_b'],
      ['t-2', 'completed', 'shop_b'],
    ]);
    expect(h.sandbox.service.writeListeners.size).toBe(0);
  });

  it('filters with an operation id are a usage error; so is a bad filter', async () => {
    await expect(
      watchUntil(watchOpts({ id: 'w-1', status: 'pending' }), asAdmin(), new AbortController().signal),
    ).rejects.toThrow(/--status pending: filters go with a tail/);
    await expect(watchUntil(watchOpts({ until: 'soon' }), asAdmin(), new AbortController().signal)).rejects.toThrow(
      /^--until "soon": /,
    );
  });
});

describe('paygate logs tail', () => {
  it('the newest entries first (--since-start), then each request as it is answered, one line each; NDJSON with --json', async () => {
    const a = h.make({ apiKey: h.keyOf('shop_a') });
    for (let i = 0; i < 4; i++) await a.balances.list();
    const deps = asAdmin();
    const ac = new AbortController();
    const done = tailUntil({ errors: false, sinceStart: 2, json: true, path: '/v1/' }, deps, ac.signal);
    const bad = h.make({ apiKey: 'pg_test_wrong', maxRetries: 0 });
    while (deps.output.stdout.split('\n').length < 3) await new Promise((r) => setImmediate(r));
    await bad.balances.list().catch(() => undefined);
    while (deps.output.stdout.split('\n').length < 4) await new Promise((r) => setImmediate(r));
    ac.abort();
    await done;
    const entries = deps.output.stdout
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as SandboxRequestLogEntry);
    expect(entries.map((e) => [e.path, e.status, e.shop_id, e.error_code])).toEqual([
      ['/v1/balances', 200, 'shop_a', null],
      ['/v1/balances', 200, 'shop_a', null],
      ['/v1/balances', 401, '', 'invalid_api_key'],
    ]);
  });

  it('a human line: time, shop, method, path, status, latency, error code, request id', async () => {
    const res = await h.call('GET', '/v1/nothing', { key: h.keyOf('shop_b') });
    const deps = asAdmin();
    const ac = new AbortController();
    const done = tailUntil({ errors: true, sinceStart: 1, json: false }, deps, ac.signal);
    while (deps.output.stdout === '') await new Promise((r) => setImmediate(r));
    ac.abort();
    await done;
    expect(deps.output.stdout).toMatch(
      new RegExp(
        `^\\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z {2}shop_b +GET +/v1/nothing +404 +[\\d.]+ ms {2}not_found +${res.headers.get('x-request-id')}\\n$`,
      ),
    );
  });

  it('a bad --status is a usage error', async () => {
    await expect(
      tailUntil({ errors: false, sinceStart: 0, json: false, status: '4' }, asAdmin(), new AbortController().signal),
    ).rejects.toThrow(/^--status "4": /);
  });
});

describe('paygate balances --all-shops', () => {
  it("every shop's balances as one table; --json is the body; the key alone is not enough", async () => {
    const deps: InProcessDeps = asAdmin();
    await balances({ json: false, allShops: true }, deps);
    expect(deps.connects).toEqual([{ needKey: false, needAdminToken: true }]);
    const out = deps.output.stdout;
    expect(out).toMatch(/^shop_id +name +currency +balance +reserved +current_minus$/m);
    expect(out).toMatch(/^shop_a +Acme Games \(RU storefront\) +RUB +1000000\.00 RUB +0\.00 RUB +0\.00 RUB$/m);
    expect(out).toMatch(/^ +USDT +10000\.00 USDT +0\.00 USDT +0\.00 USDT$/m);
    expect(out).toMatch(/^shop_pool +.* 1000000000\.00 RUB/m);
    const json = asAdmin();
    await balances({ json: true, allShops: true }, json);
    expect(JSON.parse(json.output.stdout)).toEqual(await h.admin.sandbox.balances());
    // The CLI's connect() refuses first (a usage error, see ops-process.test.ts); the client would not send it either.
    const key = asShop('shop_a');
    await expect(balances({ json: false, allShops: true }, key)).rejects.toThrow(/needs the sandbox admin token/);
  });

  it('the per-shop balances print amounts the same way: 1000000.00 RUB, never grouped', async () => {
    const deps = asShop('shop_a');
    await balances({ json: false, allShops: false }, deps);
    expect(deps.output.stdout).toMatch(/^RUB +1000000\.00 RUB/m);
    expect(deps.output.stdout).not.toMatch(/\d,\d{3}/);
  });
});

describe('a listing without total (counting would have checked more than 20,000 operations)', () => {
  it('says how many are shown and whether more match, never "of undefined"', async () => {
    const { operations } = await (async () => {
      await world();
      return h.admin.sandbox.operations.list({ limit: 2 });
    })();
    const page = { operations, has_more: true, next_cursor: operations[1]!.operation_id };
    expect(operationListView(page)).toMatch(/\n2 shown, more match$/);
    expect(opsPageView(page, undefined)).toMatch(/\n2 shown, more match$/);
    expect(operationListView({ ...page, has_more: false })).toMatch(/\n2 shown$/);
    expect(operationListView({ ...page, total: 9 })).toMatch(/\n2 of 9$/);
  });
});
