// A growable column of numbers in fixed pages of typed arrays: growing adds a page (at most 512 KiB), it never
// reallocates and copies the whole column. At millions of entries a doubling typed array allocates and copies tens
// of MiB in one go, a pause for every request waiting behind it.

type Typed = Float64Array | Uint32Array | Uint16Array;

const PAGE_BITS = 16;
const PAGE = 1 << PAGE_BITS;
const MASK = PAGE - 1;

export class PagedColumn {
  readonly #pages: Typed[] = [];

  constructor(readonly make: (n: number) => Typed) {}

  get(i: number): number {
    return this.#pages[i >>> PAGE_BITS]![i & MASK]!;
  }

  set(i: number, v: number): void {
    const p = i >>> PAGE_BITS;
    const page = this.#pages[p] ?? (this.#pages[p] = this.make(PAGE));
    page[i & MASK] = v;
  }
}
