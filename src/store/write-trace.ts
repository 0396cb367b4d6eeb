// What the write path tells a profiler, on two diagnostics channels (node:diagnostics_channel): nothing is measured
// or published unless someone subscribes (test/bench/probe.cjs does, for the benchmarks' breakdown of a tail).
//   paygate:store.group    one per group the Store wrote: {transactions, changes, waited_ms (the oldest transaction's
//                          wait from its commit to its group being sent), encode_ms (the group's time on the event
//                          loop before its first await: serializing, and the write(2) of a file store without fsync),
//                          written_ms (from there until written and fdatasync'ed), failed}
//   paygate:store.journal  one per journal append of a FilePersistence: {bytes, write_ms, sync_ms, fsync} (without
//                          fsync, the default, the write is a synchronous write(2) to the page cache and sync_ms 0)
import { channel } from 'node:diagnostics_channel';

export const groupChannel = channel('paygate:store.group');
export const journalChannel = channel('paygate:store.journal');

export interface GroupTrace {
  transactions: number;
  changes: number;
  waited_ms: number;
  encode_ms: number;
  written_ms: number;
  failed: boolean;
}

export interface JournalTrace {
  bytes: number;
  write_ms: number;
  sync_ms: number;
  fsync: boolean;
}
