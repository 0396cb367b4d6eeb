// Where the dashboard is, from a sandbox's base URL: for `sandbox start`'s banner and `paygate dashboard` (which
// import nothing else of the emulator for it).

/** The path of the dashboard under a sandbox's base URL. */
export const DASHBOARD_PATH = '/dashboard';

/** `http://127.0.0.1:4080` → `http://127.0.0.1:4080/dashboard` (a workspace's base `…/w/<id>` keeps its prefix). */
export function dashboardUrl(baseUrl: string): string {
  return `${baseUrl.replace(/\/+$/, '')}${DASHBOARD_PATH}`;
}
