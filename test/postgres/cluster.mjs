// A throwaway PostgreSQL cluster for the tests and the bench: initdb into a temp dir (as the `postgres` user when we
// are root: initdb refuses root), a server on 127.0.0.1 and a unix socket in that dir only, stopped by its pid.
// Debian's binaries live under /usr/lib/postgresql/<ver>/bin; .ci/run installs the package when it is missing.
import { execFileSync, spawn } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

/** The directory of initdb/postgres (the newest Debian version, else pg_config's), or undefined. */
export function postgresBinDir() {
  const base = '/usr/lib/postgresql';
  if (existsSync(base)) {
    const versions = readdirSync(base)
      .filter((v) => existsSync(join(base, v, 'bin', 'initdb')))
      .sort((a, b) => Number(b) - Number(a));
    if (versions.length > 0) return join(base, versions[0], 'bin');
  }
  try {
    const dir = execFileSync('pg_config', ['--bindir'], { encoding: 'utf8' }).trim();
    if (existsSync(join(dir, 'initdb'))) return dir;
  } catch {}
  return undefined;
}

/** Why the PostgreSQL tests cannot run here, or undefined when they can. */
export function postgresMissing() {
  return postgresBinDir()
    ? undefined
    : 'PostgreSQL is not installed (no /usr/lib/postgresql/<ver>/bin/initdb): apt-get install -y postgresql (.ci/run does this as root)';
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

/** The uid/gid to run the server as: the `postgres` user when we are root, else ourselves. */
function runAs() {
  if (process.getuid?.() !== 0) return {};
  const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
  const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
  return { uid, gid };
}

/**
 * Start a cluster. `fsync: false` (the tests' default) trades crash safety of the throwaway cluster for speed; the
 * bench keeps PostgreSQL's defaults. Returns { url(db), createDatabase(name), stop() }.
 */
export async function startCluster({ fsync = false, log = () => {} } = {}) {
  const bin = postgresBinDir();
  if (!bin) throw new Error(postgresMissing());
  const dir = mkdtempSync(join(tmpdir(), 'paygate-pg-'));
  const data = join(dir, 'data');
  const who = runAs();
  chmodSync(dir, 0o755);
  if (who.uid !== undefined) chownSync(dir, who.uid, who.gid);
  const t0 = Date.now();
  execFileSync(
    join(bin, 'initdb'),
    ['-D', data, '-U', 'paygate', '--auth=trust', '-E', 'UTF8', '--no-sync', '--locale=C'],
    { ...who, stdio: 'pipe' },
  );
  log(`initdb ${Date.now() - t0} ms`);
  const port = await freePort();
  const args = [
    '-D',
    data,
    '-p',
    String(port),
    '-k',
    dir,
    '-c',
    'listen_addresses=127.0.0.1',
    '-c',
    'max_connections=200',
    '-c',
    `fsync=${fsync ? 'on' : 'off'}`,
  ];
  if (!fsync) args.push('-c', 'synchronous_commit=off', '-c', 'full_page_writes=off');
  const url = (db = 'postgres') => `postgres://paygate@127.0.0.1:${port}/${db}`;
  let server;
  let exited;
  /** Start the server on the cluster's data and wait until it takes connections. */
  const boot = async () => {
    server = spawn(join(bin, 'postgres'), args, { ...who, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    server.stderr.on('data', (d) => (stderr += d));
    exited = new Promise((resolve) => server.once('exit', resolve));
    const deadline = Date.now() + 30_000;
    for (;;) {
      const c = new pg.Client({ connectionString: url() });
      try {
        await c.connect();
        await c.end();
        break;
      } catch (e) {
        await c.end().catch(() => {});
        if (server.exitCode !== null || Date.now() > deadline) {
          server.kill('SIGKILL');
          rmSync(dir, { recursive: true, force: true });
          throw new Error(`postgres did not start: ${e.message}\n${stderr}`);
        }
        await new Promise((r) => setTimeout(r, 50));
      }
    }
  };
  await boot();
  log(`cluster up in ${Date.now() - t0} ms on port ${port}`);
  let n = 0;
  return {
    port,
    dir,
    get pid() {
      return server.pid;
    },
    url,
    /**
     * Crash the server as `pg_ctl stop -m immediate` does (SIGQUIT to the postmaster: no shutdown checkpoint, what
     * was not in the WAL written out is lost), wait for it to exit, then (`downMs` later) start it again on the same
     * data and port: it runs crash recovery from the WAL. Resolves once it takes connections again.
     */
    async crash({ downMs = 0, down } = {}) {
      process.kill(server.pid, 'SIGQUIT');
      await exited;
      await down?.();
      if (downMs > 0) await new Promise((r) => setTimeout(r, downMs));
      await boot();
    },
    /** A new empty database; its URL. */
    async createDatabase(name = `t${process.pid}_${++n}`) {
      const c = new pg.Client({ connectionString: url() });
      await c.connect();
      try {
        await c.query(`CREATE DATABASE "${name}"`);
      } finally {
        await c.end();
      }
      return url(name);
    },
    /** Stop the server by its pid (fast shutdown, then SIGKILL after 10 s) and delete the cluster. */
    async stop() {
      if (server.exitCode === null && server.signalCode === null) {
        process.kill(server.pid, 'SIGINT');
        const timer = setTimeout(() => server.kill('SIGKILL'), 10_000);
        await exited;
        clearTimeout(timer);
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
