// npm run docs: regenerate docs/openapi.json, docs/scenario.schema.json and the state table in docs/state-machine.md
// from the built sources.
import { readFileSync, writeFileSync } from 'node:fs';
import { buildOpenApiDocument } from '../dist/contract/index.js';
import { renderStateTable } from '../dist/domain/state-table.js';
import { renderRules } from '../dist/conformance/catalogue.js';
import { buildScenarioJsonSchema } from '../dist/scenarios/json-schema.js';
import { renderVocabulary } from '../dist/scenarios/vocabulary.js';

const root = new URL('..', import.meta.url);
const pkg = JSON.parse(readFileSync(new URL('package.json', root), 'utf8'));
writeFileSync(new URL('docs/openapi.json', root), `${JSON.stringify(buildOpenApiDocument(pkg.version), null, 2)}\n`);
writeFileSync(new URL('docs/scenario.schema.json', root), `${JSON.stringify(buildScenarioJsonSchema(), null, 2)}\n`);
const docUrl = new URL('docs/state-machine.md', root);
const doc = readFileSync(docUrl, 'utf8');
writeFileSync(docUrl, doc.replace(/<!-- state-table:begin -->\n[\s\S]*?<!-- state-table:end -->/, `<!-- state-table:begin -->\n${renderStateTable()}\n<!-- state-table:end -->`));
const scenariosUrl = new URL('docs/scenarios.md', root);
const scenariosDoc = readFileSync(scenariosUrl, 'utf8');
writeFileSync(scenariosUrl, scenariosDoc.replace(/<!-- scenario-steps:begin -->\n[\s\S]*?<!-- scenario-steps:end -->/, `<!-- scenario-steps:begin -->\n${renderVocabulary()}\n<!-- scenario-steps:end -->`));
const rulesUrl = new URL('docs/conformance.md', root);
const rulesDoc = readFileSync(rulesUrl, 'utf8');
writeFileSync(rulesUrl, rulesDoc.replace(/<!-- conformance-rules:begin -->\n[\s\S]*?<!-- conformance-rules:end -->/, `<!-- conformance-rules:begin -->\n${renderRules()}\n<!-- conformance-rules:end -->`));
console.log('wrote docs/openapi.json, docs/scenario.schema.json, docs/scenarios.md, docs/state-machine.md and docs/conformance.md');

// Screenshots of every state of the hosted payment page, desktop and phone (docs/hosted-page/, shown in the README):
// taken by its browser test in Debian's chromium (test/pages/browser-states.test.ts), which skips loudly without one.
const { spawnSync } = await import('node:child_process');
const { fileURLToPath } = await import('node:url');
const vitest = fileURLToPath(new URL('node_modules/vitest/vitest.mjs', root));
const shots = spawnSync(process.execPath, [vitest, 'run', 'test/pages/browser-states.test.ts'], {
  cwd: fileURLToPath(root),
  stdio: 'inherit',
  env: { ...process.env, PAYGATE_SCREENSHOTS: 'docs/hosted-page' },
});
if (shots.status !== 0) process.exit(shots.status ?? 1);
console.log('wrote docs/hosted-page/*.png');

// Screenshots of every page of the dashboard, desktop and phone (docs/dashboard/, shown in the README and
// docs/dashboard.md): taken by its browser test (test/dashboard/browser-pages.test.ts), which skips loudly without
// a chromium.
const dash = spawnSync(process.execPath, [vitest, 'run', 'test/dashboard/browser-pages.test.ts'], {
  cwd: fileURLToPath(root),
  stdio: 'inherit',
  env: { ...process.env, PAYGATE_SCREENSHOTS: 'docs/dashboard' },
});
if (dash.status !== 0) process.exit(dash.status ?? 1);
console.log('wrote docs/dashboard/*.png');

// Then the Balances, Webhooks, Requests, Clock, Pool and Workspaces pages again, with data on each (the pool laid
// out, a payout settled): their own browser test's screenshots replace the ones above of the same names.
const sections = spawnSync(process.execPath, [vitest, 'run', 'test/dashboard/browser-sections.test.ts'], {
  cwd: fileURLToPath(root),
  stdio: 'inherit',
  env: { ...process.env, PAYGATE_SCREENSHOTS: 'docs/dashboard' },
});
if (sections.status !== 0) process.exit(sections.status ?? 1);
console.log('wrote docs/dashboard/{balances,webhooks,requests,clock,pool,workspaces}-{desktop,phone}.png');

// The dashboard on `paygate proxy` (docs/dashboard.md): an operation of a drifting upstream with its violation.
const proxied = spawnSync(process.execPath, [vitest, 'run', 'test/dashboard/browser-proxy.test.ts'], {
  cwd: fileURLToPath(root),
  stdio: 'inherit',
  env: { ...process.env, PAYGATE_SCREENSHOTS: 'docs/dashboard' },
});
if (proxied.status !== 0) process.exit(proxied.status ?? 1);
console.log('wrote docs/dashboard/proxy-operation-{desktop,phone}.png');
