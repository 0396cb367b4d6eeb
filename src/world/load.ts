// Loading a fixture file: read, parse JSON, validate; every failure names the file and the JSON path at fault.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { WorldSchema, type ParsedWorld } from './schema.js';

export class FixtureError extends Error {
  readonly code = 'fixture_invalid';
  constructor(message: string) {
    super(message);
    this.name = 'FixtureError';
  }
}

/** The fixtures shipped with paygate. */
export const DEFAULT_FIXTURES = fileURLToPath(new URL('../../fixtures/default.json', import.meta.url));

function jsonPath(path: readonly PropertyKey[]): string {
  let out = '$';
  for (const p of path) out += typeof p === 'number' ? `[${p}]` : `.${String(p)}`;
  return out;
}

/** Validate an already-parsed world; `source` names it in errors. */
export function parseWorld(data: unknown, source = 'fixtures'): ParsedWorld {
  const r = WorldSchema.safeParse(data);
  if (!r.success) {
    const lines = r.error.issues.slice(0, 10).map((i) => `  ${jsonPath(i.path)}: ${i.message}`);
    const more = r.error.issues.length > 10 ? `\n  … and ${r.error.issues.length - 10} more` : '';
    throw new FixtureError(
      `invalid fixture file ${source}:\n${lines.join('\n')}${more}\nFix the file (see docs/sandbox.md, "The default world") and start again.`,
    );
  }
  return r.data;
}

export function loadWorld(path: string = DEFAULT_FIXTURES): ParsedWorld {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw new FixtureError(`cannot read fixture file ${path}: ${(e as Error).message}`);
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (e) {
    throw new FixtureError(`fixture file ${path} is not valid JSON: ${(e as Error).message}`);
  }
  return parseWorld(data, path);
}
