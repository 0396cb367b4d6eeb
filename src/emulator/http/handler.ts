// One request as a route handler sees it: the authenticated shop, the path parameters, and the body and query
// validated with the schemas of the route's row in the contract.
import type { H3Event } from 'h3';
import type { z } from 'zod';
import type { EndpointRow } from '../../contract/endpoint-row.js';
import type { RouteContext } from '../context.js';
import { parseWith, readJson } from './body.js';

type OutputOf<S> = S extends z.ZodType ? z.output<S> : never;

export class Call<R extends EndpointRow = EndpointRow> {
  constructor(
    readonly event: H3Event,
    readonly ctx: RouteContext,
    readonly row: R,
    /** The shop of the X-API-Key; '' on admin and open routes. */
    readonly shopId: string,
  ) {}

  /** A path parameter as sent; '' when absent. */
  param(name: string): string {
    return this.event.context.params?.[name] ?? '';
  }

  /** The JSON body, validated with the row's body schema. */
  body(): Promise<OutputOf<R['body']>> {
    return readJson(this.event, this.row.body as z.ZodType) as Promise<OutputOf<R['body']>>;
  }

  /** The query string, validated with the row's query schema. */
  query(): OutputOf<R['query']> {
    return parseWith(this.row.query as z.ZodType, Object.fromEntries(this.event.url.searchParams), 'query') as OutputOf<
      R['query']
    >;
  }
}

/** The handler of one row of an endpoint table: its result is the success body. */
export type RouteHandler<R extends EndpointRow> = (call: Call<R>) => unknown;
