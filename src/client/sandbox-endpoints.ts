// The sandbox's controls as the client calls them: the contract's table (src/contract/controls.ts) keyed by each
// row's operationId (`sandboxPay`, `sandboxAdvanceClock`, …), the ids of `client.request()` and of the retry policy.
import { sandboxControls, type SandboxControls } from '../contract/controls.js';

type ControlRow = SandboxControls[keyof SandboxControls];

/** The operationId of a control, e.g. `sandboxAdvanceClock`. */
export type SandboxEndpointId = ControlRow['operationId'];

/** The row of the control whose operationId is `E`. */
export type SandboxEndpointOf<E extends SandboxEndpointId> = Extract<ControlRow, { operationId: E }>;

export type { SandboxControlDef as SandboxEndpointDef } from '../contract/controls.js';

export const sandboxEndpoints = Object.fromEntries(Object.values(sandboxControls).map((row) => [row.operationId, row])) as {
  readonly [E in SandboxEndpointId]: SandboxEndpointOf<E>;
};
