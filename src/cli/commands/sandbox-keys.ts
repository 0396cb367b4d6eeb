// `paygate sandbox keys list | issue | revoke`: API keys of every shop (admin token). An issued key's plaintext
// is printed once, by `issue`; every other output shows its last 4 characters only.
import { connect } from '../api.js';
import { UsageError } from '../errors.js';
import { show } from '../output.js';
import { fillRequired } from '../prompts.js';
import { issuedKeyView, keysView, keyView } from '../views.js';

type Opts = Record<string, unknown>;
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

export async function listKeys(opts: Opts): Promise<void> {
  const { client } = connect(opts, { needKey: false, needAdminToken: true });
  await show(opts, 'Listing API keys…', () => client.sandbox.keys.list({ shop_id: str(opts.shop) }), (res) => keysView(res.keys));
}

export async function issueKey(opts: Opts): Promise<void> {
  const { client } = connect(opts, { needKey: false, needAdminToken: true });
  await fillRequired(opts, [{ key: 'shop', flag: '--shop', kind: 'text', message: 'Shop id (e.g. shop_a)' }]);
  const label = str(opts.label);
  const scopes = str(opts.scopes)?.split(',').map((s) => s.trim()).filter((s) => s !== '');
  const unknown = scopes?.filter((s) => s !== 'links' && s !== 'amounts');
  if (unknown && unknown.length > 0) throw new UsageError(`--scopes: unknown scope ${unknown.join(', ')}; use links, amounts or both (links,amounts)`);
  await show(
    opts,
    'Issuing an API key…',
    () => client.sandbox.keys.issue({ shop_id: str(opts.shop)!, ...(label !== undefined ? { label } : {}), ...(scopes ? { scopes: scopes as ('links' | 'amounts')[] } : {}) }),
    issuedKeyView,
  );
}

export async function revokeKey(keyId: string, opts: Opts): Promise<void> {
  const { client } = connect(opts, { needKey: false, needAdminToken: true });
  await show(opts, 'Revoking the API key…', () => client.sandbox.keys.revoke(keyId), keyView);
}
