// The duplicate-key check of JSON bodies (src/emulator/http/json-keys.ts) and the bound on echoed request values
// (src/contract/echo.ts), as units: the first repeated key and its path, keys compared as JSON.parse reads them, the
// cheap test that spares the scan never missing a repeat.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { echo, ECHO_LIMIT, jsonTypeOf } from '../../src/contract/echo.js';
import { mayRepeatKeys, repeatedKeyAt } from '../../src/emulator/http/json-keys.js';

const check = (text: string) => (mayRepeatKeys(text, JSON.parse(text)) ? repeatedKeyAt(text) : undefined);

describe('repeated JSON keys', () => {
  it.each([
    ['{"amount":"100.00","amount":"200.00"}', 'amount'],
    ['{"a":1,"b":{"x":1,"y":2,"x":3}}', 'b.x'],
    ['{"faults":[{"endpoint":"a"},{"endpoint":"b","endpoint":"c"}]}', 'faults[1].endpoint'],
    ['[1,[2,{"k":1,"k":1}]]', '[1][1].k'],
    ['{"amount":"1.00","\\u0061mount":"2.00"}', 'amount'],
    ['{"a\\"b":1,"a\\u0022b":2}', 'a"b'],
    ['{ "s" : "\\"}{,\\\\" , "t":[ "]" , "{" ], "s" : 1 }', 's'],
    ['{"":1,"":2}', ''],
    ['{"__proto__":1,"__proto__":2}', '__proto__'],
  ])('%s → %s', (text, path) => {
    expect(repeatedKeyAt(text)).toBe(path);
    expect(check(text)).toBe(path);
  });

  it.each([
    '{"a":{"x":1},"b":{"x":1}}',
    '[{"a":1},{"a":1}]',
    '{"a":"a","b":"a:b:c","c":["a","a"]}',
    '{"k\\\\":1,"k":2}',
    '"a:b"',
    '{}',
    '[]',
  ])('%s has no repeated key', (text) => {
    expect(repeatedKeyAt(text)).toBeUndefined();
    expect(check(text)).toBeUndefined();
  });

  it('a key inherited from a polluted Object.prototype does not hide a repeat', () => {
    Object.defineProperty(Object.prototype, 'polluted', {
      value: 1,
      enumerable: true,
      configurable: true,
      writable: true,
    });
    try {
      expect(check('{"a":1,"a":2}')).toBe('a');
    } finally {
      delete (Object.prototype as Record<string, unknown>).polluted;
    }
  });

  it('an object of many keys is checked as well as a small one', () => {
    const keys = Array.from({ length: 40 }, (_, i) => `"k${i}":${i}`);
    expect(repeatedKeyAt(`{${keys.join(',')}}`)).toBeUndefined();
    expect(repeatedKeyAt(`{${keys.join(',')},"k3":0}`)).toBe('k3');
  });

  it('the cheap test says "cannot repeat" only when nothing repeats (any JSON, a key repeated into it or not)', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.string(), fc.boolean(), (value, key, repeat) => {
        const inner = JSON.stringify({ v: value, [key]: 1 });
        const text = repeat ? `${inner.slice(0, -1)},${JSON.stringify(key)}:2}` : inner;
        const data = JSON.parse(text) as unknown;
        const expected = repeat ? key : undefined;
        expect(repeatedKeyAt(text)).toBe(expected);
        if (expected !== undefined) expect(mayRepeatKeys(text, data)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});

describe('echoed values', () => {
  it('a value is quoted whole up to 64 characters, then cut with "…"', () => {
    expect(echo('x'.repeat(ECHO_LIMIT))).toBe('x'.repeat(64));
    expect(echo('x'.repeat(30_000))).toBe(`${'x'.repeat(64)}…`);
    // A surrogate pair is not cut in two.
    expect(echo(`${'x'.repeat(63)}😀😀`)).toBe(`${'x'.repeat(63)}…`);
  });

  it.each([
    [null, 'null'],
    [true, 'a boolean'],
    [[], 'an array'],
    [{}, 'an object'],
    [100, 'a number'],
    ['s', 'a string'],
  ])('%j is %s', (v, name) => expect(jsonTypeOf(v)).toBe(name));
});
