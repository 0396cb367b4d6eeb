// Personal data in a recorded request, replaced by the sandbox's test values before it is written: card and phone
// numbers by the numbers the scenario library uses, names by its test name, client IPs by a documentation address
// (RFC 5737), and each client id by `client-<n>` with its magic tags (`+receipt`, `+fail`, …) kept, so the replay
// takes the same routes.

export const TEST_CARD = '2200700000000004';
export const TEST_PHONE = '+79001234567';
export const TEST_NAME = 'IVAN PETROV';
export const TEST_IP = '203.0.113.10';

/** Which fields are personal and what replaced them, for the recording's header comment. */
export const PERSONAL_NOTE =
  `card and phone numbers replaced by ${TEST_CARD} / ${TEST_PHONE}, names by ${TEST_NAME}, client IPs by ${TEST_IP}, ` +
  'client ids by client-<n> (their +tags kept)';

export class PersonalData {
  readonly #clients = new Map<string, string>();

  /** The request fields with every personal value replaced; other fields as they were. */
  replace(fields: Record<string, unknown>): Record<string, unknown> {
    const out: Record<string, unknown> = { ...fields };
    if (typeof out.number === 'string') out.number = this.#number(out.number, out.method);
    if (typeof out.name === 'string') out.name = TEST_NAME;
    if (typeof out.client_ip === 'string') out.client_ip = TEST_IP;
    if (typeof out.client_id === 'string') out.client_id = this.#client(out.client_id);
    return out;
  }

  #number(value: string, method: unknown): string {
    const phone = value.trim().startsWith('+') || (typeof method === 'string' && method.includes('PHONE'));
    return phone ? TEST_PHONE : TEST_CARD;
  }

  #client(value: string): string {
    const plus = value.indexOf('+');
    const base = plus < 0 ? value : value.slice(0, plus);
    const tags = plus < 0 ? '' : value.slice(plus);
    let name = this.#clients.get(base);
    if (name === undefined) {
      name = `client-${this.#clients.size + 1}`;
      this.#clients.set(base, name);
    }
    return `${name}${tags}`;
  }
}
