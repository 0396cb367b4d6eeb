// The committed docs/openapi.json is exactly what the contract generates (no drift), and it is valid OpenAPI 3.1.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { buildOpenApiDocument, credentialOf, endpoints, sandboxControls } from '../../src/contract/index.js';

const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };

describe('OpenAPI document', () => {
  const doc = buildOpenApiDocument(pkg.version) as {
    openapi: string;
    paths: Record<string, Record<string, { operationId: string; 'x-paygate-id': string; tags: string[]; security: unknown[]; responses: Record<string, unknown> }>>;
    components: { schemas: Record<string, unknown>; securitySchemes: Record<string, { name: string }> };
  };

  it('matches the committed docs/openapi.json (run `npm run docs` after changing the contract)', () => {
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
    expect(Object.keys(doc.paths).filter((p) => !p.startsWith('/sandbox/'))).toHaveLength(13);
  });

  it('lists every sandbox control under the sandbox tag, with its credential, dotted id and success status', () => {
    expect(doc.components.securitySchemes.AdminToken?.name).toBe('X-Admin-Token');
    for (const c of Object.values(sandboxControls)) {
      const op = doc.paths[c.path.replace(/:([a-z_]+)/g, '{$1}')]?.[c.method.toLowerCase()];
      expect(op?.operationId, c.id).toBe(c.operationId);
      expect(op?.['x-paygate-id']).toBe(c.id);
      expect(op?.tags).toEqual(['sandbox']);
      const security = { admin: [{ AdminToken: [] }], key: [{ ApiKey: [] }], support: [{ AdminToken: [] }, { ApiKey: [] }] } as Record<string, unknown>;
      expect(op?.security).toEqual(security[credentialOf(c)]);
      expect(op?.responses[String('status' in c ? c.status : 200)], c.id).toBeDefined();
      for (const s of c.errors) expect(op?.responses[String(s)], `${c.id} ${s}`).toBeDefined();
    }
    for (const e of Object.values(endpoints)) expect(doc.paths[e.path]?.[e.method.toLowerCase()]?.tags).toEqual(['gateway']);
  });

  it('resolves every $ref to a component schema', () => {
    const refs = JSON.stringify(doc).match(/"#\/components\/schemas\/[^"]+"/g) ?? [];
    expect(refs.length).toBeGreaterThan(10);
    for (const r of refs) expect(doc.components.schemas).toHaveProperty(r.slice(22, -1));
  });
});
