// A sandbox in a child process (from dist/) for the SIGKILL test: prints one JSON line once listening.
// argv: <store path> <webhook url>
import { createSandbox } from '../../dist/emulator/index.js';

const [store, webhookUrl] = process.argv.slice(2);
const sandbox = await createSandbox({
  store,
  webhookUrl,
  frozenClock: true,
  startTime: '2026-03-01T12:00:00.000Z',
  adminToken: 'pg_admin_test_token',
  log: () => {},
});
const { url } = await sandbox.listen({ port: 0, host: '127.0.0.1' });
process.stdout.write(`${JSON.stringify({ base_url: url, webhook_secret: sandbox.webhookSecret })}\n`);
