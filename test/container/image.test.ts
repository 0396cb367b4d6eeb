// The Dockerfile, built on these machines and run as a team would run it. The image is built once (on the local
// Node base scripts/container-base.sh makes and caches once per machine): by the project's global setup, in the
// background from the start of the run (prebuild.setup.ts; this file runs last and waits for it), or here when this
// file runs without it. Runs it with --network host on a free port, and checks what the README promises: /livez, the
// --json line, a create and a state read, the whole scenario library against it, the HEALTHCHECK, a non-root process,
// SIGTERM → exit 0 within 5 s, and a second container on the same volume that finds every acknowledged operation.
// Everything this run creates (containers, volume, image and the build stage it leaves) is removed at the end; the
// cached base image stays. Its own vitest project: `npx vitest run --project container`. Skips, loudly, only where no
// docker daemon answers.
import { execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { buildImage, dockerAnswers, prebuilt, ROOT } from './image.js';

const BIN = fileURLToPath(new URL('../../bin/paygate.js', import.meta.url));
const run = promisify(execFile);
const docker = async (...args: string[]): Promise<string> =>
  (await run('docker', args, { maxBuffer: 64 << 20 })).stdout.trim();

const available = dockerAnswers();
if (!available) {
  console.error(
    '\n!!! container tests SKIPPED: no docker daemon answers (`docker info` failed). .ci/run installs docker.io and starts dockerd as root; elsewhere start dockerd to run them.\n',
  );
}

const id = `${process.pid}-${randomBytes(3).toString('hex')}`;
/** The global setup's background build, or none (this file run without the container project's setup). */
const pre = inject('containerPrebuild');
const image = pre?.image ?? `paygate-test:${id}`;
const volume = `paygate-test-${id}`;
const adminToken = `pg_admin_${randomBytes(12).toString('hex')}`;
const containers: string[] = [];

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  await new Promise((r) => server.close(r));
  return port;
}

/** Starts a container of the image on the shared volume (--network host, this port); resolves its id. */
async function startContainer(port: number, args: string[]): Promise<string> {
  const name = `paygate-test-${id}-${containers.length}`;
  containers.push(name);
  await docker(
    'run',
    '-d',
    '--name',
    name,
    '--network',
    'host',
    '-e',
    `PAYGATE_PORT=${port}`,
    '-e',
    `PAYGATE_ADMIN_TOKEN=${adminToken}`,
    '-v',
    `${volume}:/data`,
    image,
    ...args,
  );
  return name;
}

