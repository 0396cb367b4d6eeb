// A map of stored entities by id that keeps most of them as their JSON text: a string costs about its length in
// bytes, where the same entity as objects costs 4-6 times that and gives the garbage collector one object per field
// to trace. The entities written lately stay objects (the `hot` ones: the next command of a flow reads them back),
// older ones are turned into text as newer ones come, and a read of a text decodes it (a small cache keeps the last
// decoded ones, so a listing page or a flow reading the same entity twice decodes it once). Entities are
// replaced, never changed in place, so a decoded copy is as good as the original. Iteration keeps first-insertion
// order, like a Map.
//
// A snapshot being written while the map changes sees the map as it was when it began (`capture()`): the first
// change of an id after that point keeps the id's previous value for the capture.
import type { Entity } from './persistence.js';

/** A value kept for an id: its JSON text, or the entity itself while it is hot. */
export type Packed<T> = string | T;

/** What a capture saw for an id changed after it began: its value then (undefined: it did not exist). */
export type CaptureOverlay = Map<string, Packed<Entity> | undefined>;

export class PackedMap<T extends Entity> {
  readonly #raw = new Map<string, Packed<T>>();
  /** Ids whose value is an object, oldest first. */
  readonly #hot = new Set<string>();
  /** The last decoded texts, oldest first. */
  readonly #decoded = new Map<string, T>();
  /** Open captures: each sees the map as it was when it began. */
  readonly #captures = new Set<CaptureOverlay>();

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
    if (typeof v !== 'string') return v;
    let d = this.#decoded.get(id);
    if (d === undefined) {
      d = JSON.parse(v) as T;
      if (this.#decoded.size >= this.cacheLimit) this.#decoded.delete(this.#decoded.keys().next().value!);
      this.#decoded.set(id, d);
    }
    return d;
  }

  /** The entity, decoded without entering the cache (a scan that reads each entity once). */
  peek(id: string): T | undefined {
    const v = this.#raw.get(id);
    return typeof v === 'string' ? (this.#decoded.get(id) ?? (JSON.parse(v) as T)) : v;
  }

  /** The stored value as it is: the JSON text of a cold entity, the object of a hot one. */
  raw(id: string): Packed<T> | undefined {
    return this.#raw.get(id);
  }

  /** Store an entity written now: it stays an object until `hotLimit` newer writes push it out. */
  set(id: string, v: T): this {
    this.#remember(id);
    this.#raw.set(id, v);
    this.#decoded.delete(id);
    this.#hot.delete(id);
    this.#hot.add(id);
    if (this.#hot.size > this.hotLimit) this.#cool();
    return this;
  }

  /** Store an entity as its JSON text (loading a store). */
  setText(id: string, text: string): void {
    this.#remember(id);
    this.#raw.set(id, text);
    // Loading a store, both are empty: skip the lookups (a few % of a start-up at 1,000,000 operations).
    if (this.#decoded.size > 0) this.#decoded.delete(id);
    if (this.#hot.size > 0) this.#hot.delete(id);
  }

  delete(id: string): boolean {
    this.#remember(id);
    this.#decoded.delete(id);
    this.#hot.delete(id);
    return this.#raw.delete(id);
  }

  clear(): void {
    for (const id of this.#raw.keys()) this.#remember(id);
    this.#raw.clear();
    this.#hot.clear();
    this.#decoded.clear();
  }

  keys(): IterableIterator<string> {
    return this.#raw.keys();
  }

  /** Every entity, decoded (a full scan: for tests, tools and start-up; not for request paths). */
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
  }

  #remember(id: string): void {
    if (this.#captures.size === 0) return;
    for (const o of this.#captures) if (!o.has(id)) o.set(id, this.#raw.get(id));
  }

  /** Turn the oldest hot object into text. */
  #cool(): void {
    const id = this.#hot.values().next().value!;
    this.#hot.delete(id);
    const v = this.#raw.get(id);
    if (v !== undefined && typeof v !== 'string') this.#raw.set(id, JSON.stringify(v));
  }
}
