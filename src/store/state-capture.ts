// A capture of the sandbox state for a snapshot written while the sandbox serves (see SandboxState.capture).
import type { Entity } from './persistence.js';
import type { PackedMap } from './packed-map.js';
import type { SnapshotSource } from './snapshot.js';
import type { SandboxState } from './state.js';

/**
 * The state as it is now, to be written as a snapshot while the state goes on changing: the three large
 * collections are read as they were now through copy-on-write (see PackedMap.capture), the others are copied now.
 * `durable` gives, for the ids whose latest change is not written yet, the value written before it (undefined:
 * none): the capture holds only written data. Call `release()` when done.
 */
export function captureState(state: SandboxState, durable: ReadonlyMap<string, ReadonlyMap<string, Entity | undefined>>): SnapshotSource {
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
  const copies = [
    plain('keys', state.keys.values()),
    plain('meta', state.meta.values()),
    plain('links', state.links.values()),
    plain('webhook_endpoints', state.webhookEndpoints.values()),
    plain('webhook_deliveries', state.webhookDeliveries.values()),
    plain('webhook_payloads', [...state.webhookPayloads].map(([id, body]) => ({ id, body }))),
    plain('webhook_attempts', [...state.webhookAttempts.values()].flat()),
  ];
  const release = () => packed.forEach(([, m], i) => m.release(overlays[i]!));
  function* entries(): Generator<[string, string, string]> {
    for (let i = 0; i < packed.length; i++) {
      const [c, m] = packed[i]!;
      const o = overlays[i]!;
      for (const [id, now] of m.rawEntries()) {
        const v = o.has(id) ? o.get(id) : now;
        if (v !== undefined) yield [c, id, typeof v === 'string' ? v : JSON.stringify(v)];
      }
      // An id that existed at the capture and was deleted since is no longer in the map: its value is in the overlay.
      for (const [id, v] of o) if (v !== undefined && !m.has(id)) yield [c, id, typeof v === 'string' ? v : JSON.stringify(v)];
    }
    for (const [c, list] of copies) for (const v of list) yield [c, v.id, JSON.stringify(v)];
  }
  return { entries, release };
}
