// The sandbox control API under /sandbox: payer, provider and reviewer actions on one shop's operations
// (X-API-Key), and clock, evidence, key and reset controls across shops (X-Admin-Token).
import { randomBytes } from 'node:crypto';
import type { H3 } from 'h3';
import {
  AdvanceRequest,
  EvidenceRequest,
  IssueKeyRequest,
  ListOperationsQuery,
  PayRequest,
  ReviewRequest,
  SettleRequest,
  type KeyInfo,
} from '../contract/sandbox.js';
import type { ApiKeyRecord } from '../store/state.js';
import type { AppContext, Guard } from './app.js';
import { parseWith, readJson } from './body.js';
import { ApiError } from './http-errors.js';
import { hashApiKey, type OperationRef } from './service.js';
import { toWireOperation, toWireState, type PublicOperation } from './wire.js';
import { Uuid } from '../contract/money.js';

function refOf(id: string, query: URLSearchParams): OperationRef {
  if (id === '-' && query.get('merchant_operation_id')) return { merchant_operation_id: query.get('merchant_operation_id')! };
  if (!Uuid.safeParse(id).success) throw new ApiError(400, 'validation_error', 'operation id must be a UUID (or use /sandbox/operations/-?merchant_operation_id=…)');
  return { operation_id: id };
}

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

export function registerControls(app: H3, ctx: AppContext, guarded: Guard, evidence: () => Parameters<typeof toWireState>[2]): void {
  const { service } = ctx;
  const wire = (op: PublicOperation) => toWireOperation(op, service.world);
  const param = (event: { context: { params?: Record<string, string> } }) => event.context.params?.id ?? '';

  app.get(
    '/sandbox/operations',
    guarded(async (event, shopId) => {
      const q = parseWith(ListOperationsQuery, Object.fromEntries(event.url.searchParams), 'query');
      const all = service.state
        .operationsOfShop(shopId)
        .filter((op): op is PublicOperation => op.status !== 'admitting')
        .filter((op) => (!q.status || op.status === q.status) && (!q.type || op.type === q.type));
      const page = all.slice().reverse().slice(q.offset, q.offset + q.limit);
      return { total: all.length, operations: page.map(wire) };
    }),
  );

  app.get(
    '/sandbox/operations/:id',
    guarded(async (event, shopId) => {
      const op = await service.get(shopId, refOf(param(event), event.url.searchParams));
      return {
        operation: toWireState(op, service.world, evidence()),
        merchant_operation_id: op.merchant_operation_id,
        created_at: op.created_at,
        history: op.history,
        uploads: (op.uploads ?? []).map(({ file_id: _f, ...u }) => u),
      };
    }),
  );

  app.post(
    '/sandbox/operations/:id/pay',
    guarded(async (event, shopId) => {
      const body = await readJson(event, PayRequest);
      return wire(await service.pay(shopId, refOf(param(event), event.url.searchParams), body.amount));
    }),
  );

  app.post(
    '/sandbox/operations/:id/settle',
    guarded(async (event, shopId) => {
      const body = await readJson(event, SettleRequest);
      return wire(await service.settle(shopId, refOf(param(event), event.url.searchParams), body.outcome));
    }),
  );

  app.post(
    '/sandbox/operations/:id/review',
    guarded(async (event, shopId) => {
      const body = await readJson(event, ReviewRequest);
      return wire(await service.review(shopId, refOf(param(event), event.url.searchParams), body.decision, body.amount));
    }),
  );

  const clockState = () => ({ now: new Date(service.clock.now()).toISOString(), frozen: service.clock.frozen, pending_timers: service.clock.pendingTimers() });

  app.get('/sandbox/clock', guarded(() => clockState(), 'admin'));

  app.post(
    '/sandbox/clock/advance',
    guarded(async (event) => {
      const { by } = await readJson(event, AdvanceRequest);
      const ms = by;
      await service.clock.advance(ms);
      await service.store.sync();
      return clockState();
    }, 'admin'),
  );

  app.get('/sandbox/evidence', guarded(() => ({ available: service.evidenceAvailable }), 'admin'));
  app.put(
    '/sandbox/evidence',
    guarded(async (event) => {
      const { available } = await readJson(event, EvidenceRequest);
      await service.setEvidenceAvailable(available);
      return { available };
    }, 'admin'),
  );

  app.get(
    '/sandbox/keys',
    guarded((event) => {
      const shop = event.url.searchParams.get('shop_id');
      return { keys: [...service.state.keys.values()].filter((k) => !shop || k.shop_id === shop).map(keyInfo) };
    }, 'admin'),
  );

  app.post(
    '/sandbox/keys',
    guarded(async (event) => {
      const body = await readJson(event, IssueKeyRequest);
      if (!service.world.shops.has(body.shop_id)) throw new ApiError(404, 'shop_not_found', `no shop ${body.shop_id}; see the shops printed by paygate sandbox start`);
      const token = `pg_test_${randomBytes(18).toString('base64url')}`;
      const now = new Date(service.clock.now()).toISOString();
      const key: ApiKeyRecord = {
        id: `key_${randomBytes(6).toString('hex')}`,
        shop_id: body.shop_id,
        hash: hashApiKey(token),
        last4: token.slice(-4),
        revoked: false,
        created_at: now,
        ...(body.label ? { label: body.label } : {}),
        ...(body.scopes ? { scopes: [...new Set(body.scopes)] } : {}),
      };
      await service.commit([{ kind: 'key', key }]);
      return { ...keyInfo(key), api_key: token };
    }, 'admin'),
  );

  app.post(
    '/sandbox/keys/:id/revoke',
    guarded(async (event) => {
      const key = service.state.keys.get(param(event));
      if (!key) throw new ApiError(404, 'key_not_found', `no key ${param(event)}; list them with paygate sandbox keys list`);
      if (!key.revoked) {
        const revoked = { ...key, revoked: true, revoked_at: new Date(service.clock.now()).toISOString() };
        await service.commit([{ kind: 'key', key: revoked }]);
        return keyInfo(revoked);
      }
      return keyInfo(key);
    }, 'admin'),
  );

  app.post(
    '/sandbox/reset',
    guarded(async () => {
      await service.reset();
      return { reset: true, now: new Date(service.clock.now()).toISOString() };
    }, 'admin'),
  );
}
