// The contract as the CLI's client reaches it (src/client/wire.ts ContractView), without zod on the way of a command
// that succeeds: the routes and the response checks that `npm run build` generates into dist/cli-contract/ from the
// contract's tables (scripts/build-cli.mjs). A body the generated check accepts is one zod accepts too, unchanged;
// a body it refuses, and every endpoint it has no check for, go to the contract's zod check, which has the last word
// and the message. Where nothing was generated (running from src/), or what was is older than the compiled contract
// (a bare `tsc` after a build), the zod contract is used as it is.
import { statSync } from 'node:fs';
import type { ClientRoute, ContractView } from '../client/wire.js';

interface GeneratedRoute extends ClientRoute {
  /** Whether checks/<id>.js exists: a validator that accepts no body the zod schema refuses. */
  light: boolean;
}

type Validate = (body: unknown) => boolean;

const GENERATED = new URL('../cli-contract/', import.meta.url);

async function zodContract(): Promise<ContractView> {
  return (await import('../client/routes.js')).zodContract;
}

const mtime = (url: URL): number => statSync(url, { throwIfNoEntry: false })?.mtimeMs ?? -1;

async function generatedRoutes(): Promise<Record<string, GeneratedRoute> | undefined> {
  const generated = mtime(new URL('routes.js', GENERATED));
  if (generated < 0 || generated < mtime(new URL('../client/routes.js', import.meta.url))) return undefined;
  const mod = (await import(new URL('routes.js', GENERATED).href)) as { routes: Record<string, GeneratedRoute> };
  return mod.routes;
}

/** The CLI's contract: the generated routes and checks, with zod behind them. */
export async function lightContract(): Promise<ContractView> {
  const routes = await generatedRoutes();
  if (!routes) return zodContract();
  const checks = new Map<string, Promise<Validate>>();
  const checkOf = (id: string): Promise<Validate> => {
    let check = checks.get(id);
    if (!check) {
      check = import(new URL(`checks/${id}.js`, GENERATED).href).then((m: { validate: Validate }) => m.validate);
      checks.set(id, check);
    }
    return check;
  };
  const routeIn = (id: string): GeneratedRoute | undefined => (Object.hasOwn(routes, id) ? routes[id] : undefined);
  return {
    async routeOf(id) {
      const route = routeIn(id);
      // Load the check while the request is on the wire (a failure to load shows when the check runs).
      if (route?.light) checkOf(id).catch(() => undefined);
      return route ?? (await zodContract()).routeOf(id);
    },
    async check(id, body, label, status) {
      if (routeIn(id)?.light && (await checkOf(id))(body)) return body;
      return (await zodContract()).check(id, body, label, status);
    },
  };
}
