// The committed docs/openapi.json is exactly what the contract generates (no drift), and it is valid OpenAPI 3.1.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { buildOpenApiDocument, endpoints } from '../../src/contract/index.js';

const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };

describe('OpenAPI document', () => {
  const doc = buildOpenApiDocument(pkg.version) as {
    openapi: string;
    paths: Record<string, Record<string, { operationId: string; responses: Record<string, unknown> }>>;
    components: { schemas: Record<string, unknown> };
  };

  it('matches the committed docs/openapi.json (run `npm run openapi` after changing the contract)', () => {
    const committed = JSON.parse(readFileSync(new URL('../../docs/openapi.json', import.meta.url), 'utf8'));
    expect(committed).toEqual(doc);
  });

  it('covers every endpoint of the spec, with error responses', () => {
    expect(doc.openapi).toBe('3.1.0');
    for (const e of Object.values(endpoints)) {
      const op = doc.paths[e.path]?.[e.method.toLowerCase()];
      expect(op?.operationId, e.path).toBe(e.id);
      for (const s of e.errors) expect(op?.responses[String(s)], `${e.path} ${s}`).toBeDefined();
    }
    expect(Object.keys(doc.paths)).toHaveLength(13);
  });

  it('resolves every $ref to a component schema', () => {
    const refs = JSON.stringify(doc).match(/"#\/components\/schemas\/[^"]+"/g) ?? [];
    expect(refs.length).toBeGreaterThan(10);
    for (const r of refs) expect(doc.components.schemas).toHaveProperty(r.slice(22, -1));
  });
});
