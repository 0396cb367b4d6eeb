// What the `workspaces.*` controls reach (the host of the server's workspaces, src/emulator/workspaces/host.ts), and
// what the registry keeps of each workspace.
import type { CreatedWorkspace, CreateWorkspaceRequest, WorkspaceInfo } from '../../contract/workspaces.js';
import type { ApiKeyRecord } from '../../store/state.js';

export interface WorkspaceControl {
  create(request: CreateWorkspaceRequest): Promise<CreatedWorkspace>;
  list(): WorkspaceInfo[];
  remove(id: string): Promise<void>;
}

/** The limits a workspace's sandbox enforces. */
export interface WorkspaceLimitValues {
  /** Operations the workspace may hold. */
  operations: number;
  /** Open pool payouts per shop. */
  pool_payouts: number;
}

/** A workspace as the registry keeps it: everything to reopen it, and no secret (hashes only). */
export interface WorkspaceRecord {
  id: string;
  created_at: string;
  /** The fixture JSON it was made from, its api_keys emptied (the workspace's keys are `keys`). */
  world: unknown;
  /** The fixture file it was made from (`server`: the server's own fixtures). */
  fixtures: string;
  clock: 'frozen' | 'real';
  /** Sandbox time at creation (epoch ms): where a clock never moved resumes. */
  start: number;
  /** The admin token's SHA-256 (hex) and last 4 characters. */
  admin: { hash: string; last4: string };
  /** The API keys made at creation, hashed: seeded again by a reset of the workspace. */
  keys: ApiKeyRecord[];
  limits: WorkspaceLimitValues;
}
