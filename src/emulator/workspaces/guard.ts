// What a workspace's sandbox adds to the write pipeline (src/emulator/runtime/pipeline.ts): at the admit stage, the
// limit on the operations it may hold (checked on the commit that would create one, before anything is written, so
// nothing past it is ever written); as a sandbox part, its own API keys (seeded hashed at every init, so a reset keeps the keys handed out at creation), and its clock
// position (seeded when the store has none, so a restart resumes time where it was even before the first advance).
import type { MetaRecord, SandboxState, StoreChange } from '../../store/state.js';
import { ApiError } from '../http/errors.js';
import type { Admission } from '../runtime/pipeline.js';
import type { SandboxPart } from '../runtime/service.js';
import type { WorkspaceRecord } from './types.js';

export function workspaceLimitError(held: number, limit: number): ApiError {
  return new ApiError(
    'workspace_limit',
    `this workspace holds ${held} operations and its limit is ${limit}: reset it (paygate sandbox reset with its admin token), delete it, or create one with a higher limits.operations`,
  );
}

export class WorkspaceGuard implements Admission, SandboxPart {
  constructor(
    private readonly state: () => SandboxState,
    private readonly clock: () => MetaRecord,
    private readonly record: Pick<WorkspaceRecord, 'keys' | 'limits'>,
  ) {}

  admit(changes: readonly StoreChange[]): void {
    const state = this.state();
    let created = 0;
    for (const c of changes) if (c.kind === 'operation' && !state.operations.has(c.op.id)) created++;
    const limit = this.record.limits.operations;
    if (created > 0 && state.operations.size + created > limit) throw workspaceLimitError(state.operations.size, limit);
  }

  /** Before a pool layout of `count` more payouts: the same limit, counted ahead. */
  checkLayout(count: number): void {
    const state = this.state();
    const limit = this.record.limits.operations;
    if (state.operations.size + count > limit) throw workspaceLimitError(state.operations.size, limit);
  }

  seed(): StoreChange[] {
    const state = this.state();
    const own: StoreChange[] = this.record.keys
      .filter((k) => !state.keys.has(k.id))
      .map((key) => ({ kind: 'key', key }));
    if (!state.meta.has('clock')) own.push({ kind: 'meta', meta: this.clock() });
    return own;
  }

  resume(): void {}

  reset(): void {}
}
