// Reading scenario files: YAML (JSON is a subset) parsed with `yaml`, validated with the zod schemas of format.ts
// and checked for references that cannot resolve; every problem carries its file, line and column.
import { readFile } from 'node:fs/promises';
import { isMap, isScalar, isSeq, LineCounter, parseDocument, type Document, type Node } from 'yaml';
import type { z } from 'zod';
import { ScenarioFileError, type FileIssue } from './errors.js';
import {
  AwaitStep,
  CALL_STEPS,
  DEFAULT_START_TIME,
  ReceiverStep,
  ScenarioHead,
  SkipStep,
  STEP_KINDS,
  WaitStep,
  type Scenario,
  type ScenarioStep,
} from './format.js';
import { checkReferences, checkStatuses } from './static-checks.js';
import { suggest } from './vocabulary.js';

type Path = (string | number)[];

/** Where a path of the parsed document is in the text: the deepest node that exists, 1-based. */
function locate(
  doc: Document | undefined,
  lc: LineCounter,
  path: Path,
  keyOf = false,
): { line: number; column: number } {
  let node: unknown = doc?.contents;
  let at: Node | undefined = node as Node | undefined;
  for (const [i, seg] of path.entries()) {
    if (isMap(node)) {
      const pair = node.items.find((p) => (isScalar(p.key) ? p.key.value : p.key) === seg);
      if (!pair) break;
      const last = i === path.length - 1;
      at = (last && keyOf ? pair.key : (pair.value ?? pair.key)) as Node;
      node = pair.value;
    } else if (isSeq(node) && typeof seg === 'number' && node.items[seg]) {
      node = node.items[seg];
      at = node as Node;
    } else break;
  }
  const offset = at?.range?.[0] ?? 0;
  const pos = lc.linePos(offset);
  return { line: pos.line, column: pos.col };
}

function pathText(path: Path): string {
  return path.map((p, i) => (typeof p === 'number' ? `[${p}]` : i === 0 ? p : `.${p}`)).join('') || '(top level)';
}

class IssueList {
  readonly list: FileIssue[] = [];
  constructor(
    private readonly doc: Document | undefined,
    private readonly lc: LineCounter,
  ) {}
  add(path: Path, message: string, keyOf = false): void {
    this.list.push({ ...locate(this.doc, this.lc, path, keyOf), path: pathText(path), message });
  }
  zod(prefix: Path, error: z.ZodError): void {
    for (const issue of error.issues) {
      const path = [...prefix, ...(issue.path as Path)];
      if (issue.code === 'unrecognized_keys') {
        for (const k of issue.keys) this.add([...path, k], `unknown field "${k}"`, true);
      } else this.add(path, issue.message);
    }
  }
}

/** Validate one step; the step's kind is told by its distinguishing key. */
function readStep(raw: unknown, i: number, issues: IssueList): Omit<ScenarioStep, 'line'> | undefined {
  const at: Path = ['steps', i];
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    issues.add(at, 'a step is a mapping with one of call, wait_for, await or receiver');
    return undefined;
  }
  const kinds = STEP_KINDS.filter((k) => Object.hasOwn(raw, k));
  if (kinds.length === 0 && Object.hasOwn(raw, 'skip')) {
    const parsed = SkipStep.safeParse(raw);
    if (parsed.success) return { kind: 'skip', ...parsed.data } as Omit<ScenarioStep, 'line'>;
    issues.zod(at, parsed.error);
    return undefined;
  }
  if (kinds.length !== 1) {
    issues.add(
      at,
      kinds.length === 0
        ? 'a step needs one of call, wait_for, await or receiver'
        : `a step has one of ${kinds.join(', ')}, not several`,
    );
    return undefined;
  }
  const kind = kinds[0]!;
  let schema: z.ZodType | undefined;
  if (kind === 'call') {
    const id = (raw as { call: unknown }).call;
    schema = typeof id === 'string' ? CALL_STEPS.get(id) : undefined;
    if (!schema) {
      const hint = typeof id === 'string' ? suggest(id) : [];
      issues.add(
        [...at, 'call'],
        `unknown endpoint id ${JSON.stringify(id)}${hint.length ? ` (did you mean ${hint.join(', ')}?)` : ''}; ids are listed in docs/scenarios.md`,
      );
      return undefined;
    }
  } else schema = kind === 'wait_for' ? WaitStep : kind === 'await' ? AwaitStep : ReceiverStep;
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    issues.zod(at, parsed.error);
    return undefined;
  }
  return { kind, ...(parsed.data as object) } as Omit<ScenarioStep, 'line'>;
}

/** Parse and validate a scenario's text. Throws ScenarioFileError listing every problem found. */
export function parseScenario(text: string, file = '<scenario>'): Scenario {
  const lc = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lc, prettyErrors: false, uniqueKeys: true });
  const issues = new IssueList(doc, lc);
  if (doc.errors.length > 0) {
    // The first syntax error is the one to fix; the rest usually follow from it.
    for (const e of doc.errors.slice(0, 1)) {
      const pos = lc.linePos(e.pos[0]);
      issues.list.push({ line: pos.line, column: pos.col, path: '', message: e.message.split('\n')[0]! });
    }
    throw new ScenarioFileError(file, issues.list);
  }
  return fromParsed(
    doc.toJS({ maxAliasCount: 100 }) as unknown,
    file,
    issues,
    (i) => locate(doc, lc, ['steps', i]).line,
  );
}

/** Validate a scenario given as an object (from code); issue positions are then paths only. */
export function scenarioFromObject(value: unknown, file = '<object>'): Scenario {
  return fromParsed(value, file, new IssueList(undefined, new LineCounter()), () => undefined);
}

function fromParsed(
  value: unknown,
  file: string,
  issues: IssueList,
  lineOf: (i: number) => number | undefined,
): Scenario {
  const head = ScenarioHead.safeParse(value);
  if (!head.success) {
    issues.zod([], head.error);
    throw new ScenarioFileError(file, issues.list);
  }
  const h = head.data;
  const steps: ScenarioStep[] = [];
  h.steps.forEach((raw, i) => {
    const step = readStep(raw, i, issues);
    const line = lineOf(i);
    if (step) steps.push({ ...step, ...(line !== undefined ? { line } : {}) } as ScenarioStep);
  });
  const scenario: Scenario = {
    name: h.name,
    description: h.description,
    tags: h.tags ?? [],
    fixtures: h.fixtures ?? 'default',
    clock: h.clock ?? 'frozen',
    startTime: h.start_time ?? DEFAULT_START_TIME,
    shop: h.shop,
    variables: h.variables ?? {},
    steps,
    file: file.startsWith('<') ? undefined : file,
  };
  if (issues.list.length === 0)
    for (const p of [...checkReferences(scenario), ...checkStatuses(scenario)]) issues.add(p.path, p.message);
  if (issues.list.length > 0) throw new ScenarioFileError(file, issues.list);
  return scenario;
}

/** Read and validate a scenario file. */
export async function loadScenarioFile(path: string): Promise<Scenario> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (e) {
    throw new ScenarioFileError(path, [
      { line: 1, column: 1, path: '', message: `cannot read the file: ${(e as Error).message}` },
    ]);
  }
  return parseScenario(text, path);
}
