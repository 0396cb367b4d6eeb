// A map that keeps the most recently used `cap` entries: the validator's memory per operation, key and shop stays
// bounded however long the traffic runs (the oldest are forgotten first).
export class BoundedMap<K, V> {
  private readonly map = new Map<K, V>();
  constructor(readonly cap: number) {}

  get size(): number {
    return this.map.size;
  }

  /** The value, marked as the most recently used. */
  get(key: K): V | undefined {
    const v = this.map.get(key);
    if (v !== undefined) {
      this.map.delete(key);
      this.map.set(key, v);
    }
    return v;
  }

  set(key: K, value: V): void {
    this.map.delete(key);
    this.map.set(key, value);
    if (this.map.size > this.cap) this.map.delete(this.map.keys().next().value as K);
  }
}

/** The newest `cap` items pushed, and how many were pushed in all (a ring: pushing is O(1), nothing is copied). */
export class Ring<T> {
  private readonly items: T[] = [];
  private next = 0;
  private pushed = 0;
  constructor(readonly cap: number) {}

  /** How many were pushed in all (kept or not). */
  get total(): number {
    return this.pushed;
  }

  push(item: T): void {
    this.pushed++;
    if (this.items.length < this.cap) this.items.push(item);
    else this.items[this.next] = item;
    this.next = (this.next + 1) % this.cap;
  }

  /** The kept items, oldest first. */
  toArray(): T[] {
    return this.items.length < this.cap
      ? [...this.items]
      : [...this.items.slice(this.next), ...this.items.slice(0, this.next)];
  }

  /** The newest `n` kept items, newest first. */
  newest(n: number): T[] {
    const out: T[] = [];
    const kept = this.items.length;
    for (let i = 1; i <= Math.min(n, kept); i++) out.push(this.items[(this.next - i + kept * 2) % kept]!);
    return out;
  }
}
