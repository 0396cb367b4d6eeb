// The handler of every sandbox control, by the control's dotted id in src/contract/controls.ts.
import type { SandboxControls } from '../../../contract/controls.js';
import type { HandlersOf } from '../../http/mount.js';
import * as clock from './clock.js';
import * as evidence from './evidence.js';
import * as faults from './faults.js';
import * as keys from './keys.js';
import * as links from './links.js';
import * as operations from './operations.js';
import * as pool from './pool.js';
import { reset } from './reset.js';
import * as support from './support.js';
import * as webhooks from './webhooks.js';
import * as workspaces from './workspaces.js';

export const controlHandlers: HandlersOf<SandboxControls> = {
  'operations.list': operations.list,
  'operations.show': operations.show,
  'operations.stream': support.streamOperations,
  'logs.list': support.logs,
  'logs.stream': support.streamLogs,
  'balances.all': support.allBalances,
  'operations.pay': operations.pay,
  'operations.settle': operations.settle,
  'operations.review': operations.review,
  'clock.show': clock.show,
  'clock.advance': clock.advance,
  'evidence.show': evidence.show,
  'evidence.set': evidence.set,
  'keys.list': keys.list,
  'keys.issue': keys.issue,
  'keys.revoke': keys.revoke,
  'sandbox.reset': reset,
  'webhooks.list': webhooks.list,
  'webhooks.add': webhooks.add,
  'webhooks.rotate_secret': webhooks.rotateSecret,
  'webhooks.remove': webhooks.remove,
  'webhooks.deliveries': webhooks.deliveries,
  'webhooks.redeliver': webhooks.redeliver,
  'pool.layout': pool.layout,
  'pool.show': pool.show,
  'pool.settings': pool.settings,
  'pool.update_settings': pool.updateSettings,
  'links.show': links.show,
  'links.confirm': links.confirm,
  'faults.list': faults.list,
  'faults.add': faults.add,
  'faults.set': faults.set,
  'faults.clear': faults.clear,
  'faults.remove': faults.remove,
  'workspaces.create': workspaces.create,
  'workspaces.list': workspaces.list,
  'workspaces.delete': workspaces.remove,
};
