#!/usr/bin/env node
// The `paygate` executable: a thin shim over the compiled CLI (npm run build compiles src/ into dist/).
import '../dist/cli/main.js';
