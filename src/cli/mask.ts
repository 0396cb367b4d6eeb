// Masking of API keys and the sandbox admin token: every secret the CLI prints or mentions shows only its last
// 4 characters.

/** `pg_test_a_7Hq2Lm9XwR4tNc8V` → `****Nc8V`; keys shorter than 12 characters are masked entirely (as the client does). */
export function maskKey(key: string): string {
  return key.length >= 12 ? `****${key.slice(-4)}` : '****';
}

const secrets = new Set<string>();

/** Remember a key so that redact() hides it from any later output. */
export function registerSecret(key: string | undefined): void {
  if (key && key.length >= 4) secrets.add(key);
}

const SECRET_FLAGS = ['--api-key', '--admin-token', '--secret'] as const;

/**
 * Secrets known before any command runs: `--api-key <k>`, `--api-key=<k>`, PAYGATE_API_KEY, and the same for
 * `--admin-token` / PAYGATE_ADMIN_TOKEN.
 */
export function registerSecretsFromProcess(argv: readonly string[] = process.argv, env = process.env): void {
  registerSecret(env.PAYGATE_API_KEY);
  registerSecret(env.PAYGATE_ADMIN_TOKEN);
  argv.forEach((a, i) => {
    for (const flag of SECRET_FLAGS) {
      if (a === flag) registerSecret(argv[i + 1]);
      else if (a.startsWith(`${flag}=`)) registerSecret(a.slice(flag.length + 1));
    }
  });
  // `paygate config set api-key <value>` / `paygate config set admin-token <value>`
  const set = argv.indexOf('set');
  if (set >= 0 && (argv[set + 1] === 'api-key' || argv[set + 1] === 'admin-token')) registerSecret(argv[set + 2]);
}

/** Replace every occurrence of each registered (and each given) secret in `text` by its mask. */
export function redact(text: string, extra: readonly (string | undefined)[] = []): string {
  let out = text;
  for (const s of [...secrets, ...extra]) {
    if (s && s.length >= 4) out = out.split(s).join(maskKey(s));
  }
  return out;
}
