// Second step of `npm run build` (after tsc): what makes the CLI start fast.
//
// 1. dist/cli-contract/: the contract as the CLI's client uses it (src/cli/wire.ts), without zod: routes.js (each
//    endpoint's method, path, credential) and checks/<id>.js, a validator of each success body compiled ahead of time
//    (ajv standalone code) from the JSON Schema of the endpoint's zod response schema. A schema is compiled only when
//    every construct in it is one whose JSON Schema accepts no more than zod does (ALLOWED_*); any other (a
//    refinement, a transform, a default, a format ajv is not told about) leaves that endpoint to zod. A body the
//    light check refuses is checked again by zod, which gives the verdict and the message, so the light check only
//    has to never accept what zod refuses (test/cli/light-contract.test.ts).
// 2. dist/cli-bundle/: the CLI (dist/cli/main.js) bundled by esbuild with code splitting: every `import()` of a
//    command module (src/cli/commands/<command>/define.ts, run.ts) becomes its own chunk, so each command still loads only what it uses, in a few
//    files instead of a hundred. The packages every start loads (commander, chalk) are bundled too, which spares
//    Node their CommonJS interop; the others stay in node_modules. bin/paygate.js runs the bundle when it is at least
//    as new as dist/cli/main.js, else the modules (after a bare `tsc`).
// 3. dist/.build-stamp: the fingerprint of the inputs the build was made from (scripts/build-stamp.mjs), so that
//    `npm start` (scripts/start-build.mjs) builds nothing while they are unchanged. Taken when this step begins (or
//    by start-build.mjs before its own step, PAYGATE_BUILD_INPUTS): a source saved during tsc's run is not noticed.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import Ajv2020 from 'ajv/dist/2020.js';
import standaloneCode from 'ajv/dist/standalone/index.js';
import { z } from 'zod';
import { fingerprint, writeStamp } from './build-stamp.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, 'dist');
const inputs = process.env.PAYGATE_BUILD_INPUTS ?? fingerprint(root);
const compiled = (path) => import(pathToFileURL(join(dist, path)).href);
const { endpoints } = await compiled('contract/endpoints.js');
const { sandboxControls } = await compiled('contract/controls.js');

/** zod types whose input JSON Schema accepts exactly what zod accepts of a JSON value, with output equal to input. */
const ALLOWED_TYPES = new Set([
  'string',
  'number',
  'boolean',
  'null',
  'enum',
  'literal',
  'nullable',
  'optional',
  'object',
  'array',
  'union',
]);
/** zod checks likewise. String lengths are left out: ajv counts code points, zod UTF-16 units. */
const ALLOWED_CHECKS = new Set([
  'greater_than',
  'less_than',
  'number_format',
  'string_format:regex',
  'min_length',
  'max_length',
  'length_equals',
]);
/** Regex flags whose absence makes the JSON Schema pattern stricter, never looser (the zod check then decides). */
const STRICTER_WITHOUT = /^[ims]*$/;

/** Why `schema` cannot be checked without zod, or [] when it can. */
function jsonSchemaOf(schema) {
  const why = new Set();
  const note = (def) => {
    if (!ALLOWED_TYPES.has(def.type)) why.add(def.type);
    if (def.type === 'object' && def.catchall !== undefined) why.add('object catchall');
    for (const check of def.checks ?? []) {
      const c = check._zod.def;
      const kind = c.check === 'string_format' ? `string_format:${c.format}` : c.check;
      if (!ALLOWED_CHECKS.has(kind)) why.add(kind);
      else if (kind.endsWith('length') && def.type === 'string') why.add('string length');
      else if (kind === 'string_format:regex' && !STRICTER_WITHOUT.test(c.pattern.flags))
        why.add(`regex flags ${c.pattern.flags}`);
    }
  };
  try {
    const json = z.toJSONSchema(schema, {
      io: 'input',
      unrepresentable: 'throw',
      cycles: 'throw',
      reused: 'inline',
      // The documentation's metadata (`.meta({ pattern })`) must not stand in for the real checks.
      metadata: z.registry(),
      override: (ctx) => note(ctx.zodSchema._zod.def),
    });
    return { json, why: [...why] };
  } catch (e) {
    return { json: undefined, why: [...why, e.message] };
  }
}

