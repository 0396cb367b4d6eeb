// The journal builds a record's `ch` text from each entity's own JSON text (kept so that PackedMap reuses it when the
// entity cools): the line must stay byte-identical to JSON.stringify of the {c, v} list, and a cooled entity's text
// must be its JSON text.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { serializeChanges } from '../../src/store/journal.js';
import { PackedMap } from '../../src/store/packed-map.js';

const entity = fc.record({
  id: fc.string({ minLength: 1 }),
  note: fc.string({ unit: 'binary' }),
  n: fc.double({ noNaN: true }),
  nested: fc.jsonValue(),
});

describe('journal record text', () => {
  it('is JSON.stringify of the {c, v} list, byte for byte', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.constantFrom('operations', 'events', 'postings', 'odd "name"\u2028'), entity)),
        (list) => {
          const changes = list.map(([c, v]) => ({ c, v }));
          expect(serializeChanges(changes)).toBe(JSON.stringify(changes.map((ch) => ({ c: ch.c, v: ch.v }))));
        },
      ),
    );
  });

  it('throws for what JSON cannot hold, as before', () => {
    expect(() => serializeChanges([{ c: 'operations', v: { id: 'x', big: 1n } as never }])).toThrow(TypeError);
  });

  it('a written entity cools to its written text; one never written to the journal to its JSON text', () => {
    const map = new PackedMap<{ id: string; v: string }>(1, 4);
    const a = { id: 'a', v: 'ä "q"' };
    const b = { id: 'b', v: 'plain' };
    serializeChanges([{ c: 'things', v: a }]);
    map.set('a', a);
    map.set('b', b); // a cools
    map.set('c', { id: 'c', v: 'x' }); // b cools (never serialised)
    expect(map.raw('a')).toBe(JSON.stringify(a));
    expect(map.raw('b')).toBe(JSON.stringify(b));
    expect(map.get('a')).toEqual(a);
  });

  it('keeps the written text on the entity, hidden from JSON, keys and spreads, not in a table of every entity written', () => {
    const map = new PackedMap<{ id: string; v: string }>(1, 4);
    const a = { id: 'a', v: 'old' };
    serializeChanges([{ c: 'things', v: a }]);
    // On the object itself (a WeakMap of every entity written grew with the dead ones' entries until a full
    // collection, and its growth stalled the event loop for 5–30 ms: docs/performance.md, issue 26).
    const [key] = Object.getOwnPropertySymbols(a);
    expect(key && Object.getOwnPropertyDescriptor(a, key)).toMatchObject({
      value: JSON.stringify(a),
      enumerable: false,
    });
    expect(Object.keys(a)).toEqual(['id', 'v']);
    // A replacement made by a spread does not carry the old text: it cools to its own JSON text.
    const a2 = { ...a, v: 'new' };
    expect(Object.getOwnPropertySymbols(a2)).toEqual([]);
    map.set('a', a2);
    map.set('b', { id: 'b', v: 'x' }); // a2 cools
    expect(map.raw('a')).toBe('{"id":"a","v":"new"}');
    // A frozen entity is serialised all the same (its text is not kept).
    expect(serializeChanges([{ c: 'things', v: Object.freeze({ id: 'f', v: 'x' }) }])).toBe(
      '[{"c":"things","v":{"id":"f","v":"x"}}]',
    );
  });
});

describe('PackedMap hot objects', () => {
  it('cools the least recently written first, a rewrite making an id newest again, and keeps at most hotLimit objects', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.constantFrom('set', 'set', 'set', 'delete', 'text'), fc.integer({ min: 0, max: 12 })), {
          maxLength: 300,
        }),
        fc.integer({ min: 1, max: 5 }),
        (ops, limit) => {
          const map = new PackedMap<{ id: string; n: number }>(limit, 2);
          const model: string[] = []; // hot ids, oldest first
          ops.forEach(([op, k], i) => {
            const id = `e${k}`;
            const at = model.indexOf(id);
            if (at >= 0) model.splice(at, 1);
            if (op === 'set') {
              map.set(id, { id, n: i });
              model.push(id);
              if (model.length > limit) model.shift();
            } else if (op === 'delete') map.delete(id);
            else map.setText(id, JSON.stringify({ id, n: i }));
          });
          const hot = [...map.keys()].filter((id) => typeof map.raw(id) === 'object');
          expect(hot.sort()).toEqual(model.slice().sort());
        },
      ),
      { numRuns: 300 },
    );
  });

  it('rewriting the same few ids under the limit does not grow it (nothing cools, everything stays readable)', () => {
    const map = new PackedMap<{ id: string; n: number }>(10, 2);
    for (let i = 0; i < 50_000; i++) map.set(`e${i % 3}`, { id: `e${i % 3}`, n: i });
    expect([0, 1, 2].map((k) => map.get(`e${k}`)?.n)).toEqual([49_998, 49_999, 49_997]);
    expect(typeof map.raw('e0')).toBe('object');
  });
});
