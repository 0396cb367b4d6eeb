// The Postman path, as a new user takes it: docs/openapi.json converted by openapi-to-postmanv2 (the v2 interface its
// CLI uses, parameter generation "Example"), run by newman against a sandbox listening on 127.0.0.1:0 with the
// default fixtures. Covered: every /v1 request and the three probes (13), with the document's own examples — the
// receipt upload with fixtures/receipts/ok-1500.pdf; the sandbox controls (/sandbox) are not run. Every answer is
// 2xx, and every JSON answer validates against the document's response schema (what Prism's proxy would check).
// The run uses shop A's key; the flexible link needs a shop whose payin route is the pool only (spec §4.3: else 412),
// so that one request runs with shop_pool's key.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { endpoints } from '../../src/contract/index.js';
import { useSandbox } from '../helpers/sandbox.js';

const require = createRequire(import.meta.url);
const root = fileURLToPath(new URL('../..', import.meta.url));
const receipt = `${root}fixtures/receipts/ok-1500.pdf`;

interface Item {
  name: string;
  item?: Item[];
  request?: { method: string; url: { path?: string[] }; body?: { formdata?: { type: string; src?: string }[] } };
}
interface Collection {
  info: unknown;
  item: Item[];
}
interface Execution {
  item: { name: string };
  request: { method: string; url: { getPath(): string } };
  response?: { code: number; stream: Buffer; headers: { get(name: string): string | undefined } };
  requestError?: Error;
}

const converter = require('openapi-to-postmanv2') as {
  convertV2(
    input: { type: 'string'; data: string },
    options: Record<string, unknown>,
    cb: (err: Error | null, r: { result: boolean; reason?: string; output: { data: Collection }[] }) => void,
  ): void;
};
const newman = require('newman') as {
  run(
    options: Record<string, unknown>,
    cb: (err: Error | null, summary: { run: { executions: Execution[]; failures: unknown[] } }) => void,
  ): void;
};

const docText = readFileSync(`${root}docs/openapi.json`, 'utf8');
const doc = JSON.parse(docText);

function convert(): Promise<Collection> {
  return new Promise((resolve, reject) =>
    converter.convertV2({ type: 'string', data: docText }, { parametersResolution: 'Example' }, (err, r) =>
      err ? reject(err) : r.result ? resolve(r.output[0]!.data) : reject(new Error(r.reason)),
    ),
  );
}

/** The requests of a collection in order, folders flattened. */
const leaves = (items: Item[]): Item[] => items.flatMap((i) => (i.item ? leaves(i.item) : [i]));
const pathOf = (i: Item) => `/${(i.request!.url.path ?? []).join('/')}`;

function run(collection: Collection, baseUrl: string, apiKey: string): Promise<Execution[]> {
  const envVar = [
    { key: 'baseUrl', value: baseUrl },
    { key: 'apiKey', value: apiKey },
  ];
  return new Promise((resolve, reject) =>
    newman.run({ collection, envVar, reporters: [], timeoutRequest: 10_000 }, (err, summary) =>
      err ? reject(err) : resolve(summary.run.executions),
    ),
  );
}

/** The document's JSON Schema of a 2xx answer, as a zod schema (components as $defs). */
function responseSchema(method: string, path: string, status: number): z.ZodType | undefined {
  const schema =
    doc.paths[path]?.[method.toLowerCase()]?.responses[String(status)]?.content?.['application/json']?.schema;
  if (!schema) return undefined;
  const defs = JSON.parse(JSON.stringify(doc.components.schemas).replaceAll('#/components/schemas/', '#/$defs/'));
  return z.fromJSONSchema({
    $defs: defs,
    ...JSON.parse(JSON.stringify(schema).replaceAll('#/components/schemas/', '#/$defs/')),
  });
}

describe('the Postman collection converted from docs/openapi.json', () => {
  const h = useSandbox({ transport: 'http' });

  it('runs green with newman: every /v1 request and probe answers 2xx, as the document describes', async () => {
    const collection = await convert();
    const requests = leaves(collection.item).filter((i) => !pathOf(i).startsWith('/sandbox'));
    for (const f of requests.flatMap((i) => i.request!.body?.formdata ?? [])) if (f.type === 'file') f.src = receipt;
    const isFlexible = (i: Item) => pathOf(i) === endpoints['payment.flexible_link'].path;
    const executions = [
      ...(await run(
        { info: collection.info, item: requests.filter((i) => !isFlexible(i)) },
        h.baseUrl,
        h.keyOf('shop_a'),
      )),
      ...(await run({ info: collection.info, item: requests.filter(isFlexible) }, h.baseUrl, h.keyOf('shop_pool'))),
    ];
    const answered = executions.map(
      (e) => `${e.request.method} ${e.request.url.getPath()} ${e.response?.code ?? e.requestError?.message}`,
    );
    expect(answered.sort()).toEqual(
      Object.values(endpoints)
        .map((e) => `${e.method} ${e.path} ${'status' in e ? e.status : 200}`)
        .sort(),
    );
    for (const e of executions) {
      const res = e.response!;
      const schema = responseSchema(e.request.method, e.request.url.getPath(), res.code);
      if (!schema) continue;
      const parsed = schema.safeParse(JSON.parse(res.stream.toString('utf8')));
      expect(parsed.error?.issues, `${e.item.name}: ${res.stream.toString('utf8').slice(0, 300)}`).toBeUndefined();
    }
    const confirm = executions.find((e) => e.request.url.getPath() === endpoints['payment.confirm'].path)!;
    expect(JSON.parse(confirm.response!.stream.toString('utf8')).status).toBe('completed');
  }, 30_000);
});
