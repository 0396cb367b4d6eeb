// The scenario file format, as zod schemas: a scenario (name, fixtures, clock, variables, steps) and its four kinds
// of step. The `call` steps are derived from the two endpoint tables (vocabulary.ts), so the JSON Schema generated
// from here (json-schema.ts) completes every endpoint id and its request fields in an editor.
import { z } from 'zod';
import { durationSchema } from '../contract/duration-schema.js';
import { VOCABULARY, type Callable } from './vocabulary.js';

/**
 * The descriptions and ids of the scenario format's schemas: a registry of its own, so they stay out of the
 * global one the OpenAPI document is built from.
 */
export const scenarioRegistry = z.registry<z.GlobalMeta>();
const R = scenarioRegistry;

const stepId = (description: string) =>
  z
    .string()
    .regex(/^[A-Za-z_][A-Za-z0-9_-]*$/, {
      message: 'must be a name of letters, digits, _ and - (it is used as steps.<id>)',
    })
    .register(R, { description });
const StepId = stepId('Name of the step; later steps refer to its response as ${{ steps.<id>.<field> }}.');

const FieldPath = z.string().register(R, {
  description: 'A response field, dotted for nested fields and array items: `receipts.0.receipt_url`.',
});

/** What a field must be: a value, or one of the matcher objects. */
export const Matcher = z
  .union([
    z.string(),
    z.number(),
    z.boolean(),
    z.null(),
    z
      .object({ equals: z.unknown() })
      .strict()
      .register(R, { description: 'Deep equality with any JSON value (an object or array too).' }),
    z
      .object({ matches: z.string() })
      .strict()
      .register(R, { description: 'A regular expression the value (as text) must match.' }),
    z
      .object({ absent: z.literal(true) })
      .strict()
      .register(R, { description: 'The field must not be in the response.' }),
    z
      .object({ present: z.literal(true) })
      .strict()
      .register(R, { description: 'The field must be in the response (any value, null included).' }),
    z
      .object({ length: z.number().int().min(0) })
      .strict()
      .register(R, { description: 'An array (or string) of this length.' }),
  ])
  .register(R, { id: 'ScenarioMatcher' });
export type Matcher = z.infer<typeof Matcher>;

const Fields = z.record(FieldPath, Matcher);

const BalanceFigures = z
  .object({ balance: z.string().optional(), reserved: z.string().optional(), current_minus: z.string().optional() })
  .strict();

/** The expectations a step may carry; every one is optional and all given must hold. */
export const Expect = z
  .object({
    status: z.number().int().min(100).max(599).optional().register(R, {
      description: "HTTP status. Default: the endpoint's success status (200, 201 or 204) unless `code` is given.",
    }),
    code: z.string().optional().register(R, { description: "The error body's `code`, e.g. idempotency_conflict." }),
    body: Fields.optional().register(R, {
      description:
        'Response fields: `field: value`, or `{matches}`, `{absent: true}`, `{present: true}`, `{equals}`, `{length}`.',
    }),
    operation_status: z
      .string()
      .optional()
      .register(R, { description: "The operation's status after the step (read with operation.state)." }),
    operation: Fields.optional().register(R, {
      description: 'Fields of the operation after the step, read with operation.state.',
    }),
    balances: z
      .record(z.string(), BalanceFigures)
      .optional()
      .register(R, { description: 'Balance rows after the step, per currency (decimal strings, compared exactly).' }),
    balance_delta: z.record(z.string(), BalanceFigures).optional().register(R, {
      description:
        'How the step moved each balance figure, per currency: "1462.50" grew by that much, "-1040.00" shrank, "0" stayed.',
    }),
    webhooks: z.array(z.string()).optional().register(R, {
      description:
        'Types of the webhook events the step caused, in order (each verified against the endpoint secret); [] for none.',
    }),
  })
  .strict()
  .register(R, { id: 'ScenarioExpect' });
export type Expect = z.infer<typeof Expect>;

const common = {
  id: StepId.optional(),
  name: z.string().optional().register(R, { description: 'What the step does, shown in reports.' }),
  as: z.string().optional().register(R, {
    description: "The shop whose API key the step sends (a shop id of the fixtures). Default: the scenario's `shop`.",
  }),
  expect: Expect.optional(),
  skip: z.string().min(1).optional().register(R, {
    description:
      'Do not run this step: the run reports it as skipped with this reason, never as passed (a recorded exchange the sandbox cannot reproduce).',
  }),
};

function withSchema(c: Callable): z.ZodType {
  const shape: Record<string, z.ZodType> = {};
  for (const [name, f] of Object.entries(c.fields)) {
    const where =
      f.place === 'path'
        ? 'path parameter'
        : f.place === 'query'
          ? 'query parameter'
          : f.place === 'file'
            ? 'file to upload (a path relative to the scenario file, or {file, content_type, filename})'
            : 'field';
    shape[name] = z
      .unknown()
      .optional()
      .register(R, { description: `${where}${f.description ? `: ${f.description}` : ''}` });
  }
  return z
    .object(shape)
    .catchall(z.unknown())
    .register(R, {
      description: `The request of ${c.method} ${c.path}, by the spec's field names; values may use \${{ … }}.`,
    });
}

