// The commander program: every command, option and help text. Actions only `await import()` their command
// module, so `paygate --help` loads commander and nothing else.
import { Command, InvalidArgumentError, Option } from 'commander';
import { redact, registerSecretsFromProcess } from './mask.js';

const example = (lines: string): string => `\nExamples:\n${lines.replace(/^\n/, '')}`;

function parsePort(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || n > 65535) throw new InvalidArgumentError('must be an integer from 0 to 65535 (0 picks a free port)');
  return n;
}

/** `10s`, `30m`, `2h`, `1d`, `500ms` (sent as given) or a bare number of milliseconds. */
function parseDuration(value: string): string | number {
  if (/^\d+$/.test(value)) return Number(value);
  if (/^\d+(ms|s|m|h|d)$/.test(value)) return value;
  throw new InvalidArgumentError('must be a duration such as 10s, 30m, 2h, 1d, 500ms, or a number of milliseconds');
}

/** `--read-latency`: milliseconds, bare (`1500`) or as a duration (`1500ms`, `2s`, `1.5s`, `1m`); 0 to 60 s. */
function parseLatency(value: string): number {
  const m = /^(\d+(?:\.\d+)?)(ms|s|m)?$/.exec(value);
  const ms = m ? Number(m[1]) * (m[2] === 's' ? 1000 : m[2] === 'm' ? 60_000 : 1) : NaN;
  if (!Number.isInteger(ms)) throw new InvalidArgumentError('must be milliseconds or a duration such as 1500ms, 2s or 1.5s (whole milliseconds)');
  if (ms > 60_000) throw new InvalidArgumentError('must be at most 60s (60000 ms)');
  return ms;
}

/** An integer, negative allowed (`--seed`). */
function parseInteger(value: string): number {
  if (!/^-?\d+$/.test(value) || !Number.isSafeInteger(Number(value))) throw new InvalidArgumentError('must be an integer');
  return Number(value);
}

function parseIntIn(min: number, max: number, what: string) {
  return (value: string): number => {
    const n = Number(value);
    if (!/^\d+$/.test(value) || n < min || n > max) throw new InvalidArgumentError(`must be ${what}`);
    return n;
  };
}

/** Repeatable option: every occurrence, in order. */
function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

function parseLimit(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || n < 1 || n > 10) throw new InvalidArgumentError('must be an integer from 1 to 10');
  return n;
}

/** The flags of a create request (spec §2.2), named after the fields in kebab case. */
function addCreateFlags(cmd: Command): Command {
  return cmd
    .option('--method <method>', 'payment method, e.g. WT_RUB_C2C or WT_RUB_PHONE')
    .option('--amount <amount>', 'decimal amount with at most 2 decimals, e.g. 1500.00')
    .option('--currency <code>', 'ISO 4217 currency code, e.g. RUB')
    .option('--client-id <id>', 'end-user identifier')
    .option('--client-ip <ip>', 'end-user IP address (antifraud)')
    .option('--merchant-operation-id <id>', 'idempotency key (default: a new UUID, printed)')
    .option('--number <number>', 'destination card or phone number (payouts)')
    .option('--name <name>', 'holder or recipient name (payouts)')
    .option('--bankname <code>', 'destination bank code, e.g. sber (WT_RUB_PHONE payouts)')
    .option('--json', 'print exactly the response body as JSON');
}

/** A command function: positional arguments, then the merged options. */
type Action = (...args: never[]) => Promise<void>;

/**
 * A commander action that imports its command module only when it runs, then calls the command with the
 * positional arguments and the options merged with the global ones (`--base-url`, `--api-key`, `--profile`).
 */
function run(load: () => Promise<Action>) {
  return async (...args: unknown[]): Promise<void> => {
    const cmd = args[args.length - 1] as Command;
    const action = (await load()) as (...a: unknown[]) => Promise<void>;
    await action(...args.slice(0, -2), cmd.optsWithGlobals());
  };
}

const JSON_HELP = 'print exactly the response body as JSON';
/** Help text of the commands that need the sandbox's admin token. */
const ADMIN_NOTE = `
Needs the sandbox admin token: --admin-token, PAYGATE_ADMIN_TOKEN or the profile key admin-token
(\`paygate config set admin-token <token>\`). \`paygate sandbox start\` prints it; set PAYGATE_ADMIN_TOKEN when
starting the sandbox to fix it.`;
const adminExample = (lines: string): string => `${ADMIN_NOTE}\n${example(lines)}`;
const payment = () => import('./commands/payment.js');
const controls = () => import('./commands/sandbox-operations.js');
const sandboxKeys = () => import('./commands/sandbox-keys.js');
const sandboxWebhooks = () => import('./commands/sandbox-webhooks.js');
const config = () => import('./commands/config.js');
const amounts = () => import('./commands/amounts.js');
const sandboxPool = () => import('./commands/sandbox-pool.js');
const sandboxLinks = () => import('./commands/sandbox-links.js');

