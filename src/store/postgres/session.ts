// The settings of a writer session (the lease holder's connection, and a cluster process's other writers).
import type { ClientBase } from 'pg';

/**
 * `durable`: wait for the WAL flush before a commit returns (synchronous_commit on), else not (`--no-fsync`). Set
 * either way: the server's own default (postgresql.conf) is not what the sandbox promises.
 */
export async function writerSettings(client: ClientBase, durable: boolean): Promise<void> {
  await client.query(`SET synchronous_commit = ${durable ? 'on' : 'off'}`);
  // A group's journal row (and a snapshot) is compressed as it is stored, by the writer's backend, in line with the
  // group's commit: lz4 costs a fraction of the default pglz's CPU. A server without lz4 (before PostgreSQL 14, or
  // built without it) refuses the setting, and pglz stays. Rows already stored keep their compression; any reader
  // reads either.
  await client.query(`SET default_toast_compression = 'lz4'`).catch(() => {});
}
