// The state of one scenario run: variables, unique values, every finished step's answer (for `${{ steps.… }}`),
// the operations seen so far (the "current" one a later expectation or wait_for reads), and background requests.
import { createHash, randomBytes } from 'node:crypto';
import { dirname } from 'node:path';
import type { Answer, SentRequest } from './http.js';
import type { Scenario, ScenarioStep } from './format.js';
import { needsWebhooks, type Target } from './target.js';
import { interpolate, TemplateError, getPath, type Reference } from './template.js';

export interface Pending {
  step: ScenarioStep & { kind: 'call' };
  sent: SentRequest;
  answer: Promise<Answer>;
  startedAt: number;
  webhookMark: number;
  balancesBefore?: Map<string, Record<string, string>> | undefined;
}

export interface OperationRef {
  operation_id?: string | undefined;
  merchant_operation_id?: string | undefined;
  shop: string;
}

export interface ContextOptions {
  /** Seed of the unique values (same seed, same values). Default: random. */
  seed?: number | undefined;
  /** Index of the scenario in the run, mixed into seeded unique values. */
  index?: number | undefined;
}

export class RunContext {
  readonly vars: Record<string, unknown> = {};
  readonly answers = new Map<string, Answer>();
  readonly pending = new Map<string, Pending>();
  /** operation_ids seen in any answer (remote targets: which webhook events belong to this scenario). */
  readonly operations = new Set<string>();
  last: OperationRef | undefined;
  readonly baseDir: string;
  /** Whether the webhook receiver is on for this scenario. */
  readonly hooks: boolean;
  readonly #runId: string;

  constructor(
    readonly scenario: Scenario,
    readonly target: Target,
    opts: ContextOptions = {},
  ) {
    this.baseDir = scenario.file ? dirname(scenario.file) : process.cwd();
    this.hooks = needsWebhooks(scenario);
    this.#runId =
      opts.seed === undefined
        ? randomBytes(5).toString('hex')
        : createHash('sha256')
            .update(`${opts.seed}\0${scenario.file ?? ''}\0${scenario.name}\0${opts.index ?? 0}`)
            .digest('hex')
            .slice(0, 10);
    for (const [name, value] of Object.entries(scenario.variables)) this.vars[name] = this.resolve(value);
  }

  readonly #lookup = (ref: Reference): unknown => {
    const [head, ...rest] = ref.path;
    if (ref.root === 'unique') return `${ref.path.join('-')}-${this.#runId}`;
    if (ref.root === 'vars') {
      if (!Object.hasOwn(this.vars, head!)) throw new TemplateError(`\${{ ${ref.source} }}: no variable "${head}"`);
      return this.#dig(this.vars[head!], rest, ref);
    }
    const answer = this.answers.get(head!);
    if (!answer) {
      const why = this.pending.has(head!) ? 'is still running in the background (await it first)' : 'has not run';
      throw new TemplateError(`\${{ ${ref.source} }}: step "${head}" ${why}`);
    }
    if (rest[0] === '$status') return answer.status;
    return this.#dig(answer.body, rest, ref);
  };

  #dig(root: unknown, path: string[], ref: Reference): unknown {
    const { found, value } = getPath(root, path);
    if (!found)
      throw new TemplateError(
        `\${{ ${ref.source} }}: no field "${path.join('.')}" in ${JSON.stringify(root)?.slice(0, 200)}`,
      );
    return value;
  }

  /** Interpolate every `${{ … }}` in a value. */
  resolve<T>(value: T): T {
    return interpolate(value, this.#lookup) as T;
  }

  /** The shop a step acts as. */
  shopOf(step: ScenarioStep): string {
    return step.as ?? this.target.defaultShop;
  }

  /** Remember a step's answer and the operation it is about. */
  record(step: ScenarioStep, fields: Record<string, unknown>, answer: Answer, id = step.id): void {
    if (id) this.answers.set(id, answer);
    const body = answer.body as { operation_id?: unknown; operation?: { operation_id?: unknown } } | undefined;
    const fromBody =
      typeof body?.operation_id === 'string'
        ? body.operation_id
        : typeof body?.operation?.operation_id === 'string'
          ? body.operation.operation_id
          : undefined;
    if (fromBody) this.operations.add(fromBody);
    const fromRequest = typeof fields.operation_id === 'string' ? fields.operation_id : undefined;
    const moid = typeof fields.merchant_operation_id === 'string' ? fields.merchant_operation_id : undefined;
    if (fromBody) {
      this.last = { operation_id: fromBody, merchant_operation_id: moid, shop: this.shopOf(step) };
    } else if (fromRequest || moid) {
      this.last = { operation_id: fromRequest, merchant_operation_id: moid, shop: this.shopOf(step) };
    }
  }
}
