// `paygate sandbox start` as a child process, for the tests that kill it (SIGKILL) or fill its disk: start it on
// 127.0.0.1:0 and read the base URL from its first --json line; wait for it to exit.
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';

const BIN = new URL('../../bin/paygate.js', import.meta.url).pathname;

export async function startCli(args: string[]): Promise<{ child: ChildProcess; baseUrl: string }> {
  const child = spawn(process.execPath, [BIN, 'sandbox', 'start', '--port', '0', '--json', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (d) => (stderr += d));
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`sandbox exited with ${code}: ${stderr}`)));
  });
  return { child, baseUrl: JSON.parse(line).base_url };
}

export function exited(child: ChildProcess): Promise<void> {
  return child.exitCode !== null || child.signalCode !== null
    ? Promise.resolve()
    : new Promise((r) => child.once('exit', () => r()));
}
