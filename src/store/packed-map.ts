// A map of stored entities by id that keeps most of them as their JSON text: a string costs about its length in
// bytes, where the same entity as objects costs 4-6 times that and gives the garbage collector one object per field
// to trace. The entities written lately stay objects (the `hot` ones: the next command of a flow reads them back),
// older ones are turned into text as newer ones come, and a read of a text decodes it (a small cache keeps the last
// decoded ones, so a listing page or a flow reading the same entity twice decodes it once). Entities are
// replaced, never changed in place, so a decoded copy is as good as the original. Iteration keeps first-insertion
// order, like a Map.
//
// With a file store most texts are not even in memory: a value may be a handle to the text in the snapshot file
// (see ColdTexts), read back when the entity is.
//
// A snapshot being written while the map changes sees the map as it was when it began (`capture()`): the first
// change of an id after that point keeps the id's previous value for the capture.
import type { Entity } from './persistence.js';
import type { ColdTexts } from './cold-texts.js';

/** A value kept for an id: its JSON text, the entity itself while it is hot, or a handle to its text in a file. */
export type Packed<T> = string | T | number;

/** What a capture saw for an id changed after it began: its value then (undefined: it did not exist). */
export type CaptureOverlay = Map<string, Packed<Entity> | undefined>;

/**
 * The JSON text an entity was serialised to when it was written (the journal's line holds it): cooling the entity
 * reuses it instead of serialising it again. Entities are replaced, never changed in place, so the text stays true;
 * it lives as long as the object does. It is kept on the object itself, under a symbol and not enumerable (so
 * JSON.stringify, spreads and Object.keys do not see it), not in a WeakMap: a WeakMap of every entity written keeps
 * the dead ones' entries until a full collection, and growing that table stalled the event loop for 5–30 ms
 * several times a run (docs/performance.md, *The tail of creates at 1,000 stored*).
 */
const WRITTEN_TEXT = Symbol('paygate.writtenText');

/** Remember `text` as the JSON text of `entity` (JSON.stringify(entity), as written). */
export function rememberText(entity: object, text: string): void {
  if (Object.isExtensible(entity))
    Object.defineProperty(entity, WRITTEN_TEXT, { value: text, writable: true, configurable: true });
}

/** The text `rememberText` kept for `entity`, if any. */
function writtenText(entity: object): string | undefined {
  return (entity as { [WRITTEN_TEXT]?: string })[WRITTEN_TEXT];
}

export class PackedMap<T extends Entity> {
  readonly #raw = new Map<string, Packed<T>>();
  /**
   * Ids whose value is an object, with the number of the write that made it hot. The order (oldest first) is kept
   * in #queue, not by deleting from the front of a Set: V8 leaves a deleted Set entry as a hole until the table is
   * rebuilt, and each `values().next()` walks over the holes at its front (14 µs per cool at 20,000 hot ids).
   */
  readonly #hot = new Map<string, number>();
  /** The writes that made ids hot, oldest first, from #head on: [id, write number] pairs, stale once rewritten. */
  #queue: Array<string | number> = [];
  #head = 0;
  #writes = 0;
  /** The last decoded texts, oldest first. */
  readonly #decoded = new Map<string, T>();
  /** Open captures: each sees the map as it was when it began. */
  readonly #captures = new Set<CaptureOverlay>();
  /** Handles replaced while a capture was open: freed when the last capture is released (it may still read them). */
  #unused: number[] = [];
  /** Where handles point (set when the store loads from a file). */
  cold: ColdTexts | undefined;

  constructor(
    /** Objects kept as they are (the most recently written). */
    readonly hotLimit: number,
    /** Decoded texts kept. */
    readonly cacheLimit: number,
  ) {}

  get size(): number {
    return this.#raw.size;
  }

  has(id: string): boolean {
    return this.#raw.has(id);
  }

