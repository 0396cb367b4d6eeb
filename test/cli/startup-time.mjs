// Cold-start timing of the CLI against bare node (run after `npm run build`): `node test/cli/startup-time.mjs [runs]`.
// Runs are interleaved so machine load hits every case alike; prints the median and the ratio to `node -e 0`.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const BIN = fileURLToPath(new URL('../../bin/paygate.js', import.meta.url));
const runs = Number(process.argv[2] ?? 40);
const cases = [
  ['node -e 0', ['-e', '0']],
  ['paygate --help', [BIN, '--help']],
  ['paygate --version', [BIN, '--version']],
  ['paygate payment create --help', [BIN, 'payment', 'create', '--help']],
];
const times = cases.map(() => []);
for (let i = 0; i < runs + 3; i++) {
  cases.forEach(([, args], j) => {
    const start = process.hrtime.bigint();
    const r = spawnSync(process.execPath, args, { stdio: 'ignore' });
    if (r.status !== 0) throw new Error(`${args.join(' ')} exited ${r.status}`);
    if (i >= 3) times[j].push(Number(process.hrtime.bigint() - start) / 1e6);
  });
}
const median = (t) => [...t].sort((a, b) => a - b)[Math.floor(t.length / 2)];
const base = median(times[0]);
for (const [j, [name]] of cases.entries()) {
  const m = median(times[j]);
  console.log(
    `${name.padEnd(30)} median ${m.toFixed(1).padStart(6)} ms  min ${Math.min(...times[j])
      .toFixed(1)
      .padStart(6)} ms  ×${(m / base).toFixed(2)}`,
  );
}
