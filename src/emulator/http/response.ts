// The answers the hot routes build themselves: a JSON body with its headers as a plain list, handed to the node
// adapter as is (srvx's FastResponse). What h3 would otherwise do with a returned object — allocate a WHATWG Headers,
// merge the headers set on the event into it — costs more than the serialisation of a create's answer.
import type { H3Event } from 'h3';
import { FastResponse } from 'srvx';
import { JSON_TYPE } from './h3-internals.js';

export { JSON_TYPE, resUntouched } from './h3-internals.js';

interface RequestIds {
  /** `x-request-id` of this request (set by the request log before the route runs). */
  requestId?: string;
  /** The route's answer already carries it. */
  requestIdSent?: boolean;
}

/** The request id the request log gave this request, if any. */
export function requestIdOf(event: H3Event): string | undefined {
  return (event.context as RequestIds).requestId;
}

/** Give this request its id (the request log does, before the route runs). */
export function setRequestId(event: H3Event, id: string): void {
  (event.context as RequestIds).requestId = id;
}

/** Whether the route's answer already carries the request id (then nobody needs to look into its headers). */
export function requestIdSent(event: H3Event): boolean {
  return (event.context as RequestIds).requestIdSent === true;
}

/** A plain object or array: what JSON.stringify renders as h3 would (no class instance, stream, Response, string). */
export function isPlainJson(value: unknown): value is object {
  if (typeof value !== 'object' || value === null) return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null || Array.isArray(value);
}

/** `body` as JSON with `status`, the content type and the request id; nothing else touches the event's headers. */
export function jsonAnswer(event: H3Event, body: object, status: number): Response {
  const id = requestIdOf(event);
  const headers: Record<string, string> = { 'content-type': JSON_TYPE };
  if (id !== undefined) {
    headers['x-request-id'] = id;
    (event.context as RequestIds).requestIdSent = true;
  }
  return new FastResponse(JSON.stringify(body), { status, headers });
}
