// Preloaded with `node --import` by lazy-load.test.ts: appends the URL of every module the process resolves to
// the file named by PAYGATE_TEST_LOAD_LOG, so a test can see what a command loaded.
import { register } from 'node:module';

register(
  'data:text/javascript,' +
    encodeURIComponent(`
import { appendFileSync } from 'node:fs';
export async function resolve(specifier, context, next) {
  const result = await next(specifier, context);
  if (process.env.PAYGATE_TEST_LOAD_LOG) appendFileSync(process.env.PAYGATE_TEST_LOAD_LOG, result.url + '\\n');
  return result;
}
`),
);
