// The benchmarks' child processes: a sandbox (or another server) that prints one JSON line when it is ready.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));

/**
 * The node flags `npm start` and the Docker image give the sandbox (package.json "start", the Dockerfile's
 * ENTRYPOINT; test/package/node-flags.test.ts checks the three agree): V8's young generation capped at 8 MB a half
 * instead of 16, so a scavenge, which copies what the creates since the last one stored, pauses half as long
 * (docs/performance.md#node-flags).
 */
export const SANDBOX_NODE_FLAGS = ['--max-semi-space-size=8'];

/** Start `node <args>` in the repository (with `env` added); resolves with the child and its first line, parsed. */
export function startChild(args, env = {}) {
  const child = spawn(process.execPath, args, {
    cwd: root,
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, ...env },
  });
  return new Promise((resolve, reject) => {
    const rl = createInterface({ input: child.stdout });
    rl.once('line', (line) => resolve({ child, info: JSON.parse(line) }));
    child.once('exit', (code) => reject(new Error(`child exited with ${code} before it was ready`)));
  });
}

/** SIGTERM, and wait until it has exited. */
export async function stop(child) {
  const done = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await done;
}

/**
 * With the child started under test/bench/probe.cjs (PROBE_FILE=`file`): signal it and resolve with the JSON line
 * it appends (memory, garbage collections and event-loop turns since the previous signal).
 */
export async function probeChild(child, file) {
  const { existsSync, readFileSync } = await import('node:fs');
  const count = () => (existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean).length : 0);
  const before = count();
  child.kill('SIGUSR2');
  for (let i = 0; i < 500 && count() === before; i++) await new Promise((r) => setTimeout(r, 20));
  return JSON.parse(readFileSync(file, 'utf8').split('\n').filter(Boolean).at(-1));
}
