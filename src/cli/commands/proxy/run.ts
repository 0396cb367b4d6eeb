// `paygate proxy` (flags: define.ts): listen, forward to the upstream, print each violation as it is seen, and on
// SIGINT/SIGTERM write --report, --junit and --record; exit 1 when a violation was seen, 3 when the upstream could
// not be reached for some request.
import { readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Exchange, Violation } from '../../../conformance/types.js';
import { dashboardUrl } from '../../../emulator/dashboard/url.js';
import { publicBase, publicUrlProblem } from '../../../emulator/public-url.js';
import type { Proxy, UpstreamFailure } from '../../../proxy/server.js';
import type { CommandDeps } from '../../deps.js';
import { CheckFailedError, CliError, UsageError } from '../../errors.js';
import { EXIT } from '../../exit-codes.js';
import type { ProxyOptions } from './define.js';
import { webhookBanner, webhookForwarding, webhookJson } from './webhook-flags.js';

/** The --upstream URL, or a usage error saying what is wrong with it. */
export function upstreamUrl(value: string | undefined): URL {
  const hint =
    'give the gateway base URL, e.g. --upstream https://gateway.staging.example.com or http://127.0.0.1:4080';
  if (value === undefined || value === '') throw new UsageError('--upstream <url> is required', hint);
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(`--upstream "${value}" is not a URL`, hint);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new UsageError(`--upstream "${value}" is not an http or https URL`, hint);
  if (url.search || url.hash) throw new UsageError(`--upstream "${value}" has a query or a fragment`, hint);
  if (url.username || url.password)
    throw new UsageError('--upstream must not carry a user name or password', 'the API key travels in X-API-Key');
  return url;
}

/** The --ca / PAYGATE_CA file as PEM text, checked before anything listens. */
function caText(file: string | undefined): string | undefined {
  const path = file ?? process.env.PAYGATE_CA;
  if (!path) return undefined;
  const from = file ? '--ca' : 'PAYGATE_CA';
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw new UsageError(`cannot read the ${from} file ${path}: ${(e as NodeJS.ErrnoException).code ?? String(e)}`);
  }
  if (!text.includes('-----BEGIN CERTIFICATE-----'))
    throw new UsageError(`the ${from} file ${path} holds no PEM certificate`, 'give the certificate, not the key');
  return text;
}

/** One violation as a line: rule, section, endpoint, operation, expected / got. */
export function violationLine(v: Violation): string {
  const op = v.operationId ?? v.merchantOperationId;
  return `✗ ${v.rule} ${v.section} ${v.endpoint}${op ? ` ${op}` : ''} (#${v.exchange}): ${v.expected}; ${v.got}`;
}

export const violationJson = (v: Violation) => ({
  type: 'violation',
  rule: v.rule,
  section: v.section,
  endpoint: v.endpoint,
  operation_id: v.operationId ?? null,
  merchant_operation_id: v.merchantOperationId ?? null,
  expected: v.expected,
  got: v.got,
  exchange: v.exchange,
  at: v.at ?? null,
});

async function writeOut(file: string, text: string): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, text);
}