/** One `call` step schema per endpoint id. */
export function callStepSchema(c: Callable): z.ZodObject {
  return z
    .object({
      call: z.literal(c.id).register(R, { description: `${c.summary} (${c.method} ${c.path})` }),
      with: withSchema(c).optional(),
      key: z
        .string()
        .nullable()
        .optional()
        .register(R, { description: 'Send this X-API-Key instead of the shop\'s (null or "" sends none).' }),
      headers: z.record(z.string(), z.string()).optional().register(R, { description: 'Extra request headers.' }),
      background: z
        .boolean()
        .optional()
        .register(R, { description: 'Send the request and go on at once; an `await` step collects the answer.' }),
      ...common,
    })
    .strict();
}

export const WaitStep = z
  .object({
    wait_for: z
      .object({
        operation: z
          .string()
          .optional()
          .register(R, { description: 'operation_id. Default: the operation of the previous step.' }),
        merchant_operation_id: z.string().optional(),
        status: z
          .union([z.string(), z.array(z.string()).min(1)])
          .register(R, { description: 'The status (or any of the statuses) to wait for.' }),
        timeout: durationSchema().optional().register(R, {
          description: 'Sandbox time on a frozen clock, real time otherwise. Default 1h frozen, 30s real.',
        }),
      })
      .strict(),
    ...common,
  })
  .strict();

export const AwaitStep = z
  .object({ await: stepId('The id of a `background: true` step whose answer to wait for and check.'), ...common })
  .strict();

export const ReceiverStep = z
  .object({
    receiver: z
      .union([z.enum(['up', 'down']), z.object({ status: z.number().int().min(100).max(599) }).strict()])
      .register(R, {
        description: "The scenario's webhook receiver answers 204 (up), 503 (down) or the given status from now on.",
      }),
    ...common,
  })
  .strict();

/** A step that only says why a recorded exchange is not replayed (no endpoint to call): always reported as skipped. */
export const SkipStep = z.object({ ...common, skip: z.string().min(1) }).strict();

/** The kinds of step, told apart by their one distinguishing key. */
export const STEP_KINDS = ['call', 'wait_for', 'await', 'receiver'] as const;
export type StepKind = (typeof STEP_KINDS)[number];

export const CALL_STEPS: ReadonlyMap<string, z.ZodObject> = new Map(
  [...VOCABULARY.values()].map((c) => [c.id, callStepSchema(c)]),
);

/** Every step kind as one schema (for the JSON Schema; validation picks the kind first, see load.ts). */
export const Step = z
  .union([...CALL_STEPS.values(), WaitStep, AwaitStep, ReceiverStep, SkipStep])
  .register(R, { id: 'ScenarioStep' });

export interface CallStep {
  kind: 'call';
  call: string;
  with?: Record<string, unknown>;
  key?: string | null;
  headers?: Record<string, string>;
  background?: boolean;
}
type Common = { id?: string; name?: string; as?: string; expect?: Expect; skip?: string; line?: number };
export type ScenarioStep = Common &
  (
    | CallStep
    | { kind: 'wait_for'; wait_for: z.infer<typeof WaitStep>['wait_for'] }
    | { kind: 'await'; await: string }
    | { kind: 'receiver'; receiver: z.infer<typeof ReceiverStep>['receiver'] }
    | { kind: 'skip'; skip: string }
  );

export const ScenarioHead = z
  .object({
    $schema: z.string().optional(),
    name: z
      .string()
      .min(1, { message: 'must not be empty' })
      .register(R, { description: 'What the scenario shows, one line.' }),
    description: z.string().optional(),
    tags: z.array(z.string()).optional(),
    fixtures: z.string().optional().register(R, {
      description:
        '`default` (the bundled world) or a fixture file path relative to the scenario file. Default: default.',
    }),
    clock: z
      .enum(['frozen', 'real'])
      .optional()
      .register(R, { description: 'The sandbox clock of an in-process run. Default frozen.' }),
    start_time: z.iso
      .datetime({ offset: true })
      .optional()
      .register(R, { description: 'Sandbox time at the start (frozen clock). Default 2026-03-01T12:00:00Z.' }),
    shop: z.string().optional().register(R, {
      description: 'The shop whose API key steps send unless they say `as:`. Default: the first shop of the fixtures.',
    }),
    variables: z.record(z.string(), z.unknown()).optional().register(R, {
      description: 'Values used as ${{ vars.<name> }}; evaluated in order, so they may use ${{ unique.<name> }}.',
    }),
    steps: z.array(z.unknown()).min(1, { message: 'a scenario needs at least one step' }),
  })
  .strict();

/** The whole file, for the JSON Schema. */
export const ScenarioFileSchema = ScenarioHead.extend({ steps: z.array(Step).min(1) }).register(R, {
  id: 'PaygateScenario',
  title: 'paygate scenario',
  description: 'A scripted story against the paygate sandbox (docs/scenarios.md).',
});

export interface Scenario {
  name: string;
  description?: string | undefined;
  tags: string[];
  fixtures: string;
  clock: 'frozen' | 'real';
  startTime: string;
  shop?: string | undefined;
  variables: Record<string, unknown>;
  steps: ScenarioStep[];
  /** The file it came from (absent for a scenario built in code). */
  file?: string | undefined;
}

export const DEFAULT_START_TIME = '2026-03-01T12:00:00.000Z';