/** The container's output once `until` matches it (polls `docker logs`; fails if the container stops first). */
async function logsUntil(name: string, until: RegExp, ms = 60_000): Promise<string> {
  const deadline = Date.now() + ms;
  for (;;) {
    const { stdout, stderr } = await run('docker', ['logs', name]);
    if (until.test(stdout)) return stdout;
    if ((await docker('inspect', '-f', '{{.State.Running}}', name)) !== 'true')
      throw new Error(`container ${name} stopped: ${stdout}${stderr}`);
    if (Date.now() > deadline) throw new Error(`container ${name} printed no ${until} in ${ms} ms: ${stdout}${stderr}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

async function api(base: string, path: string, key: string, body: unknown): Promise<{ status: number; body: any }> {
  const res = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': key },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
}

let base: string;
let port: number;
let first: string;
let info: any;
const acknowledged: { operation_id: string; merchant_operation_id: string; amount: string }[] = [];

describe.skipIf(!available)('the container image', () => {
  beforeAll(async () => {
    if (pre) await prebuilt(pre);
    else await buildImage(image);
    await docker('volume', 'create', volume);
    port = await freePort();
    base = `http://127.0.0.1:${port}`;
    first = await startContainer(port, ['sandbox', 'start', '--json', '--frozen-clock']);
    info = JSON.parse((await logsUntil(first, /\n/)).split('\n')[0]!);
  }, 20 * 60_000);

  afterAll(async () => {
    for (const name of containers) await run('docker', ['rm', '-f', '-v', name]).catch(() => undefined);
    await run('docker', ['volume', 'rm', '-f', volume]).catch(() => undefined);
    await run('docker', ['rmi', '-f', image]).catch(() => undefined);
  }, 120_000);

  it('prints the --json line of `sandbox start`: listening on 0.0.0.0 inside, the store in /data, the admin token from PAYGATE_ADMIN_TOKEN', async () => {
    expect(info.listen_url).toBe(`http://0.0.0.0:${port}`);
    expect(info.store).toBe('/data/sandbox.json');
    expect(info.admin_token).toBe(adminToken);
    expect(info.clock.frozen).toBe(true);
    expect(info.shops.length).toBeGreaterThan(0);
    expect((await fetch(`${base}/livez`)).ok).toBe(true);
  });

  it('runs as a non-root user', async () => {
    const status = await docker('exec', first, 'cat', '/proc/1/status');
    const uid = /^Uid:\s+(\d+)/m.exec(status)![1];
    expect(Number(uid)).not.toBe(0);
    expect(await docker('exec', first, 'id', '-un')).toBe('node');
  });

  it('the HEALTHCHECK on /livez reports healthy', async () => {
    const deadline = Date.now() + 90_000;
    let health = '';
    while (
      Date.now() < deadline &&
      (health = await docker('inspect', '-f', '{{.State.Health.Status}}', first)) !== 'healthy'
    ) {
      await new Promise((r) => setTimeout(r, 500));
    }
    expect(health).toBe('healthy');
  }, 120_000);

  it('the whole scenario library passes against it (`paygate scenario run scenarios --base-url`)', async () => {
    const child = spawn(
      process.execPath,
      [BIN, 'scenario', 'run', 'scenarios', '--base-url', base, '--admin-token', adminToken, '--reporter', 'json'],
      {
        cwd: ROOT,
        env: Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('PAYGATE_'))),
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    const code = await new Promise<number | null>((r) => child.once('exit', r));
    const results = out
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l))
      .filter((r) => r.type === 'scenario');
    const failed = results.filter((r) => r.status === 'failed');
    expect(
      failed.map((r) => `${r.file}: ${JSON.stringify(r).slice(0, 2000)}`),
      err,
    ).toEqual([]);
    expect(results.filter((r) => r.status === 'passed').length).toBeGreaterThan(100);
    expect(code).toBe(0);
  }, 300_000);

  it('creates payments and reads their state', async () => {
    const key = info.shops[0].api_key as string;
    const made = await Promise.all(
      Array.from({ length: 20 }, (_, i) => {
        const body = {
          merchant_operation_id: `container-${id}-${i}`,
          client_id: 'client-1',
          method: 'WT_RUB_C2C',
          amount: `${1000 + i}.50`,
          currency: 'RUB',
        };
        return api(base, '/v1/payment', key, body).then((r) => ({ r, body }));
      }),
    );
    for (const { r, body } of made) {
      expect(r.status, JSON.stringify(r.body)).toBeLessThan(300);
      acknowledged.push({
        operation_id: r.body.operation_id,
        merchant_operation_id: body.merchant_operation_id,
        amount: body.amount,
      });
    }
    const state = await api(base, '/v1/get_operation_state', key, { operation_id: acknowledged[0]!.operation_id });
    expect(state.status).toBe(200);
    expect(state.body.operation_id).toBe(acknowledged[0]!.operation_id);
    expect(state.body.expected_amount).toBe(acknowledged[0]!.amount);
  });

  it('SIGTERM: the store is compacted and the container exits 0 within 5 s', async () => {
    const started = Date.now();
    await docker('kill', '--signal', 'TERM', first);
    const code = await docker('wait', first);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(code).toBe('0');
  }, 30_000);

  it('a second container on the same volume (default command, human banner) finds every acknowledged operation', async () => {
    const second = await startContainer(port, []);
    const banner = await logsUntil(second, /admin token/);
    expect(banner).toContain('paygate sandbox is ready');
    expect(banner).toContain('/data/sandbox.json');
    expect(banner).toContain(adminToken); // PAYGATE_ADMIN_TOKEN chooses it on every start
    const key = info.shops[0].api_key as string;
    for (const op of acknowledged) {
      const state = await api(base, '/v1/get_operation_state', key, {
        merchant_operation_id: op.merchant_operation_id,
      });
      expect(state.status).toBe(200);
      expect(state.body.operation_id).toBe(op.operation_id);
      expect(state.body.expected_amount).toBe(op.amount);
    }
    expect(acknowledged).toHaveLength(20);
  }, 120_000);
});
