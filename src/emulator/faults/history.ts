// The injected faults each operation met, for its history (GET /sandbox/operations/:id `faults`): kept in memory
// only, bounded (the newest operations and the newest events of each), forgotten on a reset or a restart. A fault
// changes nothing of the operation, so it is not written to the store with it.
import type { FaultEvent } from '../../contract/faults.js';

/** Operations whose fault events are kept; the oldest is forgotten first. */
export const MAX_OPERATIONS = 10_000;
/** Events kept per operation; the oldest is forgotten first. */
export const MAX_EVENTS = 100;

export class FaultHistory {
  private readonly events = new Map<string, FaultEvent[]>();

  add(operationId: string, event: FaultEvent): void {
    const id = operationId.toLowerCase();
    let list = this.events.get(id);
    if (!list) {
      if (this.events.size >= MAX_OPERATIONS) this.events.delete(this.events.keys().next().value!);
      list = [];
      this.events.set(id, list);
    }
    list.push(event);
    if (list.length > MAX_EVENTS) list.shift();
  }

  of(operationId: string): FaultEvent[] {
    return [...(this.events.get(operationId.toLowerCase()) ?? [])];
  }

  clear(): void {
    this.events.clear();
  }
}
