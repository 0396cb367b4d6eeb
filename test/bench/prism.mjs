// Stoplight Prism's stateless mock of paygate's own OpenAPI document (docs/openapi.json), the yardstick of the create
// benchmark: the same route, body and load as the sandbox, answered from the document's examples with nothing stored.
// Prism is not a dependency of the package: it is installed on first use into a cache folder
// (PAYGATE_BENCH_CACHE, default ~/.cache/paygate-bench) with the ordinary npm client, and reused after.
// Version: 5.14.x, the newest line whose engines take Node 20 (5.15 needs Node ≥ 24.14, 5.16 Node ≥ 24.18).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { homedir } from 'node:os';
import { join } from 'node:path';

export const PRISM_VERSION = '~5.14.2';
const cacheRoot = process.env.PAYGATE_BENCH_CACHE ?? join(homedir(), '.cache', 'paygate-bench');
const prefix = join(cacheRoot, 'prism');
const cli = join(prefix, 'node_modules', '@stoplight', 'prism-cli', 'dist', 'index.js');

/** The Prism CLI script, installed into the cache folder if it is not there yet; undefined (and why) if it cannot be. */
export function ensurePrism() {
  if (existsSync(cli)) return { cli };
  mkdirSync(prefix, { recursive: true });
  console.log(`installing @stoplight/prism-cli@${PRISM_VERSION} into ${prefix} (once) …`);
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const r = spawnSync(
    npm,
    [
      'install',
      '--prefix',
      prefix,
      '--no-save',
      '--no-audit',
      '--no-fund',
      '--loglevel',
      'error',
      `@stoplight/prism-cli@${PRISM_VERSION}`,
    ],
    { stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' },
  );
  if (r.status !== 0 || !existsSync(cli))
    return { why: `npm install failed (${r.status}): ${(r.stderr ?? '').trim().split('\n').slice(-2).join(' ')}` };
  return { cli };
}

function freePort() {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

/**
 * `prism mock <spec>` on a free port of 127.0.0.1; resolves once it answers HTTP. Its request log goes to /dev/null:
 * read by the benchmark's process, it would slow the load generator that shares it.
 */
export async function startPrism(cliPath, spec) {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, [cliPath, 'mock', '--host', '127.0.0.1', '--port', String(port), spec], {
    stdio: ['ignore', 'ignore', 'ignore'],
  });
  let exited;
  child.once('exit', (code) => (exited = code ?? 'a signal'));
  for (let i = 0; i < 600; i++) {
    if (exited !== undefined) throw new Error(`prism exited with ${exited} before it listened`);
    try {
      await fetch(`${baseUrl}/`);
      return { child, baseUrl };
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  child.kill('SIGKILL');
  throw new Error('prism did not listen within 60 s');
}