function contractTables() {
  const rows = [
    ...Object.values(endpoints).map((e) => [e.id, e]),
    ...Object.values(sandboxControls).map((c) => [c.id, c]),
  ];
  const out = join(dist, 'cli-contract');
  rmSync(out, { recursive: true, force: true });
  mkdirSync(join(out, 'checks'), { recursive: true });
  const routes = {};
  const toZod = [];
  for (const [id, row] of rows) {
    const route = {
      method: row.method,
      path: row.path,
      auth: row.auth,
      response: row.response !== undefined,
      light: false,
    };
    if (row.response) {
      const { json, why } = jsonSchemaOf(row.response);
      if (why.length === 0) {
        const ajv = new Ajv2020.default({
          code: { source: true, esm: true, optimize: true },
          strict: true,
          unicodeRegExp: false,
          validateFormats: false,
        });
        const code = standaloneCode.default(ajv, ajv.compile(json));
        if (/\brequire\(/.test(code)) throw new Error(`${id}: the compiled check needs ajv at run time`);
        writeFileSync(
          join(out, 'checks', `${id}.js`),
          `// Generated by scripts/build-cli.mjs from the contract: do not edit.\n${code}\n`,
        );
        route.light = true;
      } else toZod.push(`${id} (${why.join(', ')})`);
    }
    routes[id] = route;
  }
  writeFileSync(
    join(out, 'routes.js'),
    `// Generated by scripts/build-cli.mjs from the contract's endpoint tables: do not edit.\nexport const routes = ${JSON.stringify(routes, null, 1)};\n`,
  );
  const light = Object.values(routes).filter((r) => r.light).length;
  console.log(
    `cli-contract: ${rows.length} routes, ${light} light response checks${toZod.length ? `; zod checks: ${toZod.join('; ')}` : ''}`,
  );
}

/**
 * Every bundled module keeps its own `import.meta.url` (the fixtures, package.json and the generated checks are
 * found relative to it): the chunks all sit in dist/cli-bundle/, one level below dist/ like the module's own folder.
 */
const ownUrl = {
  name: 'own-import-meta-url',
  setup(b) {
    b.onLoad({ filter: /[\\/]dist[\\/].*\.js$/ }, async (args) => {
      const source = await readFile(args.path, 'utf8');
      if (!source.includes('import.meta.url')) return undefined;
      const own = `new URL(${JSON.stringify(`../${relative(dist, args.path).split(sep).join('/')}`)}, import.meta.url).href`;
      return { contents: source.replaceAll('import.meta.url', own), loader: 'js' };
    });
  },
};

/** Packages bundled into the CLI: the ones the start-up path imports statically. */
const START_UP_PACKAGES = new Set(['commander', 'chalk']);

/** Every other bare import stays external (resolved from node_modules at run time). */
const externals = {
  name: 'externals',
  setup(b) {
    b.onResolve({ filter: /^[^./#]/ }, (args) => {
      const name = args.path.startsWith('@') ? args.path.split('/').slice(0, 2).join('/') : args.path.split('/')[0];
      return START_UP_PACKAGES.has(name) ? undefined : { path: args.path, external: true };
    });
  },
};

async function bundle() {
  const { build } = await import('esbuild');
  const out = join(dist, 'cli-bundle');
  rmSync(out, { recursive: true, force: true });
  const result = await build({
    entryPoints: { main: join(dist, 'cli/main.js') },
    outdir: out,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    chunkNames: '[name]-[hash]',
    metafile: true,
    absWorkingDir: root,
    logLevel: 'warning',
    plugins: [ownUrl, externals],
    // The bundled CommonJS packages (commander) require Node's built-ins.
    banner: {
      js: "import { createRequire as __paygateRequire } from 'node:module';\nconst require = __paygateRequire(import.meta.url);",
    },
  });
  // Which modules each chunk holds (test/cli/lazy-load.test.ts checks what a command loads by them).
  const chunks = Object.fromEntries(
    Object.entries(result.metafile.outputs).map(([file, { inputs }]) => [file, Object.keys(inputs)]),
  );
  writeFileSync(join(out, 'chunks.json'), `${JSON.stringify(chunks, null, 1)}\n`);
  console.log(`cli-bundle: ${Object.keys(chunks).length} files`);
}

contractTables();
if (process.env.PAYGATE_NO_BUNDLE !== '1') {
  await bundle();
  writeStamp(root, inputs);
}
