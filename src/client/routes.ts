// The rows of both endpoint tables as the client sends them: a gateway endpoint or a
// sandbox control, each by its dotted id (`payment.create`, `operations.pay`), each with its method, path, credential and response schema.
// `zodContract` is the core's default ContractView (wire.ts), imported on the first request.
import type { z } from 'zod';
import { endpoints, type EndpointDef, type EndpointId } from '../contract/endpoints.js';
import { type EndpointRow } from '../contract/endpoint-row.js';
import { checkResponse } from './contract-check.js';
import { PaygateError } from './errors.js';
import {
  sandboxEndpoints,
  type SandboxEndpointDef,
  type SandboxEndpointId,
  type SandboxEndpointOf,
} from './sandbox-endpoints.js';
import type { ClientRoute, ContractView } from './wire.js';

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

export type { ClientRoute } from './wire.js';

/** The contract's row of `id` in the gateway's table or the sandbox's control table. */
export function rowOf(id: string): EndpointRow {
  if (Object.hasOwn(endpoints, id)) return endpoints[id as EndpointId] satisfies EndpointDef;
  const s: SandboxEndpointDef | undefined = Object.hasOwn(sandboxEndpoints, id)
    ? sandboxEndpoints[id as SandboxEndpointId]
    : undefined;
  if (!s) throw new PaygateError(`unknown endpoint ${JSON.stringify(id)}`);
  return s;
}

/** The row of `id` in the gateway's table or the sandbox's control table. */
export function routeOf(id: string): ClientRoute {
  const row = rowOf(id);
  return { method: row.method, path: row.path, auth: row.auth, response: row.response !== undefined };
}

/** The contract as the zod tables give it: every 2xx body is parsed by the endpoint's response schema. */
export const zodContract: ContractView = {
  routeOf,
  check(id, body, label, status) {
    const schema = rowOf(id).response;
    return schema ? checkResponse(schema, body, label, status) : undefined;
  },
};
