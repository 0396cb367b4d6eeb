// `paygate dashboard` (flags: dashboard/define.ts): the dashboard's URL from the base URL the CLI talks to; opened in
// the system's browser when there is one to open (a display and a terminal), else printed.
import { spawn } from 'node:child_process';
import { dashboardUrl } from '../../../emulator/dashboard/url.js';
import type { CommandDeps } from '../../deps.js';
import type { DashboardOptions } from './define.js';

/** The command that opens a URL in the browser on this platform, or undefined when none can be opened here. */
export function opener(
  platform: NodeJS.Platform = process.platform,
  env: NodeJS.ProcessEnv = process.env,
  tty: boolean = process.stdout.isTTY === true,
): { command: string; args: string[] } | undefined {
  if (!tty) return undefined;
  if (platform === 'darwin') return { command: 'open', args: [] };
  if (platform === 'win32') return { command: 'cmd', args: ['/c', 'start', '""'] };
  if (!env.DISPLAY && !env.WAYLAND_DISPLAY) return undefined;
  return { command: 'xdg-open', args: [] };
}

/** Start the browser on `url`, detached; false when it could not be started. */
function open(how: { command: string; args: string[] }, url: string): Promise<boolean> {
  return new Promise((resolve) => {
    const child = spawn(how.command, [...how.args, url], { stdio: 'ignore', detached: true });
    child.once('error', () => resolve(false));
    child.once('spawn', () => {
      child.unref();
      resolve(true);
    });
  });
}

export async function dashboard(options: DashboardOptions, deps: CommandDeps): Promise<void> {
  const { baseUrl } = await deps.connect({ needKey: false });
  const url = dashboardUrl(baseUrl);
  const how = options.json || options.print ? undefined : opener();
  const opened = how ? await open(how, url) : false;
  if (options.json) deps.output.json({ dashboard_url: url, opened });
  else if (opened)
    deps.output.print(
      `Opened ${url} — sign in with the admin token or a shop's API key (on paygate proxy: its admin token only).`,
    );
  else deps.output.print(url);
}
