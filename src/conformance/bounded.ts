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