export function buildProgram(version: string): Command {
  const program = new Command('paygate');
  program
    .description('Offline sandbox of the payment gateway API, and a CLI to call it.')
    .version(version, '-V, --version', 'print the paygate version')
    .option('--base-url <url>', 'API base URL (env: PAYGATE_BASE_URL; else the profile; else http://127.0.0.1:4080)')
    .option('--api-key <key>', 'API key sent as X-API-Key (env: PAYGATE_API_KEY; else the profile)')
    .option(
      '--admin-token <token>',
      'sandbox admin token sent as X-Admin-Token by the clock, evidence, keys, pool show / settings and reset controls (env: PAYGATE_ADMIN_TOKEN; else the profile key admin-token; printed by `paygate sandbox start`)',
    )
    .option('--profile <name>', 'config profile to use (env: PAYGATE_PROFILE; else the current one, else "default")')
    .exitOverride()
    .configureOutput({
      writeErr: (s) => {
        registerSecretsFromProcess();
        process.stderr.write(redact(s));
      },
    })
    .showHelpAfterError('(add --help for usage)')
    .configureHelp({ showGlobalOptions: true, sortSubcommands: false })
    .addHelpText(
      'after',
      example(`
  $ paygate sandbox start                      # run the sandbox on http://127.0.0.1:4080
  $ paygate config set api-key pg_test_xxxxxxxxxxxx
  $ paygate payment create --method WT_RUB_C2C --amount 1500.00 --currency RUB --client-id user-42
  $ paygate state 1f0c6d1e-8a43-4b5e-9d1a-0c7a4a1e2b3c --json

Exit codes: 0 ok, 1 API error, 2 usage, 3 connection or timeout, 4 response not matching the contract,
5 sandbox could not start.`),
    );

  // payment
  const paymentCmd = program.command('payment').description('inbound payments: create, hosted link, confirm, cancel');
  paymentCmd.addHelpText('after', example(`
  $ paygate payment create --method WT_RUB_C2C --amount 1500.00 --currency RUB --client-id user-42
  $ paygate payment link --method WT_RUB_C2C --amount 1500.00 --currency RUB --client-id user-42`));

  addCreateFlags(paymentCmd.command('create').description('create an inbound payment (POST /v1/payment)'))
    .addHelpText('after', example(`
  $ paygate payment create --method WT_RUB_C2C --amount 1500.00 --currency RUB --client-id user-42
  $ paygate payment create --method WT_RUB_PHONE --amount 990.00 --currency RUB --client-id user-42 \\
      --merchant-operation-id order-1001 --json`))
    .action(run(async () => (await payment()).createPayment));

  addCreateFlags(paymentCmd.command('link').description('create a payment with a hosted page URL (POST /v1/payment/link)'))
    .option('--flexible', 'let the payer choose the amount (POST /v1/payment/link/flexible)')
    .option('--recommended-amount <amount>', 'with --flexible: the amount to suggest (default: --amount)')
    .option('--min-amount <amount>', 'with --flexible: lowest amount the payer may be offered')
    .option('--max-amount <amount>', 'with --flexible: highest amount the payer may be offered')
    .addHelpText('after', example(`
  $ paygate payment link --method WT_RUB_C2C --amount 1500.00 --currency RUB --client-id user-42
  $ paygate payment link --flexible --method WT_RUB_C2C --currency RUB --client-id user-42 \\
      --recommended-amount 1500.00 --min-amount 1000.00 --max-amount 2000.00`))
    .action(run(async () => (await payment()).createLink));

  paymentCmd
    .command('confirm')
    .description('upload a PDF receipt for a payment awaiting confirmation (POST /v1/confirm_payment)')
    .argument('<operation_id>', 'the payment\'s operation_id')
    .option('--receipt <file>', 'path of the receipt PDF')
    .option('--json', 'print exactly the response body as JSON')
    .addHelpText('after', example(`
  $ paygate payment confirm 1f0c6d1e-8a43-4b5e-9d1a-0c7a4a1e2b3c --receipt ./receipt.pdf`))
    .action(run(async () => (await payment()).confirmPayment));

  paymentCmd
    .command('cancel')
    .description('cancel a payment (POST /v1/cancel_operation); idempotent, safe to repeat')
    .argument('[operation_id]', 'the payment\'s operation_id (or use --merchant-operation-id)')
    .option('--merchant-operation-id <id>', 'the idempotency key the payment was created with')
    .option('--reason <text>', 'audit-log reason, at most 2048 bytes')
    .option('--json', 'print exactly the response body as JSON')
    .addHelpText('after', example(`
  $ paygate payment cancel 1f0c6d1e-8a43-4b5e-9d1a-0c7a4a1e2b3c --reason "customer left"
  $ paygate payment cancel --merchant-operation-id order-1001`))
    .action(run(async () => (await payment()).cancelPayment));

  // payout
  const payoutCmd = program.command('payout').description('outbound payouts');
  payoutCmd.addHelpText('after', example(`
  $ paygate payout create --method WT_RUB_C2C --amount 500.00 --currency RUB --client-id user-42 --number 4111111111111111`));
  addCreateFlags(payoutCmd.command('create').description('create an outbound payout (POST /v1/payout)'))
    .addHelpText('after', example(`
  $ paygate payout create --method WT_RUB_C2C --amount 500.00 --currency RUB --client-id user-42 \\
      --number 4111111111111111 --name "IVAN PETROV"
  $ paygate payout create --method WT_RUB_PHONE --amount 500.00 --currency RUB --client-id user-42 \\
      --number 79001234567 --bankname sber --json`))
    .action(run(async () => (await import('./commands/payout.js')).createPayout));

  // amounts
  program
    .command('availability')
    .description('available payment amount intervals (GET /v1/payment/availability)')
    .option('--method <method>', 'payment method, e.g. WT_RUB_C2C')
    .option('--currency <code>', 'ISO 4217 currency code, e.g. RUB')
    .option('--min-amount <amount>', 'lower end of the range to check')
    .option('--max-amount <amount>', 'upper end of the range to check')
    .option('--json', 'print exactly the response body as JSON')
    .addHelpText('after', `
Prints coverage (whether every provider of the route is a pool), whether the list was truncated, and the intervals
as "min … max" rows, both ends inclusive (a single amount when both ends are equal). Advisory: nothing is reserved.
${example(`
  $ paygate availability --method WT_RUB_C2C --currency RUB --min-amount 100.00 --max-amount 5000.00
  $ paygate availability --method WT_RUB_C2C --currency RUB --min-amount 500.00 --max-amount 50000.00 --json`)}`)
    .action(run(async () => (await amounts()).availability));

  program
    .command('recommend')
    .description('nearby payable amounts (POST /v1/payment/recommendations)')
    .option('--method <method>', 'payment method, e.g. WT_RUB_C2C')
    .option('--currency <code>', 'ISO 4217 currency code, e.g. RUB')
    .option('--amount <amount>', 'the amount the payer wants to pay')
    .option('--min-amount <amount>', 'lowest amount the payer accepts')
    .option('--max-amount <amount>', 'highest amount the payer accepts')
    .option('--limit <n>', 'how many suggestions, 1 to 10 (server default 3)', parseLimit)
    .option('--json', 'print exactly the response body as JSON')
    .addHelpText('after', `
Prints the suggestions best first, each with its signed delta from --amount (+300.00, −4,700.00), then the
intervals; --json is the body as received (delta "-4700.00").
${example(`
  $ paygate recommend --method WT_RUB_C2C --currency RUB --amount 1500.00 --min-amount 1000.00 --max-amount 2000.00 --limit 5`)}`)
    .action(run(async () => (await amounts()).recommend));

  // state, balances, health
  program
    .command('state')
    .description('read the state of an operation (POST /v1/get_operation_state)')
    .argument('[operation_id]', 'the operation_id (or use --merchant-operation-id)')
    .option('--merchant-operation-id <id>', 'the idempotency key the operation was created with')
    .option('--json', 'print exactly the response body as JSON')
    .addHelpText('after', example(`
  $ paygate state 1f0c6d1e-8a43-4b5e-9d1a-0c7a4a1e2b3c
  $ paygate state --merchant-operation-id order-1001 --json`))
    .action(run(async () => (await import('./commands/state.js')).state));

  const operationCmd = program.command('operation').description('one operation as the sandbox records it (sandbox control API)');
  operationCmd.addHelpText('after', example(`
  $ paygate operation history 1f0c6d1e-8a43-4b5e-9d1a-0c7a4a1e2b3c`));
  operationCmd
    .command('history')
    .description('an operation\'s status transitions and receipt uploads (GET /sandbox/operations/{id}; sandbox only)')
    .argument('[operation_id]', 'the operation_id (or use --merchant-operation-id)')
    .option('--merchant-operation-id <id>', 'the idempotency key the operation was created with')
    .option('--json', JSON_HELP)
    .addHelpText('after', example(`
  $ paygate operation history 1f0c6d1e-8a43-4b5e-9d1a-0c7a4a1e2b3c
  $ paygate operation history --merchant-operation-id order-1001 --json`))
    .action(run(async () => (await import('./commands/operation.js')).history));

  program
    .command('balances')
    .description('balances of the shop bound to the API key (GET /v1/balances)')
    .option('--json', 'print exactly the response body as JSON')
    .addHelpText('after', example(`
  $ paygate balances
  $ paygate balances --profile staging --json`))
    .action(run(async () => (await import('./commands/balances.js')).balances));

  program
    .command('health')
    .description('check the livez, healthz and readyz probes (exit 1 when any is unhealthy)')
    .option('--json', 'print the probe results as JSON: {"livez":{"ok":true,"status":204},...}')
    .addHelpText('after', example(`
  $ paygate health
  $ paygate health --base-url http://127.0.0.1:4080 --json`))
    .action(run(async () => (await import('./commands/health.js')).health));

  program
    .command('openapi')
    .description('print the OpenAPI 3.1 document of the gateway')
    .addHelpText('after', example(`
  $ paygate openapi > openapi.json`))
    .action(async () => {
      const m = await import('./commands/openapi.js');
      await m.openapi(version);
    });

  // config
  const configCmd = program.command('config').description('profiles of base URL, API key and sandbox admin token, stored in the config file');
  configCmd.addHelpText('after', `
The config file is $PAYGATE_CONFIG, else $XDG_CONFIG_HOME/paygate/config.json, else ~/.config/paygate/config.json
(mode 0600). Keys: base-url, api-key, admin-token. API keys and admin tokens are always shown masked.
Precedence: --base-url/--api-key/--admin-token > PAYGATE_BASE_URL/PAYGATE_API_KEY/PAYGATE_ADMIN_TOKEN > profile > default.
${example(`
  $ paygate config set api-key pg_test_xxxxxxxxxxxx
  $ paygate config set base-url http://127.0.0.1:4080 --profile staging
  $ paygate config use staging
  $ paygate config list`)}`);

  configCmd
    .command('set')
    .description('set a key of a profile (the --profile one, else the current one)')
    .argument('<key>', 'base-url, api-key or admin-token')
    .argument('<value>', 'the value')
    .addHelpText('after', example(`
  $ paygate config set api-key pg_test_xxxxxxxxxxxx
  $ paygate config set admin-token pg_admin_xxxxxxxxxxxx       # printed by \`paygate sandbox start\`
  $ paygate config set base-url http://127.0.0.1:4080 --profile staging`))
    .action(run(async () => (await config()).configSet));

  configCmd
    .command('get')
    .description('print a key of a profile (api-key and admin-token masked)')
    .argument('<key>', 'base-url, api-key or admin-token')
    .option('--json', 'print {"profile","key","value"} as JSON')
    .addHelpText('after', example(`
  $ paygate config get base-url
  $ paygate config get api-key --profile staging`))
    .action(run(async () => (await config()).configGet));

  configCmd
    .command('list')
    .description('list every profile and its keys (api-key and admin-token masked)')
    .option('--json', 'print the profiles as JSON (api-key and admin-token masked)')
    .addHelpText('after', example(`
  $ paygate config list`))
    .action(run(async () => (await config()).configList));

  configCmd
    .command('use')
    .description('make a profile the current one (used when neither --profile nor PAYGATE_PROFILE is set)')
    .argument('<profile>', 'profile name')
    .addHelpText('after', example(`
  $ paygate config use staging`))
    .action(run(async () => (await config()).configUse));

  // sandbox
  const sandboxCmd = program
    .command('sandbox')
    .description('run the offline sandbox of the gateway, and drive it: time, payer / provider / reviewer actions, evidence, keys, pool, links, reset');
  sandboxCmd.addHelpText('after', `
Actions on one shop's operations (pay, settle, review, operations, webhooks, pool layout, links) take that shop's API
key; the clock, evidence, keys, pool show / settings and reset take the admin token (--admin-token,
PAYGATE_ADMIN_TOKEN or the profile key admin-token), which \`paygate sandbox start\` prints (set PAYGATE_ADMIN_TOKEN
when starting it to fix it).
${example(`
  $ paygate sandbox start
  $ paygate sandbox start --port 0 --in-memory --frozen-clock --json
  $ paygate sandbox pay 1f0c6d1e-8a43-4b5e-9d1a-0c7a4a1e2b3c
  $ paygate sandbox time advance 10s --admin-token pg_admin_xxxxxxxxxxxx`)}`);
  sandboxCmd
    .command('start')
    .description('start the sandbox HTTP server (Ctrl+C stops it)')
    .addOption(new Option('--port <n>', 'port to listen on; 0 picks a free one').env('PAYGATE_PORT').default(4080).argParser(parsePort))
    .addOption(new Option('--host <host>', 'interface to listen on').default('127.0.0.1'))
    .addOption(new Option('--store <path>', 'state file (persists between runs)').env('PAYGATE_STORE').default('.paygate/sandbox.json'))
    .addOption(
      new Option('--fixtures <path>', 'world fixture file: shops, keys, providers, routes (default: the bundled fixtures/default.json)').env(
        'PAYGATE_FIXTURES',
      ),
    )
    .option('--in-memory', 'keep state in memory only (nothing written, --store ignored)')
    .option('--reset', 'delete the stored state before starting')
    .option('--frozen-clock', 'stand the sandbox clock still until advanced')
    .option('--fsync', 'fdatasync every group write, so acknowledged changes survive power loss too (default: survive a crash of the process)')
    .option('--webhook-url <url>', 'register this webhook URL for every shop (its whsec_ secret is printed)')
    .option('--json', 'print the startup information (URL, demo keys) as JSON')
    .addHelpText('after', example(`
  $ paygate sandbox start
  $ paygate sandbox start --port 0 --in-memory --frozen-clock
  $ PAYGATE_STORE=/tmp/pg.json paygate sandbox start --reset --json`))
    .action(run(async () => (await import('./commands/sandbox.js')).sandboxStart));

  addSandboxControls(sandboxCmd);
  addWebhooksListen(program);
  return program;
}

