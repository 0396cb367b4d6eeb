// A capture of the sandbox state for a snapshot written while the sandbox serves (see SandboxState.capture), and
// what follows the write: the texts it placed in the new file are read from there from now on (Placements).
import { openSync } from 'node:fs';
import type { Entity } from './persistence.js';
import type { Packed, PackedMap } from './packed-map.js';
import type { OperationRecord } from '../domain/operation.js';
import { loadView } from './state-load.js';
import { PagedColumn } from './paged-column.js';
import type { SnapshotSource } from './snapshot.js';
import type { SandboxState } from './state.js';

type Line = [string, string, string, string?];

/**
 * The state as it is now, to be written as a snapshot while the state goes on changing: the three large
 * collections are read as they were now through copy-on-write (see PackedMap.capture), the others are copied now.
 * `durable` gives, for the ids whose latest change is not written yet, the value written before it (undefined:
 * none): the capture holds only written data. Call `release()` when done.
 */
export function captureState(
  state: SandboxState,
  durable: ReadonlyMap<string, ReadonlyMap<string, Entity | undefined>>,
): SnapshotSource {
  const packed: [string, PackedMap<Entity>][] = [
    ['operations', state.operations as unknown as PackedMap<Entity>],
    ['postings', state.postings as unknown as PackedMap<Entity>],
    ['events', state.events as unknown as PackedMap<Entity>],
  ];
  const overlays = packed.map(([c, m]) => {
    const o = m.capture();
    for (const [id, v] of durable.get(c) ?? []) o.set(id, v);
    return o;
  });
  const copies = copiesOf(state, durable);
  const release = () => packed.forEach(([, m], i) => m.release(overlays[i]!));
  const placements = new Placements(state, packed, overlays);
  /** An operation's load view: as written before (a handle's prefix), else made from the operation. */
  const viewOf = (v: Packed<Entity>, text: string): string =>
    (typeof v === 'number' ? state.cold.prefixText(v) : undefined) ??
    JSON.stringify(loadView((typeof v === 'object' ? v : JSON.parse(text)) as OperationRecord));
  function* entries(): Generator<Line> {
    for (let i = 0; i < packed.length; i++) {
      const [c, m] = packed[i]!;
      const o = overlays[i]!;
      const line = (id: string, v: Packed<Entity>): Line => {
        const text = m.textOf(v);
        return c === 'operations' ? [c, id, text, viewOf(v, text)] : [c, id, text];
      };
      for (const [id, now] of m.rawEntries()) {
        const v = o.has(id) ? o.get(id) : now;
        if (v === undefined) continue;
        placements.next(o.has(id) || typeof v === 'object' ? -1 : i, id);
        yield line(id, v);
      }
      placements.next(-1, '');
      // An id that existed at the capture and was deleted since is no longer in the map: its value is in the overlay.
      for (const [id, v] of o) if (v !== undefined && !m.has(id)) yield line(id, v);
    }
    for (const [c, list] of copies) for (const v of list) yield [c, v.id, JSON.stringify(v)];
  }
  return { entries, release, placed: placements.placed, written: placements.written };
}

/** The small collections, copied now (the values written before each unwritten change). */
function copiesOf(
  state: SandboxState,
  durable: ReadonlyMap<string, ReadonlyMap<string, Entity | undefined>>,
): [string, Entity[]][] {
  const plain = (c: string, list: Iterable<Entity>): [string, Entity[]] => {
    const shadowed = durable.get(c);
    if (!shadowed || shadowed.size === 0) return [c, [...list]];
    const out: Entity[] = [];
    for (const v of list) {
      if (!shadowed.has(v.id)) out.push(v);
      else if (shadowed.get(v.id) !== undefined) out.push(shadowed.get(v.id)!);
    }
    return [c, out];
  };
  return [
    plain('keys', state.keys.values()),
    plain('meta', state.meta.values()),
    plain('links', state.links.values()),
    plain('webhook_endpoints', state.webhookEndpoints.values()),
    plain('webhook_deliveries', state.webhookDeliveries.values()),
    plain(
      'webhook_payloads',
      [...state.webhookPayloads].map(([id, body]) => ({ id, body })),
    ),
  ];
}

/**
 * Where each entity of the three maps went in the file being written (only those whose value is not an object and
 * did not change since the capture), so that once the file is in place their texts are read from it (settled).
 */
class Placements {
  /** The map (index into `packed`) and id of each placed entity, in pages (no array of millions copied as it grows). */
  readonly #map = new PagedColumn((n) => new Uint16Array(n));
  readonly #ids: string[][] = [];
  #count = 0;
  readonly #offsets = new PagedColumn((n) => new Float64Array(n));
  readonly #lengths = new PagedColumn((n) => new Uint32Array(n));
  readonly #views = new PagedColumn((n) => new Uint16Array(n));
  /** The entry just given to the writer: its map's index (-1: not to be settled) and id. */
  #last = -1;
  #lastId = '';

  constructor(
    readonly state: SandboxState,
    readonly packed: readonly [string, PackedMap<Entity>][],
    readonly overlays: readonly Map<string, unknown>[],
  ) {}

  next(map: number, id: string): void {
    this.#last = map;
    this.#lastId = id;
  }

  readonly placed = (offset: number, length: number, view: number): void => {
    if (this.#last < 0) return;
    const n = this.#count++;
    this.#map.set(n, this.#last);
    const page = this.#ids[n >>> 16] ?? (this.#ids[n >>> 16] = []);
    page.push(this.#lastId);
    this.#offsets.set(n, offset);
    this.#lengths.set(n, length);
    this.#views.set(n, view < 65536 ? view : 0);
    this.#last = -1;
  };

  /** The texts of entities unchanged since the capture are read from the new snapshot from now on (in slices). */
  readonly written = async (path: string): Promise<void> => {
    if (this.#count === 0) return;
    const file = this.state.cold.addFile(openSync(path, 'r'), path);
    let since = performance.now();
    for (let n = 0; n < this.#count; n++) {
      const i = this.#map.get(n);
      const id = this.#ids[n >>> 16]![n & 0xffff]!;
      // Not in the overlay: unchanged since the capture (and written), so the map's value is what the file holds.
      if (!this.overlays[i]!.has(id))
        this.packed[i]![1].settle(id, file, this.#offsets.get(n), this.#lengths.get(n), this.#views.get(n));
      if ((n & 255) === 255 && performance.now() - since >= SLICE_MS) {
        await new Promise<void>((r) => setImmediate(r));
        since = performance.now();
      }
    }
  };
}

/** Work done between two yields to the event loop while entities are settled. */
const SLICE_MS = 8;