function untilSignal(): Promise<void> {
  return new Promise((resolve) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}

/** A usage error for a --public-url that is not an absolute http(s) URL without query, fragment or user. */
function checkPublicUrl(publicUrl: string | undefined): void {
  const problem = publicUrl === undefined ? undefined : publicUrlProblem(publicUrl);
  if (problem)
    throw new UsageError(
      `--public-url "${publicUrl}" ${problem}`,
      'give the base URL browsers reach the proxy at, e.g. https://proxy.example.test',
    );
}

export async function proxy(opts: ProxyOptions, deps: CommandDeps): Promise<void> {
  const upstream = upstreamUrl(opts.upstream);
  const ca = caText(opts.ca);
  const webhooks = webhookForwarding(opts);
  checkPublicUrl(opts.publicUrl);
  const [{ createProxy }, { createConformanceChecker, reportJson, reportJunit }, recording] = await Promise.all([
    import('../../../proxy/server.js'),
    import('../../../conformance/index.js'),
    opts.record ? import('../../../proxy/record.js') : undefined,
  ]);
  const checker = createConformanceChecker();
  // The recorder asks the upstream whose an operation is through the proxy, once it exists.
  let p: Proxy | undefined;
  const shopOf = (id: string, key: string) => p?.shopOf(id, key) ?? Promise.resolve(undefined);
  const recorder = recording?.createRecorder({ upstream, shopOf, webhooks: webhooks !== undefined });
  const out = deps.output;
  p = createProxy({
    upstream,
    ca,
    checker,
    webhooks,
    publicUrl: opts.publicUrl,
    ...recorder?.proxyOptions,
    onViolation: (v: Violation, _x: Exchange) =>
      opts.json ? out.print(JSON.stringify(violationJson(v))) : out.note(violationLine(v)),
    onUpstreamFailure: (f: UpstreamFailure) =>
      opts.json
        ? out.print(JSON.stringify({ type: 'upstream_failure', ...f }))
        : out.note(`! ${f.method} ${f.path}: the upstream could not be reached (${f.error}); the caller got a 502`),
  });
  const stopped = untilSignal();
  let url: string;
  try {
    ({ url } = await p.listen({ port: opts.port, host: opts.host }));
  } catch (e) {
    throw new CliError(
      `paygate proxy could not listen on ${opts.host}:${opts.port}: ${(e as NodeJS.ErrnoException).code ?? String(e)}`,
      EXIT.USAGE,
      'pass --port <other> (--port 0 picks a free one)',
      'listen_failed',
    );
  }
  const upstreamShown = upstream.href.replace(/\/$/, '');
  announce(out, opts, { url, upstream: upstreamShown, adminToken: p.adminToken, webhooks });
  await stopped;
  await p.close();
  const meta = { upstream: upstreamShown, baseUrl: url };
  const report = { ...reportJson(checker, meta), upstream_failures: p.failures };
  if (opts.report) await writeOut(opts.report, `${JSON.stringify(report, null, 2)}\n`);
  if (opts.junit) await writeOut(opts.junit, reportJunit(checker, `paygate proxy ${upstreamShown}`));
  const recorded = recorder && opts.record ? await recorder.write(opts.record) : undefined;
  const summary = `${p.count} exchanges, ${checker.violationCount} violations, ${p.failures.length} requests the upstream did not answer`;
  if (opts.json)
    out.print(
      JSON.stringify({
        type: 'summary',
        exchanges: p.count,
        violations: checker.violationCount,
        upstream_failures: p.failures.length,
        ...(recorded ? { recorded: { file: opts.record, ...recorded } } : {}),
      }),
    );
  else {
    out.note(`paygate proxy stopped: ${summary}`);
    if (recorded)
      out.note(
        `recorded ${recorded.steps} steps (${recorded.skipped} marked skip) to ${opts.record}: paygate scenario run ${opts.record} --base-url <sandbox> --admin-token <token>`,
      );
  }
  if (checker.violationCount > 0) throw new CheckFailedError(`the upstream broke the contract: ${summary}`);
  if (p.failures.length > 0)
    throw new CliError(
      `the upstream could not be reached: ${summary}`,
      EXIT.CONNECTION,
      undefined,
      'upstream_unreachable',
    );
}

/** The --json start line: where the proxy listens, its upstream, its admin token, its dashboard, its webhooks. */
/** The ready line (`--json`) or the banner; the dashboard under --public-url when given. */
function announce(
  out: CommandDeps['output'],
  opts: ProxyOptions,
  r: { url: string; upstream: string; adminToken: string; webhooks: ReturnType<typeof webhookForwarding> },
): void {
  const dashboard = dashboardUrl(opts.publicUrl === undefined ? r.url : publicBase(opts.publicUrl));
  if (opts.json) out.print(JSON.stringify(readyJson(r.url, r.upstream, r.adminToken, r.webhooks, dashboard)));
  else
    out.print(
      [banner(r.url, r.upstream, r.adminToken, opts, dashboard), ...webhookBanner(r.url, r.webhooks)].join('\n'),
    );
}

function readyJson(
  url: string,
  upstream: string,
  adminToken: string,
  webhooks: ReturnType<typeof webhookForwarding>,
  dashboard_url: string,
) {
  return { base_url: url, upstream, admin_token: adminToken, dashboard_url, ...webhookJson(url, webhooks) };
}

function banner(url: string, upstream: string, adminToken: string, opts: ProxyOptions, dashboard: string): string {
  return [
    'paygate proxy is ready',
    `  base URL      ${url}  (point your integration here)`,
    `  upstream      ${upstream}`,
    `  admin token   ${adminToken}  (X-Admin-Token for GET ${url}/proxy/violations and /proxy/exchanges)`,
    `  dashboard     ${dashboard}  (sign in with the admin token: the traffic, its violations, live)`,
    ...(opts.record ? [`  recording to  ${opts.record}`] : []),
    ...(opts.report ? [`  report        ${opts.report}`] : []),
    ...(opts.junit ? [`  junit         ${opts.junit}`] : []),
    '  Ctrl+C stops it and writes the files; violations are printed as they are seen.',
  ].join('\n');
}
