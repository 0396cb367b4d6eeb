// Workspaces: isolated sandboxes on one server (controls `workspaces.*`, the server's admin token only). Each has its
// own shops, keys, admin token, clock, timers, pool, webhook endpoints and request log, under `<base>/w/<id>`.
import { z } from 'zod';
import { MAX_POOL_SLOTS_PER_SHOP } from './sandbox.js';
import { Timestamp } from './money.js';

/** At most this many workspaces besides the default one (409 workspace_limit beyond). */
export const MAX_WORKSPACES = 64;
/** Operations a workspace may hold unless its `limits.operations` says otherwise (409 workspace_limit beyond). */
export const DEFAULT_WORKSPACE_OPERATIONS = 50_000;
/** The highest `limits.operations` a workspace may ask for. */
export const MAX_WORKSPACE_OPERATIONS = 1_000_000;
/** Ids a workspace cannot take: the server's own workspace and the registry of the others. */
export const RESERVED_WORKSPACE_IDS = ['default', 'registry'] as const;

const WorkspaceId = z
  .string()
  .regex(/^[a-z0-9][a-z0-9_-]{0,63}$/, {
    message: 'must be 1 to 64 lower-case letters, digits, "_" or "-", starting with a letter or digit',
  })
  .refine((s) => !(RESERVED_WORKSPACE_IDS as readonly string[]).includes(s), {
    message: `is reserved (${RESERVED_WORKSPACE_IDS.join(', ')})`,
  });

export const WorkspaceLimits = z
  .object({
    operations: z
      .number()
      .int()
      .min(1)
      .max(MAX_WORKSPACE_OPERATIONS)
      .optional()
      .meta({
        description: `Operations the workspace may hold (creates beyond answer 409 workspace_limit). Default ${DEFAULT_WORKSPACE_OPERATIONS}.`,
      }),
    pool_payouts: z
      .number()
      .int()
      .min(1)
      .max(MAX_POOL_SLOTS_PER_SHOP)
      .optional()
      .meta({
        description: `Open pool payouts per shop (pool layouts beyond answer 409 pool_limit). Default ${MAX_POOL_SLOTS_PER_SHOP}.`,
      }),
  })
  .strict()
  .meta({ id: 'SandboxWorkspaceLimitsRequest' });

export const CreateWorkspaceRequest = z
  .object({
    id: WorkspaceId.optional().meta({
      description: 'The workspace id (its URLs are under /w/<id>). Default: a random one, `ws_…`.',
    }),
    fixtures: z
      .string()
      .regex(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,99}$/, {
        message: 'must be a fixture file name (letters, digits, "_", "-", "."), not a path',
      })
      .optional()
      .meta({
        description:
          "A fixture file of the server's fixtures folder or a bundled one, e.g. `default` or `picker-amount-field.json`. Default: the fixtures the server started with.",
      }),
    clock: z.enum(['frozen', 'real'], { error: 'must be "frozen" or "real"' }).optional().meta({
      description:
        '`frozen`: time stands still until advanced; `real` (the default): it follows real time, like `sandbox start`.',
    }),
    start_time: z.iso
      .datetime({ offset: true, error: 'must be an RFC 3339 timestamp, e.g. "2026-03-01T12:00:00Z"' })
      .optional()
      .meta({ description: 'Sandbox time at the start. Default: now.' }),
    limits: WorkspaceLimits.optional(),
  })
  .strict()
  .meta({ id: 'SandboxCreateWorkspaceRequest' });
export type CreateWorkspaceRequest = z.infer<typeof CreateWorkspaceRequest>;

export const WorkspaceInfo = z
  .object({
    id: z.string(),
    base_url: z.string().meta({
      description: 'The base URL of the workspace: the gateway API, its controls, hosted pages and receipt links.',
    }),
    created_at: Timestamp,
    clock: z.object({ frozen: z.boolean(), now: Timestamp }),
    shops: z.array(z.object({ id: z.string(), name: z.string() })),
    operations: z.number().meta({ description: 'Operations the workspace holds now.' }),
    limits: z.object({ operations: z.number(), pool_payouts: z.number() }),
    admin_token_last4: z.string(),
  })
  .meta({ id: 'SandboxWorkspace' });
export type WorkspaceInfo = z.infer<typeof WorkspaceInfo>;

export const CreatedWorkspace = WorkspaceInfo.extend({
  admin_token: z.string().meta({ description: "The workspace's X-Admin-Token: shown in this answer only." }),
  keys: z
    .record(z.string(), z.string())
    .meta({ description: 'A new API key of each shop, by shop id: shown in this answer only.' }),
}).meta({ id: 'SandboxCreatedWorkspace' });
export type CreatedWorkspace = z.infer<typeof CreatedWorkspace>;

export const WorkspaceList = z.object({ workspaces: z.array(WorkspaceInfo) }).meta({ id: 'SandboxWorkspaceList' });
export const WorkspaceDeleted = z
  .object({ id: z.string(), deleted: z.literal(true) })
  .meta({ id: 'SandboxWorkspaceDeleted' });
