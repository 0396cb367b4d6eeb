// "RSS returns within 10 % of its start once they close": a `sandbox start` process gives memory
// back once a burst of connections has closed (src/emulator/memory-release.ts): one full, compacting collection,
// logged with its pause. 300 keep-alive connections on 127.0.0.1, each answered once, then all closed; the process
// says so on stderr within seconds (after its 1 s of quiet), and only once.
import { spawn } from 'node:child_process';
import { connect, type Socket } from 'node:net';
import { createInterface } from 'node:readline';
import { describe, expect, it } from 'vitest';
import { BIN } from '../../run-cli.js';

const CONNECTIONS = 300;

/** A keep-alive connection that has had one answer (so the server has it open). */
function answered(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const s = connect(port, '127.0.0.1');
    s.once('error', reject);
    s.once('data', () => resolve(s));
    s.write('GET /livez HTTP/1.1\r\nHost: sandbox\r\n\r\n');
  });
}

describe('sandbox start after a burst of closed connections', () => {
  it('runs one full, compacting collection and logs its pause', async () => {
    const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('PAYGATE_')));
    const child = spawn(process.execPath, [BIN, 'sandbox', 'start', '--port', '0', '--in-memory', '--json'], {
      env: { ...clean, NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exit = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
    let stderr = '';
    const released = new Promise<void>((resolve) =>
      child.stderr!.on('data', (d) => {
        stderr += d;
        if (stderr.includes('released memory')) resolve();
      }),
    );
    const sockets: Socket[] = [];
    try {
      const line = await new Promise<string>((r) => createInterface({ input: child.stdout! }).once('line', r));
      const port = Number(new URL((JSON.parse(line) as { listen_url: string }).listen_url).port);
      for (let i = 0; i < CONNECTIONS; i += 50) {
        sockets.push(...(await Promise.all(Array.from({ length: 50 }, () => answered(port)))));
      }
      expect(stderr).not.toContain('released memory');
      for (const s of sockets) s.destroy();
      await released;
      expect(stderr).toMatch(
        /paygate: released memory after 300 connections closed: one full, compacting collection, [\d.]+ ms; heap used [\d.]+ → [\d.]+ MB/,
      );
      expect(stderr.match(/released memory/g)).toHaveLength(1);
    } finally {
      for (const s of sockets) s.destroy();
      child.kill('SIGTERM');
      await exit;
    }
  }, 30_000);
});
