// The sandbox's controls as the client calls them: the contract's table (src/contract/controls.ts), keyed by each
// row's dotted id (`operations.pay`, `clock.advance`, …), the ids of `client.request()` and of the retry policy.
import { sandboxControls, type ControlId, type SandboxControls } from '../contract/controls.js';

/** The dotted id of a control, e.g. `clock.advance`. */
export type SandboxEndpointId = ControlId;

/** The row of the control whose id is `E`. */
export type SandboxEndpointOf<E extends SandboxEndpointId> = SandboxControls[E];

export type { SandboxControlDef as SandboxEndpointDef } from '../contract/controls.js';

export const sandboxEndpoints: SandboxControls = sandboxControls;
