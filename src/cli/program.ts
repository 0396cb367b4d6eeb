// The root command: the global options (--base-url, --api-key, --admin-token, --profile), version, help and error
// output, and the commands in help order. Each command is defined in define/<noun>.ts (flags, help, typed options)
// and run by a plain function in commands/<noun>.ts, imported only when it runs: `paygate --help` loads commander
// and the definitions, nothing else.
import { Command } from 'commander';
import { defineAmounts } from './define/amounts.js';
import { defineBalances } from './define/balances.js';
import { defineConfig } from './define/config.js';
import { defineHealth } from './define/health.js';
import { defineOpenapi } from './define/openapi.js';
import { defineOperation } from './define/operation.js';
import { definePayment } from './define/payment.js';
import { definePayout } from './define/payout.js';
import { defineSandboxEvidence } from './define/sandbox-evidence.js';
import { defineSandboxKeys } from './define/sandbox-keys.js';
import { defineSandboxLinks } from './define/sandbox-links.js';
import { defineSandboxOperations } from './define/sandbox-operations.js';
import { defineSandboxPool } from './define/sandbox-pool.js';
import { defineSandboxReset } from './define/sandbox-reset.js';
import { defineSandboxTime } from './define/sandbox-time.js';
import { defineSandboxWebhooks } from './define/sandbox-webhooks.js';
import { defineSandbox } from './define/sandbox.js';
import { example } from './define/shared.js';
import { defineState } from './define/state.js';
import { defineWebhooksListen } from './define/webhooks-listen.js';
import { redact, registerSecretsFromProcess } from './mask.js';

/** The program with its global options; read by every command through `globalOptions()` (action.ts). */
function rootCommand(version: string): Command {
  return new Command('paygate')
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
}

export function buildProgram(version: string): Command {
  const program = rootCommand(version);
  definePayment(program);
  definePayout(program);
  defineAmounts(program);
  defineState(program);
  defineOperation(program);
  defineBalances(program);
  defineHealth(program);
  defineOpenapi(program, version);
  defineConfig(program);

  const sandbox = defineSandbox(program);
  defineSandboxTime(sandbox);
  defineSandboxOperations(sandbox);
  defineSandboxEvidence(sandbox);
  defineSandboxKeys(sandbox);
  defineSandboxWebhooks(sandbox);
  defineSandboxPool(sandbox);
  defineSandboxLinks(sandbox);
  defineSandboxReset(sandbox);

  defineWebhooksListen(program);
  return program;
}
