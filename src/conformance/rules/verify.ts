// The rules of `paygate verify` that the validator does not check on every exchange (owned by the verify command).
import type { RuleInfo } from '../types.js';

export const VERIFY_RULES: readonly RuleInfo[] = [];
