// `paygate dashboard`: open the sandbox's dashboard in a browser (run: dashboard/run.ts).
import type { Command } from 'commander';
import { action, example, flag, type JsonOptions, type Parsed } from '../shared.js';

export interface DashboardOptions extends JsonOptions {
  /** Only print the URL, open no browser. Default false. */
  print: boolean;
}

export function defineDashboard(program: Command): void {
  program
    .command('dashboard')
    .description(
      "open the sandbox's (or paygate proxy's) dashboard (<base URL>/dashboard) in a browser; prints its URL where none can be opened",
    )
    .option('--print', 'only print the URL, open no browser')
    .option('--json', 'print {"dashboard_url", "opened"} as JSON (opens no browser)')
    .addHelpText(
      'after',
      `
Sign in there with the admin token (every shop) or a shop's API key (that shop only), both printed by
\`paygate sandbox start\`. Pointed at \`paygate proxy\` (--base-url, or a profile with its URL), it opens the
proxy's dashboard: only the proxy's admin token signs in there (it holds no shop key), to see the traffic that
passed through it. No browser is opened without a display (no DISPLAY / WAYLAND_DISPLAY on Linux) or when stdout is
not a terminal: the URL is printed instead.
${example(`
  $ paygate dashboard
  $ paygate dashboard --base-url http://127.0.0.1:4080/w/ws_ci_42 --print
  $ paygate dashboard --base-url http://127.0.0.1:8080 --print   # paygate proxy's
  $ paygate dashboard --json`)}`,
    )
    .action(
      action(
        ({ opts }: Parsed): DashboardOptions => ({ json: flag(opts.json), print: flag(opts.print) }),
        async () => (await import('./run.js')).dashboard,
      ),
    );
}
