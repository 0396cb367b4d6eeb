// The README a newcomer reads: at most 300 lines, and every relative link in it and in docs/*.md
// resolves — the file (or folder) exists and a `#anchor` is a heading of the target, slugged as GitHub does.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = new URL('../../', import.meta.url).pathname;

/** The text outside fenced code blocks and inline code spans, where a link is a link. */
function prose(text: string): string {
  return text.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '').replace(/`[^`\n]*`/g, '');
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to `-`; repeats get `-1`, `-2`, …. */
export function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/<[^>]+>/g, '')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** Every anchor a Markdown file offers. */
export function anchorsOf(text: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  const noFences = text.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '');
  for (const m of noFences.matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const base = slug(m[1]!);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

/** Relative link targets of a Markdown file: `[text](target)` and `<img src="target">`, web addresses left out. */
export function linksIn(text: string): string[] {
  const body = prose(text);
  const md = [...body.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((m) => m[1]!);
  const img = [...body.matchAll(/<img[^>]*\ssrc="([^"]+)"/g)].map((m) => m[1]!);
  return [...md, ...img].filter((t) => !/^[a-z][a-z0-9+.-]*:/i.test(t));
}

const files = [
  join(ROOT, 'README.md'),
  ...readdirSync(join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => join(ROOT, 'docs', f)),
];

describe('the README', () => {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');

  it('is at most 300 lines', () => {
    expect(readme.split('\n').length).toBeLessThanOrEqual(300);
  });

  it('names the two commands, and links the reference pages of docs/', () => {
    expect(readme).toContain('npm start');
    expect(readme).toContain('npm test');
    for (const page of [
      'controls',
      'magic-values',
      'decisions',
      'cli',
      'webhooks',
      'scenarios',
      'store',
      'limits',
      'exit-codes',
      'performance',
    ])
      expect(readme, page).toContain(`(docs/${page}.md`);
  });
});

describe('links in the README and docs/*.md', () => {
  it('the slug and link extraction behave as GitHub does', () => {
    expect(slug('The default world (`fixtures/default.json`)')).toBe('the-default-world-fixturesdefaultjson');
    expect(slug('Decisions where the spec says "not shown"')).toBe('decisions-where-the-spec-says-not-shown');
    expect([...anchorsOf('# A\n```\n# not\n```\n## A\n')]).toEqual(['a', 'a-1']);
    expect(linksIn('[a](b.md#c) `[x](y.md)` [w](https://e.test) <img src="p.png" alt="">')).toEqual([
      'b.md#c',
      'p.png',
    ]);
  });

  it('every relative link resolves: the file exists, and its #anchor is a heading there', () => {
    const broken: string[] = [];
    for (const file of files) {
      const text = readFileSync(file, 'utf8');
      for (const link of linksIn(text)) {
        const [path, anchor] = link.split('#') as [string, string | undefined];
        const target = path === '' ? file : join(dirname(file), decodeURI(path));
        const where = `${relative(ROOT, file)}: ${link}`;
        if (!existsSync(target)) {
          broken.push(`${where} (no such file)`);
          continue;
        }
        if (
          anchor &&
          target.endsWith('.md') &&
          statSync(target).isFile() &&
          !anchorsOf(readFileSync(target, 'utf8')).has(anchor)
        )
          broken.push(`${where} (no such heading)`);
      }
    }
    expect(broken).toEqual([]);
  });
});
