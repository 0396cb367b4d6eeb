// The rules only `paygate verify` can check, because it knows what it sent on purpose (an unknown key, the header
// name in another case, a request the spec refuses, a request the spec accepts, another shop's key) and so what must
// come back. Part of the catalogue (RULES) like the validator's; the checks are in src/verify/checks/.
import type { RuleInfo } from '../types.js';

export const VERIFY_RULES: readonly RuleInfo[] = [
  {
    id: 'auth.unknown_key',
    kind: 'auth',
    section: '§5',
    title: 'a /v1 request with a key the gateway does not know is answered 401',
  },
  {
    id: 'auth.header_case',
    kind: 'auth',
    section: '§5',
    title: 'the X-API-Key header name is case-insensitive on the wire',
  },
  {
    id: 'response.invalid_request_status',
    kind: 'response',
    section: '§7',
    title:
      'a request §7 names as invalid (bad JSON, a field missing or malformed, an amount of scale 3 or not above 0, a shop_id, both or neither id, a reason over 2048 bytes, bad bounds or limit) is answered 400',
  },
  {
    id: 'response.valid_request_answered',
    kind: 'response',
    section: '§4',
    title: 'a valid request is answered with its success status (200), not an error',
  },
  {
    id: 'isolation.cross_shop',
    kind: 'isolation',
    section: '§5, §4.6, §4.7',
    title: "another shop's key gets 404 for an operation (state by either id, cancel), and the operation is unchanged",
  },
];