  get(id: string): T | undefined {
    const v = this.#raw.get(id);
    if (typeof v === 'object' || v === undefined) return v;
    let d = this.#decoded.get(id);
    if (d === undefined) {
      d = JSON.parse(this.textOf(v)) as T;
      if (this.#decoded.size >= this.cacheLimit) this.#decoded.delete(this.#decoded.keys().next().value!);
      this.#decoded.set(id, d);
    }
    return d;
  }

  /** The entity, decoded without entering the cache (a scan that reads each entity once). */
  peek(id: string): T | undefined {
    const v = this.#raw.get(id);
    return typeof v === 'object' || v === undefined ? v : (this.#decoded.get(id) ?? (JSON.parse(this.textOf(v)) as T));
  }

  /** The stored value: the JSON text of a cold entity (read from its file if it is there), the object of a hot one. */
  raw(id: string): string | T | undefined {
    const v = this.#raw.get(id);
    return typeof v === 'number' ? this.textOf(v) : v;
  }

  /** The JSON text of a stored value. */
  textOf(v: Packed<T>): string {
    if (typeof v === 'string') return v;
    if (typeof v === 'number') return this.cold!.text(v);
    return JSON.stringify(v);
  }

  /** Store an entity written now: it stays an object until `hotLimit` newer writes push it out. */
  set(id: string, v: T): this {
    this.#remember(id);
    this.#drop(this.#raw.get(id));
    this.#raw.set(id, v);
    this.#decoded.delete(id);
    const n = ++this.#writes;
    this.#hot.set(id, n);
    this.#queue.push(id, n);
    if (this.#hot.size > this.hotLimit) this.#cool();
    else if (this.#queue.length - this.#head > 4 * this.#hot.size + 8192) this.#compact();
    return this;
  }

  /** Store an entity as its JSON text (loading a store). */
  setText(id: string, text: Packed<T>, fresh = false): void {
    this.#remember(id);
    // `fresh`: the caller knows the id is new (a snapshot loading), so there is no old value to let go.
    if (!fresh) this.#drop(this.#raw.get(id));
    this.#raw.set(id, text);
    // Loading a store, both are empty: skip the lookups (a few % of a start-up at 1,000,000 operations).
    if (this.#decoded.size > 0) this.#decoded.delete(id);
    if (this.#hot.size > 0) this.#hot.delete(id);
  }

  delete(id: string): boolean {
    this.#remember(id);
    this.#drop(this.#raw.get(id));
    this.#decoded.delete(id);
    this.#hot.delete(id);
    return this.#raw.delete(id);
  }

  /** Forget everything; the handles are the owner's to clear (ColdTexts.clear). */
  clear(): void {
    for (const id of this.#raw.keys()) this.#remember(id);
    if (this.#captures.size === 0) this.#unused = [];
    this.#raw.clear();
    this.#hot.clear();
    this.#queue = [];
    this.#head = 0;
    this.#decoded.clear();
  }

  keys(): IterableIterator<string> {
    return this.#raw.keys();
  }

  /** Every entity, decoded (a full scan: for tests and tools; not for request paths). */
  *values(): IterableIterator<T> {
    for (const id of this.#raw.keys()) yield this.get(id)!;
  }

  /** [id, JSON text or object] in insertion order, as stored now. */
  rawEntries(): IterableIterator<[string, Packed<T>]> {
    return this.#raw.entries();
  }

  /** Begin seeing the map as it is now: until `release`, the first change of an id records its value in `overlay`. */
  capture(): CaptureOverlay {
    const overlay: CaptureOverlay = new Map();
    this.#captures.add(overlay);
    return overlay;
  }

  release(overlay: CaptureOverlay): void {
    this.#captures.delete(overlay);
    if (this.#captures.size > 0) return;
    for (const h of this.#unused) this.cold?.free(h);
    this.#unused = [];
  }

  /**
   * After a snapshot was written: an entity whose value is still the one the snapshot wrote (the caller knows: it
   * is unchanged since the capture) and is not hot is read from the new file from now on, at `offset` (`length`
   * bytes); its text, or its handle into the old file, is let go. Returns whether it moved.
   */
  settle(id: string, file: number, offset: number, length: number, prefix: number): boolean {
    const v = this.#raw.get(id);
    if (v === undefined || typeof v === 'object' || !this.cold) return false;
    if (typeof v === 'number') this.cold.move(v, file, offset, prefix);
    else this.#raw.set(id, this.cold.add(file, offset, length, prefix));
    return true;
  }

  /** A value replaced or deleted: its handle is let go (once no capture can read it any more). */
  #drop(v: Packed<T> | undefined): void {
    if (typeof v !== 'number') return;
    if (this.#captures.size > 0) this.#unused.push(v);
    else this.cold?.free(v);
  }

  #remember(id: string): void {
    if (this.#captures.size === 0) return;
    for (const o of this.#captures) if (!o.has(id)) o.set(id, this.#raw.get(id));
  }

  /** Drop the stale entries of the queue (rewrites of ids that stay under the limit would grow it without end). */
  #compact(): void {
    const q = this.#queue;
    const live: Array<string | number> = [];
    for (let i = this.#head; i < q.length; i += 2)
      if (this.#hot.get(q[i] as string) === q[i + 1]) live.push(q[i]!, q[i + 1]!);
    this.#queue = live;
    this.#head = 0;
  }

  /** Turn the oldest hot object into text. */
  #cool(): void {
    const q = this.#queue;
    while (this.#head < q.length) {
      const id = q[this.#head] as string;
      const n = q[this.#head + 1] as number;
      this.#head += 2;
      if (this.#hot.get(id) !== n) continue; // rewritten since (a later entry stands for it) or no longer hot
      this.#hot.delete(id);
      const v = this.#raw.get(id);
      if (typeof v === 'object') this.#raw.set(id, writtenText(v) ?? JSON.stringify(v));
      break;
    }
    if (this.#head >= 4096 && this.#head * 2 >= q.length) {
      this.#queue = q.slice(this.#head);
      this.#head = 0;
    }
  }
}
