// The layer rule for every folder of src/: a file imports only from its own folder and from folders of a lower
// layer. The order is the table in docs/architecture.md ("## Layers"), so the page and the check cannot drift.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = new URL('../../', import.meta.url).pathname;
const SRC = join(ROOT, 'src');

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? files(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

/** `| 2 | \`src/store\` | … |` rows of the "## Layers" table: folder → layer number. */
export function layersOf(markdown: string): Map<string, number> {
  const section = markdown.split(/^## /m).find((s) => s.startsWith('Layers\n')) ?? '';
  const layers = new Map<string, number>();
  for (const m of section.matchAll(/^\|\s*(\d+)\s*\|\s*`src\/([\w-]+)`\s*\|/gm)) layers.set(m[2]!, Number(m[1]));
  return layers;
}

/** The top-level folder of src/ a file lives in, or undefined for a file directly in src/ (the package entry). */
function folderOf(file: string): string | undefined {
  const parts = relative(SRC, file).split('/');
  return parts.length > 1 && !parts[0]!.startsWith('..') ? parts[0] : undefined;
}

/** Every relative import (static, type-only, re-export, dynamic) that reaches a folder of a layer not below its own. */
export function upwardImports(file: string, text: string, layers: Map<string, number>): string[] {
  const from = folderOf(file);
  if (from === undefined) return [];
  const own = layers.get(from);
  return ts
    .preProcessFile(text, true, true)
    .importedFiles.map((i) => i.fileName)
    .filter((spec) => spec.startsWith('.'))
    .flatMap((spec) => {
      const target = resolve(dirname(file), spec);
      const to = relative(SRC, target).startsWith('..') ? undefined : (folderOf(target) ?? '(src/index.ts)');
      if (to === undefined || to === from) return [];
      const theirs = layers.get(to);
      return own !== undefined && theirs !== undefined && theirs < own
        ? []
        : [`${relative(ROOT, file)} → ${spec} (${from} ${own ?? '?'} imports ${to} ${theirs ?? '?'})`];
    });
}

const layers = layersOf(readFileSync(join(ROOT, 'docs/architecture.md'), 'utf8'));

describe('layers', () => {
  it('docs/architecture.md gives every folder of src/ a layer, and names no folder that is gone', () => {
    const folders = readdirSync(SRC, { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => e.name)
      .sort();
    expect([...layers.keys()].sort()).toEqual(folders);
  });

  it('no file in src/ imports a folder of its own layer or of one above it', () => {
    const bad = files(SRC).flatMap((f) => upwardImports(f, readFileSync(f, 'utf8'), layers));
    expect(bad).toEqual([]);
  });

  it('the check sees an upward import of every kind (static, type-only, re-export, dynamic)', () => {
    const file = join(SRC, 'domain/x.ts');
    const text = [
      "import { a } from '../store/state.js';",
      "import type { B } from '../emulator/app.js';",
      "export { c } from '../cli/main.js';",
      "const d = await import('../client/index.js');",
      "import { e } from './money.js';",
      "import { f } from '../contract/index.js';",
    ].join('\n');
    expect(upwardImports(file, text, layers)).toHaveLength(4);
    expect(upwardImports(join(SRC, 'client/y.ts'), "import { s } from '../emulator/sandbox.js';", layers)).toHaveLength(
      1,
    );
  });
});
