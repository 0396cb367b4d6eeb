#!/usr/bin/env node
// The `paygate` executable. `npm run build` compiles src/ into dist/ and bundles the CLI into dist/cli-bundle/
// (scripts/build-cli.mjs): one chunk per command, so a command starts in fewer files. The bundle runs when it is at
// least as new as the compiled modules; after a bare `tsc` (newer modules, stale bundle) they run instead.
import { statSync } from 'node:fs';

const mtime = (path) => statSync(new URL(path, import.meta.url), { throwIfNoEntry: false })?.mtimeMs ?? -1;
const bundle = mtime('../dist/cli-bundle/main.js');
await import(
  bundle >= 0 && bundle >= mtime('../dist/cli/main.js') ? '../dist/cli-bundle/main.js' : '../dist/cli/main.js'
);
