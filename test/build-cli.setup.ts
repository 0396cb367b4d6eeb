// vitest global setup: the CLI's generated parts (dist/cli-contract, dist/cli-bundle) are made by `npm run build`
// after tsc (scripts/build-cli.mjs). After a bare `tsc` they are older than the modules they come from, and the CLI
// would run without them (correctly, only slower); make them again once, before any test spawns the CLI.
import { spawnSync } from 'node:child_process';
import { statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const at = (path: string) => new URL(`../${path}`, import.meta.url);
const mtime = (path: string) => statSync(at(path), { throwIfNoEntry: false })?.mtimeMs ?? -1;

export default function setup(): void {
  const compiled = mtime('dist/cli/main.js');
  if (compiled < 0) return;
  if (
    mtime('dist/cli-bundle/main.js') >= compiled &&
    mtime('dist/cli-contract/routes.js') >= mtime('dist/client/routes.js')
  )
    return;
  const r = spawnSync(process.execPath, [fileURLToPath(at('scripts/build-cli.mjs'))], { encoding: 'utf8' });
  // Without them the CLI still runs (the modules, zod's checks); the tests that look for them say so.
  if (r.status !== 0)
    process.stderr.write(
      `scripts/build-cli.mjs failed, the CLI runs unbundled (npm install, then npm run build):\n${r.stderr}\n`,
    );
}
