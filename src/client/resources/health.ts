// client.health: the unauthenticated probes /livez, /healthz and /readyz (spec §4.11).
import { APIPromise } from '../api-promise.js';
import type { RequestOptions } from '../core.js';
import { PaygateError } from '../errors.js';
import { coreOf, Resource } from './resource.js';

export const HEALTH_PROBES = ['livez', 'healthz', 'readyz'] as const;
export type HealthProbe = (typeof HEALTH_PROBES)[number];

export interface HealthStatus {
  /** True for a 2xx answer (the gateway answers 204 when healthy). */
  ok: boolean;
  /** The HTTP status of the probe. */
  status: number;
}

/** The probes are one method over three rows (`health.livez`, `health.healthz`, `health.readyz`), written by hand. */
export class Health extends Resource {
  /**
   * GET /<probe>, sent without the API key. Resolves for any HTTP answer (503 → `{ ok: false, status: 503 }`,
   * not retried); throws APIConnectionError / APITimeoutError only when no answer arrives (after retries).
   * @param probe Default `readyz`.
   */
  check(probe: HealthProbe = 'readyz', options?: RequestOptions): APIPromise<HealthStatus> {
    if (!HEALTH_PROBES.includes(probe)) {
      return new APIPromise(
        Promise.reject(new PaygateError(`unknown probe ${JSON.stringify(probe)}: use ${HEALTH_PROBES.join(', ')}`)),
      );
    }
    const result = coreOf(this)
      .request(`health.${probe}`, { anyStatus: true }, options)
      .withResponse()
      .then((r) => {
        const status = { ok: r.response.status >= 200 && r.response.status < 300, status: r.response.status };
        return { data: status, response: r.response };
      });
    return new APIPromise(result);
  }
}
