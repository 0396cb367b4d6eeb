// Duplicate keys in a JSON text. JSON.parse keeps the last of two equal keys of one object, where a proxy or a WAF
// that reads the first one sees another request: such a body is refused, and JSON.parse cannot tell. `mayRepeatKeys`
// says, from what the parse produced, whether a text can hold a repeated key at all (most bodies cannot, and are not
// scanned); `repeatedKeyAt` finds the first one in one linear scan of the text.

/**
 * Whether `text`, which JSON.parse turned into `data`, may hold a key twice in one object. Each key of the text is
 * followed by one ':' outside strings; the parse keeps one key for each name of an object. So when the text holds
 * no more ':' than `data` holds keys, no key was repeated. A ':' inside a string, or an object deeper than 64 levels
 * (not counted), only makes the answer a cautious yes.
 */
export function mayRepeatKeys(text: string, data: unknown): boolean {
  if (typeof data !== 'object' || data === null) return false;
  let colons = 0;
  for (let at = text.indexOf(':'); at !== -1; at = text.indexOf(':', at + 1)) colons++;
  return colons > keyCount(data, 0);
}

function keyCount(data: object, depth: number): number {
  if (depth > 64) return 0;
  let n = 0;
  if (Array.isArray(data)) {
    for (const v of data) if (typeof v === 'object' && v !== null) n += keyCount(v, depth + 1);
    return n;
  }
  // Own keys only: a key inherited from a polluted Object.prototype must not hide a repeat.
  const keys = Object.keys(data);
  n = keys.length;
  for (const k of keys) {
    const v = (data as Record<string, unknown>)[k];
    if (typeof v === 'object' && v !== null) n += keyCount(v, depth + 1);
  }
  return n;
}

interface Frame {
  /** The keys seen so far (an object), or undefined (an array). */
  keys: string[] | Set<string> | undefined;
  /** The current key (an object) or index (an array), for the path. */
  at: string | number;
}

/** Past this many keys an object's names are kept in a Set rather than searched in an array. */
const SMALL_OBJECT = 12;

/**
 * The path of the first key that appears twice in one object of `text` — `amount`, `generate.count`,
 * `faults[1].endpoint` — or undefined. `text` must be valid JSON (parse it first). Keys are compared as JSON.parse
 * reads them, so `"a"` and `"\u0061"` are one key.
 */
export function repeatedKeyAt(text: string): string | undefined {
  const stack: Frame[] = [];
  let top: Frame | undefined;
  let expectKey = false;
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22 /* " */) {
      const end = stringEnd(text, i);
      if (expectKey && top) {
        const raw = text.slice(i + 1, end);
        const key = raw.includes('\\') ? (JSON.parse(text.slice(i, end + 1)) as string) : raw;
        if (seen(top, key)) return pathOf(stack, key);
        top.at = key;
        expectKey = false;
      }
      i = end;
    } else if (c === 0x7b /* { */) {
      top = { keys: [], at: '' };
      stack.push(top);
      expectKey = true;
    } else if (c === 0x5b /* [ */) {
      top = { keys: undefined, at: 0 };
      stack.push(top);
      expectKey = false;
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) {
      stack.pop();
      top = stack[stack.length - 1];
      expectKey = false;
    } else if (c === 0x2c /* , */ && top) {
      if (top.keys) expectKey = true;
      else top.at = (top.at as number) + 1;
    }
  }
  return undefined;
}

/** The index of the '"' that closes the string opening at `start`. */
function stringEnd(text: string, start: number): number {
  let end = text.indexOf('"', start + 1);
  for (;;) {
    let slashes = 0;
    while (text.charCodeAt(end - 1 - slashes) === 0x5c /* \ */) slashes++;
    if (slashes % 2 === 0) return end;
    end = text.indexOf('"', end + 1);
  }
}

/** Record `key` in the object `f`; true when it was there already. */
function seen(f: Frame, key: string): boolean {
  const keys = f.keys!;
  if (Array.isArray(keys)) {
    if (keys.includes(key)) return true;
    keys.push(key);
    if (keys.length > SMALL_OBJECT) f.keys = new Set(keys);
    return false;
  }
  if (keys.has(key)) return true;
  keys.add(key);
  return false;
}

function pathOf(stack: readonly Frame[], key: string): string {
  let path = '';
  for (let d = 0; d < stack.length - 1; d++) {
    const at = stack[d]!.at;
    path += typeof at === 'number' ? `[${at}]` : path ? `.${at}` : at;
  }
  return path ? `${path}.${key}` : key;
}
