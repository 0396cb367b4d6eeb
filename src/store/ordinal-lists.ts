// Lists of creation ordinals in ascending order, as the operation index keeps its buckets: insert and remove by
// binary search (the newest goes at the end), and a walk of several lists merged newest first.

export function insertInto(buckets: Map<string, number[]>, key: string, o: number): void {
  let list = buckets.get(key);
  if (!list) buckets.set(key, (list = []));
  const at = lowerBound(list, o);
  if (at === list.length) list.push(o);
  else if (list[at] !== o) list.splice(at, 0, o);
}

export function removeFrom(buckets: Map<string, number[]>, key: string, o: number): void {
  const list = buckets.get(key);
  if (!list) return;
  const at = lowerBound(list, o);
  if (list[at] !== o) return;
  list.splice(at, 1);
  if (list.length === 0) buckets.delete(key);
}

/** The first position of `list` (ascending) whose ordinal is not below `o`. */
export function lowerBound(list: readonly number[], o: number): number {
  // Fast path: the newest operation goes at the end.
  if (list.length === 0 || list[list.length - 1]! < o) return list.length;
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (list[mid]! < o) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export const size = (lists: readonly (readonly number[])[]): number => lists.reduce((n, l) => n + l.length, 0);

/** A walk of several lists of ascending ordinals, merged newest (highest) first. */
export class NewestFirst {
  /** Per list, the position above the next ordinal to yield. */
  private readonly at: number[];

  constructor(private readonly lists: readonly (readonly number[])[]) {
    this.at = lists.map((l) => l.length);
  }

  /** Start each list below the position `start` gives. */
  startBelow(start: (list: readonly number[]) => number): void {
    this.lists.forEach((list, i) => (this.at[i] = start(list)));
  }

  /** The next ordinal, or -1 when every list is done. */
  next(): number {
    let best = -1;
    let bestOrdinal = -1;
    for (let i = 0; i < this.lists.length; i++) {
      const at = this.at[i]!;
      if (at > 0 && this.lists[i]![at - 1]! > bestOrdinal) [best, bestOrdinal] = [i, this.lists[i]![at - 1]!];
    }
    if (best >= 0) this.at[best]!--;
    return bestOrdinal;
  }
}
