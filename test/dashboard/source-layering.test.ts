// The dashboard's layering (review of issue 28): the emulator's dashboard asks its data source what it has (its
// words, sections, panels, controls, violations), never which one it is; the proxy's sections and tables live with
// the proxy (src/proxy/dashboard.ts); the dashboard's path is defined once.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const DASH = 'src/emulator/dashboard';
const sources = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );

describe('the dashboard’s data source', () => {
  it('is asked what it has, not which it is: no proxy branch or proxy table in the emulator’s dashboard', () => {
    for (const file of sources(DASH)) {
      const text = readFileSync(file, 'utf8');
      expect(text, file).not.toMatch(/kind\s*===?\s*'proxy'|\bPROXY_[A-Z_]+\b/);
    }
  });

  it('defines the dashboard’s path once (src/emulator/dashboard/url.ts)', () => {
    const defining = sources('src').filter((f) => /export const DASHBOARD_PATH\b/.test(readFileSync(f, 'utf8')));
    expect(defining).toEqual([join(DASH, 'url.ts')]);
  });

  it('the proxy’s model keeps its rows’ cache on itself, not in module-level state', () => {
    const text = readFileSync('src/proxy/support-model.ts', 'utf8');
    expect(text).not.toMatch(/^const \w+ = new WeakMap/m);
  });
});
