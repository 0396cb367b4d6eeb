// `paygate sandbox keys list | issue | revoke` (flags: define.ts): API keys of every shop (admin
// token). An issued key's plaintext is printed once, by `issue`; every other output shows its last 4 characters.
import type { IssueKeyOptions, ListKeysOptions, RevokeKeyOptions } from './define.js';
import type { CommandDeps } from '../../../deps.js';
import { UsageError } from '../../../errors.js';
import { show } from '../../../output.js';
import { fillRequired } from '../../../prompts.js';
import { issuedKeyView, keysView, keyView } from '../../../views.js';

const ADMIN = { needKey: false, needAdminToken: true } as const;

export async function listKeys(options: ListKeysOptions, deps: CommandDeps): Promise<void> {
  const { client } = await deps.connect(ADMIN);
  await show(
    deps.output,
    options.json,
    'Listing API keys…',
    () => client.sandbox.keys.list({ shop_id: options.shop }),
    (res) => keysView(res.keys),
  );
}

export async function issueKey(options: IssueKeyOptions, deps: CommandDeps): Promise<void> {
  const { client } = await deps.connect(ADMIN);
  const { shop, label } = await fillRequired(
    options,
    [{ key: 'shop', flag: '--shop', kind: 'text', message: 'Shop id (e.g. shop_a)' }],
    deps.interactive,
  );
  const scopes = options.scopes
    ?.split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  const unknown = scopes?.filter((s) => s !== 'links' && s !== 'amounts');
  if (unknown && unknown.length > 0)
    throw new UsageError(`--scopes: unknown scope ${unknown.join(', ')}; use links, amounts or both (links,amounts)`);
  await show(
    deps.output,
    options.json,
    'Issuing an API key…',
    () =>
      client.sandbox.keys.issue({
        shop_id: shop,
        ...(label !== undefined ? { label } : {}),
        ...(scopes ? { scopes: scopes as ('links' | 'amounts')[] } : {}),
      }),
    issuedKeyView,
  );
}

export async function revokeKey({ keyId, json }: RevokeKeyOptions, deps: CommandDeps): Promise<void> {
  const { client } = await deps.connect(ADMIN);
  await show(deps.output, json, 'Revoking the API key…', () => client.sandbox.keys.revoke(keyId), keyView);
}
