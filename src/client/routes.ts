// The rows of both endpoint tables as the client sends them: a gateway endpoint by its id (`createPayment`) or a
// sandbox control by its operationId (`sandboxPay`), each with its method, path, credential and response schema.
import type { z } from 'zod';
import { endpoints, type EndpointDef, type EndpointId } from '../contract/endpoints.js';
import { credentialOf, type Credential, type HttpMethod } from '../contract/route.js';
import { PaygateError } from './errors.js';
import { sandboxEndpoints, type SandboxEndpointDef, type SandboxEndpointId, type SandboxEndpointOf } from './sandbox-endpoints.js';

/** Any row of the gateway's endpoint table or of the sandbox's control table. */
export type AnyEndpointId = EndpointId | SandboxEndpointId;

/** The parsed body type of an endpoint's success response, straight from the contract's tables. */
export type ResponseOf<E extends AnyEndpointId> = E extends EndpointId
  ? (typeof endpoints)[E] extends { response: infer S extends z.ZodType }
    ? z.output<S>
    : undefined
  : E extends SandboxEndpointId
    ? z.output<SandboxEndpointOf<E>['response']>
    : never;

/** One row of either table, in one shape. */
export interface ClientRoute {
  method: HttpMethod;
  path: string;
  /** `none`: no credential (health probes); `key`: X-API-Key; `admin`: X-Admin-Token. */
  auth: Credential;
  response: z.ZodType | undefined;
}

/** The row of `id` in the gateway's table or the sandbox's control table. */
export function routeOf(id: AnyEndpointId): ClientRoute {
  if (Object.hasOwn(endpoints, id)) {
    const e: EndpointDef = endpoints[id as EndpointId];
    return { method: e.method, path: e.path, auth: credentialOf(e), response: e.response };
  }
  const s: SandboxEndpointDef | undefined = Object.hasOwn(sandboxEndpoints, id) ? sandboxEndpoints[id as SandboxEndpointId] : undefined;
  if (!s) throw new PaygateError(`unknown endpoint ${JSON.stringify(id)}`);
  return { method: s.method, path: s.path, auth: credentialOf(s), response: s.response };
}

/** Fill `:name` segments of a path template from `params`, URL-encoded; a missing or empty one throws. */
export function fillPath(path: string, params: Record<string, string> | undefined, label: string): string {
  return path.replace(/:([A-Za-z_]+)/g, (_m, name: string) => {
    const value = params?.[name];
    if (typeof value !== 'string' || value === '') throw new PaygateError(`${label}: path parameter "${name}" must be a non-empty string`);
    return encodeURIComponent(value);
  });
}