/** `paygate webhooks listen`: a local receiver that verifies, prints and forwards the sandbox's webhooks. */
function addWebhooksListen(program: Command): void {
  const webhooksCmd = program.command('webhooks').description('receive the sandbox\'s webhooks locally: verify, print, forward');
  webhooksCmd.addHelpText('after', example(`
  $ paygate webhooks listen --port 4090 --secret whsec_xxxxxxxx
  $ paygate sandbox start --webhook-url http://127.0.0.1:4090/webhooks`));
  webhooksCmd
    .command('listen')
    .description('run a local webhook receiver that verifies signatures, prints each event and can forward it (Ctrl+C stops)')
    .addOption(new Option('--port <n>', 'port to listen on; 0 picks a free one').default(4090).argParser(parsePort))
    .addOption(new Option('--host <host>', 'interface to listen on').default('127.0.0.1'))
    .option('--secret <whsec>', 'whsec_ secret to verify webhook-signature with; repeat it to accept several (a rotation)', collect)
    .option('--tolerance <seconds>', 'also reject a webhook-timestamp further than this from the real clock (default: not checked, as the sandbox clock may be frozen or advanced)', parseIntIn(0, Number.MAX_SAFE_INTEGER, 'an integer ≥ 0'))
    .option('--forward-to <url>', 'POST each original body, with its webhook-* headers, on to this URL (your app) and print its status')
    .option('--json', 'print {"listening":"<url>"} first, then one JSON line per event: {received_at, verified, event} (plus error, forward)')
    .addHelpText('after', `
Every POST is answered 204, also when its signature is invalid (marked SIGNATURE INVALID in red): the listener
is for seeing everything the sandbox sends. Without --secret nothing is verified. On start it prints the URL to pass
to \`paygate sandbox start --webhook-url\` or \`paygate sandbox webhooks add\`.
${example(`
  $ paygate webhooks listen --port 4090 --secret whsec_xxxxxxxx
  $ paygate webhooks listen --port 0 --json --secret whsec_old --secret whsec_new
  $ paygate webhooks listen --secret whsec_xxxxxxxx --forward-to http://127.0.0.1:3000/hooks`)}`)
    .action(run(async () => (await import('./commands/webhooks-listen.js')).listen));
}

/** `paygate sandbox time | pay | settle | review | operations | evidence | keys | webhooks | pool | links | reset`: the control API (/sandbox). */
function addSandboxControls(sandboxCmd: Command): void {
  const timeCmd = sandboxCmd
    .command('time')
    .description('show the sandbox clock: now, frozen or not, pending timers (GET /sandbox/clock; admin token)')
    .option('--json', JSON_HELP)
    .addHelpText('after', adminExample(`
  $ paygate sandbox time
  $ paygate sandbox time advance 10s`))
    .action(run(async () => (await import('./commands/sandbox-time.js')).time));
  timeCmd
    .command('advance')
    .description('move the sandbox clock forward and run every timer that falls due; prints the new time (admin token)')
    .argument('<duration>', 'how far: 500ms, 10s, 30m, 2h, 1d, or a number of milliseconds', parseDuration)
    .option('--json', JSON_HELP)
    .addHelpText('after', adminExample(`
  $ paygate sandbox time advance 10s          # a +slow provider accepts
  $ paygate sandbox time advance 30m --json   # card payments expire
  $ paygate sandbox time advance 1500`))
    .action(run(async () => (await import('./commands/sandbox-time.js')).advance));

  sandboxCmd
    .command('pay')
    .description('the payer pays a pending payment\'s requisites, in full or another amount (POST /sandbox/operations/{id}/pay)')
    .argument('[operation_id]', 'the payment\'s operation_id (or use --merchant-operation-id)')
    .option('--merchant-operation-id <id>', 'the idempotency key the payment was created with')
    .option('--amount <amount>', 'what the payer transfers (default: the expected amount), e.g. 900.00')
    .option('--json', JSON_HELP)
    .addHelpText('after', example(`
  $ paygate sandbox pay 1f0c6d1e-8a43-4b5e-9d1a-0c7a4a1e2b3c
  $ paygate sandbox pay --merchant-operation-id order-1001 --amount 900.00`))
    .action(run(async () => (await controls()).pay));

  sandboxCmd
    .command('settle')
    .description('the provider completes or fails a pending payout (POST /sandbox/operations/{id}/settle)')
    .argument('[operation_id]', 'the payout\'s operation_id (or use --merchant-operation-id)')
    .option('--merchant-operation-id <id>', 'the idempotency key the payout was created with')
    .option('--completed', 'the payout is paid out')
    .option('--failed', 'the payout fails: it is rejected and its reserve returns to the balance')
    .option('--json', JSON_HELP)
    .addHelpText('after', example(`
  $ paygate sandbox settle 1f0c6d1e-8a43-4b5e-9d1a-0c7a4a1e2b3c --completed
  $ paygate sandbox settle --merchant-operation-id payout-17 --failed --json`))
    .action(run(async () => (await controls()).settle));

  sandboxCmd
    .command('review')
    .description('a reviewer approves or declines a payment under manual check (POST /sandbox/operations/{id}/review)')
    .argument('[operation_id]', 'the payment\'s operation_id (or use --merchant-operation-id)')
    .option('--merchant-operation-id <id>', 'the idempotency key the payment was created with')
    .option('--approve', 'complete the payment')
    .option('--decline', 'reject the payment')
    .option('--amount <amount>', 'with --approve: the approved amount (default: the receipt\'s, else the expected amount)')
    .option('--json', JSON_HELP)
    .addHelpText('after', example(`
  $ paygate sandbox review 1f0c6d1e-8a43-4b5e-9d1a-0c7a4a1e2b3c --approve
  $ paygate sandbox review 1f0c6d1e-8a43-4b5e-9d1a-0c7a4a1e2b3c --approve --amount 1400.00
  $ paygate sandbox review --merchant-operation-id order-1001 --decline`))
    .action(run(async () => (await controls()).review));

  sandboxCmd
    .command('operations')
    .description('list the shop\'s operations, newest first (GET /sandbox/operations)')
    .option('--status <status>', 'only this status: pending, awaiting_confirmation, manual_check, completed, cancelled, rejected')
    .addOption(new Option('--type <type>', 'only payments or only payouts').choices(['payment', 'payout']))
    .option('--limit <n>', 'page size, 1 to 1000 (server default 50)', parseIntIn(1, 1000, 'an integer from 1 to 1000'))
    .option('--offset <n>', 'skip this many of the newest matching operations', parseIntIn(0, Number.MAX_SAFE_INTEGER, 'an integer ≥ 0'))
    .option('--json', JSON_HELP)
    .addHelpText('after', example(`
  $ paygate sandbox operations
  $ paygate sandbox operations --status pending --type payout --limit 10 --offset 10`))
    .action(run(async () => (await controls()).listOperations));

  sandboxCmd
    .command('evidence')
    .description('show, or switch on / off, receipt evidence and receipt URL signing (GET|PUT /sandbox/evidence; admin token)')
    .option('--on', 'make receipt evidence available again')
    .option('--off', 'make receipt evidence unavailable (state by operation_id answers 503 evidence_unavailable)')
    .option('--json', JSON_HELP)
    .addHelpText('after', adminExample(`
  $ paygate sandbox evidence
  $ paygate sandbox evidence --off
  $ paygate sandbox evidence --on --json`))
    .action(run(async () => (await import('./commands/sandbox-evidence.js')).evidence));

  const keysCmd = sandboxCmd.command('keys').description('list, issue and revoke API keys of every shop (admin token)');
  keysCmd.addHelpText('after', adminExample(`
  $ paygate sandbox keys list --shop shop_a
  $ paygate sandbox keys issue --shop shop_b --label ci
  $ paygate sandbox keys revoke key_0123456789ab`));
  keysCmd
    .command('list')
    .description('API keys (masked to their last 4 characters) and whether they are revoked (GET /sandbox/keys)')
    .option('--shop <id>', 'only this shop\'s keys, e.g. shop_a')
    .option('--json', JSON_HELP)
    .addHelpText('after', adminExample(`
  $ paygate sandbox keys list
  $ paygate sandbox keys list --shop shop_b --json`))
    .action(run(async () => (await sandboxKeys()).listKeys));
  keysCmd
    .command('issue')
    .description('issue a new API key for a shop; the key is shown once (POST /sandbox/keys)')
    .option('--shop <id>', 'the shop the key belongs to, e.g. shop_b')
    .option('--label <text>', 'free text shown in key lists, at most 200 characters')
    .option('--scopes <list>', 'limit the key to these optional endpoint groups, comma-separated: links, amounts (others answer 403; default: all)')
    .option('--json', 'print exactly the response body as JSON (it holds the plaintext api_key)')
    .addHelpText('after', adminExample(`
  $ paygate sandbox keys issue --shop shop_b --label "ci runner"
  $ paygate sandbox keys issue --shop shop_pool --scopes amounts
  $ paygate sandbox keys issue --shop shop_a --json | jq -r .api_key`))
    .action(run(async () => (await sandboxKeys()).issueKey));
  keysCmd
    .command('revoke')
    .description('revoke an API key: it stops authenticating at once (POST /sandbox/keys/{id}/revoke)')
    .argument('<key_id>', 'the key\'s id, e.g. key_0123456789ab (see `paygate sandbox keys list`)')
    .option('--json', JSON_HELP)
    .addHelpText('after', adminExample(`
  $ paygate sandbox keys revoke key_0123456789ab`))
    .action(run(async () => (await sandboxKeys()).revokeKey));

  const webhooksCmd = sandboxCmd
    .command('webhooks')
    .description('the shop\'s webhook endpoints and their deliveries: add, list, rotate-secret, remove, deliveries, redeliver');
  webhooksCmd.addHelpText('after', `
Shop-scoped: sent with the shop's API key. A whsec_ secret is printed in full once, by add and rotate-secret;
lists show its last 4 characters.
${example(`
  $ paygate sandbox webhooks add http://127.0.0.1:4090/webhooks
  $ paygate sandbox webhooks list
  $ paygate sandbox webhooks deliveries --failed
  $ paygate sandbox webhooks redeliver --failed`)}`);
  webhooksCmd
    .command('add')
    .description('register a webhook endpoint; its whsec_ secret is shown once (POST /sandbox/webhooks)')
    .argument('<url>', 'absolute http(s) URL the shop\'s events are POSTed to')
    .option('--json', 'print exactly the response body as JSON (it holds the full secret)')
    .addHelpText('after', example(`
  $ paygate sandbox webhooks add http://127.0.0.1:4090/webhooks
  $ paygate sandbox webhooks add http://127.0.0.1:3000/hooks --json | jq -r .secret`))
    .action(run(async () => (await sandboxWebhooks()).addWebhook));
  webhooksCmd
    .command('list')
    .description('the shop\'s webhook endpoints, secrets masked to their last 4 characters (GET /sandbox/webhooks)')
    .option('--json', JSON_HELP)
    .addHelpText('after', example(`
  $ paygate sandbox webhooks list
  $ paygate sandbox webhooks list --json`))
    .action(run(async () => (await sandboxWebhooks()).listWebhooks));
  webhooksCmd
    .command('rotate-secret')
    .description('a new secret, shown once; the old one is still signed alongside for 24 h of sandbox time (POST /sandbox/webhooks/{id}/rotate-secret)')
    .argument('<id>', 'the endpoint\'s id (see `paygate sandbox webhooks list`)')
    .option('--json', 'print exactly the response body as JSON (it holds the full new secret)')
    .addHelpText('after', example(`
  $ paygate sandbox webhooks rotate-secret wh_0123456789ab`))
    .action(run(async () => (await sandboxWebhooks()).rotateWebhookSecret));
  webhooksCmd
    .command('remove')
    .description('delete a webhook endpoint; its pending deliveries stop (DELETE /sandbox/webhooks/{id})')
    .argument('<id>', 'the endpoint\'s id (see `paygate sandbox webhooks list`)')
    .option('--json', JSON_HELP)
    .addHelpText('after', example(`
  $ paygate sandbox webhooks remove wh_0123456789ab`))
    .action(run(async () => (await sandboxWebhooks()).removeWebhook));
  webhooksCmd
    .command('deliveries')
    .description('webhook deliveries with their attempts (GET /sandbox/webhooks/deliveries)')
    .option('--failed', 'only deliveries that gave up')
    .option('--event <id>', 'only the deliveries of this event, e.g. evt_<operation_id>_0')
    .option('--json', JSON_HELP)
    .addHelpText('after', example(`
  $ paygate sandbox webhooks deliveries
  $ paygate sandbox webhooks deliveries --failed
  $ paygate sandbox webhooks deliveries --event evt_1f0c6d1e-8a43-4b5e-9d1a-0c7a4a1e2b3c_0 --json`))
    .action(run(async () => (await sandboxWebhooks()).listDeliveries));
  webhooksCmd
    .command('redeliver')
    .description('deliver an event again at once, same webhook-id and body, or every failed delivery (POST /sandbox/webhooks/deliveries/redeliver)')
    .argument('[event_id]', 'the event to deliver again (or use --failed)')
    .option('--failed', 'deliver every failed delivery again')
    .option('--json', JSON_HELP)
    .addHelpText('after', example(`
  $ paygate sandbox webhooks redeliver evt_1f0c6d1e-8a43-4b5e-9d1a-0c7a4a1e2b3c_0
  $ paygate sandbox webhooks redeliver --failed`))
    .action(run(async () => (await sandboxWebhooks()).redeliver));

  addPoolControls(sandboxCmd);

  sandboxCmd
    .command('reset')
    .description('forget every operation, posting and issued key and re-seed from the fixtures (POST /sandbox/reset; admin token)')
    .option('-y, --yes', 'do not ask for confirmation (required without a terminal)')
    .option('--json', JSON_HELP)
    .addHelpText('after', adminExample(`
  $ paygate sandbox reset
  $ paygate sandbox reset --yes --json`))
    .action(run(async () => (await import('./commands/sandbox-reset.js')).reset));
}

/** `paygate sandbox pool layout | show | settings` and `paygate sandbox links show | confirm` (docs/pool.md). */
function addPoolControls(sandboxCmd: Command): void {
  const poolCmd = sandboxCmd
    .command('pool')
    .description('the self-matching pools: lay out payouts (shop key), show slots and free remainders, set the read simulation (admin token)');
  poolCmd.addHelpText('after', `
A payout routed to a self-matching pool becomes a slot; payments take a slot's whole free remainder, or a piece of at
least min_piece that leaves at least min_remainder (500.00 / 500.00 in the default fixtures). layout takes the API key
of a shop whose payout route is pooled (shop_pool in the default fixtures); show and settings take the admin token.
${example(`
  $ paygate sandbox pool layout --method WT_RUB_C2C --amounts 1500.00,2500.00,25000.00 --api-key pg_test_pool_xxxx
  $ paygate sandbox pool show --method WT_RUB_C2C --limit 10
  $ paygate sandbox pool settings --read-latency 1500ms`)}`);
  poolCmd
    .command('layout')
    .description('lay out payouts of the key\'s shop in the pool its payout route reaches, in matching order (POST /sandbox/pool/layout)')
    .option('--method <method>', 'payment method of the payouts, e.g. WT_RUB_C2C')
    .option('--amounts <list>', 'comma-separated amounts, in matching order, e.g. 1500.00,2500.00 (or use --count/--min/--max)')
    .option('--count <n>', 'generate this many amounts, 1 to 100000', parseIntIn(1, 100_000, 'an integer from 1 to 100000'))
    .option('--min <amount>', 'with --count: the lowest amount, e.g. 500.00')
    .option('--max <amount>', 'with --count: the highest amount, e.g. 50000.00')
    .option('--step <amount>', 'with --count: amounts are --min plus multiples of this (server default 1.00)')
    .option('--seed <n>', 'with --count: the generator seed; the same seed gives the same amounts (server default 1)', parseInteger)
    .option('--json', JSON_HELP)
    .addHelpText('after', `
Each payout goes through the ordinary create rules: its amount plus commission is reserved from the shop's balance,
and one outside the route's limits is rejected (counted in "rejected"). Needs the API key of a shop whose payout route
is pooled; any other is 412 not_pool_route.
${example(`
  $ paygate sandbox pool layout --method WT_RUB_C2C --amounts 1500.00,2500.00 --api-key pg_test_pool_xxxx
  $ paygate sandbox pool layout --method WT_RUB_C2C --count 2000 --min 500.00 --max 50000.00 --step 100.00 --seed 1
  $ PAYGATE_API_KEY=pg_test_pool_xxxx paygate sandbox pool layout --method WT_RUB_C2C --count 10000 --min 500.00 --max 50000.00 --json`)}`)
    .action(run(async () => (await sandboxPool()).layout));
  poolCmd
    .command('show')
    .description('the pool windows (pool × method): open slots, free total, and the first slots with amount, claimed, paid and free (GET /sandbox/pool; admin token)')
    .option('--method <method>', 'only this method\'s windows, e.g. WT_RUB_C2C')
    .option('--limit <n>', 'how many slots of each window to list, 0 to 1000 (server default 20)', parseIntIn(0, 1000, 'an integer from 0 to 1000'))
    .option('--json', JSON_HELP)
    .addHelpText('after', adminExample(`
  $ paygate sandbox pool show
  $ paygate sandbox pool show --method WT_RUB_C2C --limit 100 --json`))
    .action(run(async () => (await sandboxPool()).showPool));
  poolCmd
    .command('settings')
    .description('show, or change, the amount-read simulation: read latency and the per-shop rate limit (GET|POST /sandbox/pool/settings; admin token)')
    .option('--read-latency <duration>', 'how long each availability / recommendations read takes, in sandbox time: 1500ms, 2s, or milliseconds; 0 to 60s', parseLatency)
    .addOption(new Option('--rate-limit <on|off>', 'the limit of 5 amount reads per second per shop (off lifts it)').choices(['on', 'off']))
    .option('--json', JSON_HELP)
    .addHelpText('after', `
Without a flag it shows the settings. With --read-latency each read holds the replica's only read slot that long,
so a concurrent read gets 503 read_capacity_exhausted and one over 2 s gets 503 read_timeout; on a frozen clock the
read answers when you \`paygate sandbox time advance\`.
${adminExample(`
  $ paygate sandbox pool settings
  $ paygate sandbox pool settings --read-latency 1500ms
  $ paygate sandbox pool settings --read-latency 0 --rate-limit off --json`)}`)
    .action(run(async () => (await sandboxPool()).settings));

  const linksCmd = sandboxCmd
    .command('links')
    .description('flexible links from the payer\'s side: show one, confirm an amount (shop API key)');
  linksCmd.addHelpText('after', `
A flexible link (\`paygate payment link --flexible\`) that answered amount_selection has no payment yet: the payer
picks an amount within its bounds before expires_at. These commands act as that payer, with the shop's API key.
${example(`
  $ paygate sandbox links show 1f0c6d1e-8a43-4b5e-9d1a-0c7a4a1e2b3c
  $ paygate sandbox links confirm 1f0c6d1e-8a43-4b5e-9d1a-0c7a4a1e2b3c --amount 2500.00`)}`);
  linksCmd
    .command('show')
    .description('a flexible link: status (amount_selection, expired, rejected, confirmed), bounds, expires_at (GET /sandbox/links/{id})')
    .argument('<operation_id>', 'the link\'s operation_id, as answered by `paygate payment link --flexible`')
    .option('--json', JSON_HELP)
    .addHelpText('after', example(`
  $ paygate sandbox links show 1f0c6d1e-8a43-4b5e-9d1a-0c7a4a1e2b3c
  $ paygate sandbox links show 1f0c6d1e-8a43-4b5e-9d1a-0c7a4a1e2b3c --json`))
    .action(run(async () => (await sandboxLinks()).showLink));
  linksCmd
    .command('confirm')
    .description('the payer picks an amount on a flexible link: the payment is created for it, or rejected if the pool can no longer take it (POST /sandbox/links/{id}/confirm)')
    .argument('<operation_id>', 'the link\'s operation_id')
    .option('--amount <amount>', 'the amount the payer picks, within the link\'s bounds, e.g. 2500.00')
    .option('--json', JSON_HELP)
    .addHelpText('after', example(`
  $ paygate sandbox links confirm 1f0c6d1e-8a43-4b5e-9d1a-0c7a4a1e2b3c --amount 2500.00
  $ paygate sandbox links confirm 1f0c6d1e-8a43-4b5e-9d1a-0c7a4a1e2b3c --amount 2500.00 --json`))
    .action(run(async () => (await sandboxLinks()).confirmLink));
}
