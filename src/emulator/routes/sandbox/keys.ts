// API keys of every shop (admin): list, issue (the plaintext is in the answer only; its SHA-256 hash is kept) and
// revoke (revoking twice answers the same).
import { randomBytes } from 'node:crypto';
import type { KeyInfo } from '../../../contract/sandbox.js';
import type { ApiKeyRecord } from '../../../store/state.js';
import { ApiError } from '../../http/errors.js';
import { echo } from '../../../contract/echo.js';
import { hashApiKey } from '../../runtime/service.js';
import type { ControlHandler } from '../types.js';

function keyInfo(k: ApiKeyRecord): KeyInfo {
  return {
    id: k.id,
    shop_id: k.shop_id,
    last4: k.last4,
    revoked: k.revoked,
    ...(k.label ? { label: k.label } : {}),
    ...(k.scopes ? { scopes: k.scopes } : {}),
    created_at: k.created_at,
    ...(k.revoked_at ? { revoked_at: k.revoked_at } : {}),
  };
}

export const list: ControlHandler<'keys.list'> = (call) => {
  const shop = call.event.url.searchParams.get('shop_id');
  return { keys: [...call.ctx.service.state.keys.values()].filter((k) => !shop || k.shop_id === shop).map(keyInfo) };
};

export const issue: ControlHandler<'keys.issue'> = async (call) => {
  const { service } = call.ctx;
  const body = await call.body();
  if (!service.world.shops.has(body.shop_id))
    throw new ApiError(
      'shop_not_found',
      `no shop ${echo(body.shop_id)}; see the shops printed by paygate sandbox start`,
    );
  const token = `pg_test_${randomBytes(18).toString('base64url')}`;
  const key: ApiKeyRecord = {
    id: `key_${randomBytes(6).toString('hex')}`,
    shop_id: body.shop_id,
    hash: hashApiKey(token),
    last4: token.slice(-4),
    revoked: false,
    created_at: new Date(service.clock.now()).toISOString(),
    ...(body.label ? { label: body.label } : {}),
    ...(body.scopes ? { scopes: [...new Set(body.scopes)] } : {}),
  };
  await service.commit([{ kind: 'key', key }]);
  return { ...keyInfo(key), api_key: token };
};

export const revoke: ControlHandler<'keys.revoke'> = async (call) => {
  const { service } = call.ctx;
  const id = call.param('id');
  const key = service.state.keys.get(id);
  if (!key) throw new ApiError('key_not_found', `no key ${echo(id)}; list them with paygate sandbox keys list`);
  if (key.revoked) return keyInfo(key);
  const revoked = { ...key, revoked: true, revoked_at: new Date(service.clock.now()).toISOString() };
  await service.commit([{ kind: 'key', key: revoked }]);
  return keyInfo(revoked);
};
