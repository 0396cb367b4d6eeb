// Types generated from docs/openapi.json (openapi-typescript, as a client generator would) refuse a request carrying
// merchant_id or shop_id: the document forbids them by property name instead of declaring them, so an object literal
// with either fails to compile (TS2353) on every gateway request, while the plain requests compile.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** Each line ending in `// refused` must fail with "Object literal may only specify known properties"; no other may fail. */
const CHECK = `import type { components, operations } from './schema';
type S = components['schemas'];
type Query = operations['paymentAvailability']['parameters']['query'];
const create: S['CreateOperationRequest'] = { merchant_operation_id: 'order-1001', client_id: 'c', method: 'WT_RUB_C2C', currency: 'RUB', amount: '1500.00' };
const a: S['CreateOperationRequest'] = { merchant_operation_id: 'o', client_id: 'c', method: 'm', currency: 'RUB', amount: '1.00', merchant_id: 'm_acme' }; // refused
const b: S['CreateOperationRequest'] = { merchant_operation_id: 'o', client_id: 'c', method: 'm', currency: 'RUB', amount: '1.00', shop_id: 'shop_a' }; // refused
const flexible: S['FlexibleLinkRequest'] = { merchant_operation_id: 'o', client_id: 'c', method: 'm', currency: 'RUB', recommended_amount: '1.00' };
const c: S['FlexibleLinkRequest'] = { merchant_operation_id: 'o', client_id: 'c', method: 'm', currency: 'RUB', recommended_amount: '1.00', shop_id: 'x' }; // refused
const state: S['GetOperationStateRequest'] = { merchant_operation_id: 'order-1001' };
const d: S['GetOperationStateRequest'] = { merchant_operation_id: 'order-1001', merchant_id: 'm_acme' }; // refused
const cancel: S['CancelOperationRequest'] = { operation_id: 'x', reason: 'r' };
const e: S['CancelOperationRequest'] = { operation_id: 'x', reason: 'r', shop_id: 'shop_a' }; // refused
const recommend: S['RecommendationsRequest'] = { method: 'm', currency: 'RUB', amount: '1.00', min_amount: '1.00', max_amount: '2.00' };
const f: S['RecommendationsRequest'] = { method: 'm', currency: 'RUB', amount: '1.00', min_amount: '1.00', max_amount: '2.00', merchant_id: 'x' }; // refused
const confirm: S['ConfirmPaymentRequest'] = { operation_id: 'x', confirmation_type: 'receipt', receipt: 'file' };
const g: S['ConfirmPaymentRequest'] = { operation_id: 'x', confirmation_type: 'receipt', receipt: 'file', merchant_id: 'x' }; // refused
const query: Query = { method: 'm', currency: 'RUB', min_amount: '1.00', max_amount: '2.00' };
const h: Query = { method: 'm', currency: 'RUB', min_amount: '1.00', max_amount: '2.00', shop_id: 'x' }; // refused
export { create, a, b, flexible, c, state, d, cancel, e, recommend, f, confirm, g, query, h };
`;

/** Type-check `files` (in memory, beside the real lib files); the diagnostics as [line, code]. */
function typeCheck(files: Record<string, string>): [number, number][] {
  const options: ts.CompilerOptions = {
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    types: [],
  };
  const host = ts.createCompilerHost(options);
  const path = (f: string) => `/virtual/${f}`;
  const own = new Map(Object.entries(files).map(([f, text]) => [path(f), text]));
  const base = { getSourceFile: host.getSourceFile, fileExists: host.fileExists, readFile: host.readFile };
  host.getSourceFile = (f, v, ...rest) =>
    own.has(f) ? ts.createSourceFile(f, own.get(f)!, v) : base.getSourceFile(f, v, ...rest);
  host.fileExists = (f) => own.has(f) || base.fileExists(f);
  host.readFile = (f) => own.get(f) ?? base.readFile(f);
  const directoryExists = host.directoryExists?.bind(host);
  host.directoryExists = (d) => d === '/virtual' || (directoryExists?.(d) ?? true);
  const program = ts.createProgram([path('check.ts')], options, host);
  return ts
    .getPreEmitDiagnostics(program)
    .map((d) => [d.file ? d.file.getLineAndCharacterOfPosition(d.start ?? 0).line + 1 : 0, d.code]);
}

describe('types generated from docs/openapi.json (openapi-typescript)', () => {
  it('refuse merchant_id and shop_id in every gateway request, and accept the plain requests', async () => {
    const doc = JSON.parse(readFileSync(`${root}docs/openapi.json`, 'utf8'));
    const schema = astToString(await openapiTS(doc));
    expect(schema).not.toMatch(/(merchant_id|shop_id)\??: unknown/);
    const refused = CHECK.split('\n').flatMap((line, i) => (line.endsWith('// refused') ? [[i + 1, 2353]] : []));
    expect(refused).toHaveLength(8);
    expect(typeCheck({ 'schema.ts': schema, 'check.ts': CHECK })).toEqual(refused);
  }, 30_000);
});
