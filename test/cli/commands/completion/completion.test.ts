// `paygate completion bash|zsh|fish`: a script generated from the command tree, exercised in the shells themselves
// (bash always; zsh and fish where installed): subcommands at any depth, options of the command and the global ones,
// the values of an option with choices, files after an option that takes a path.
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { commandTree, type CommandNode } from '../../../../src/cli/commands/completion/define.js';
import { buildProgram } from '../../../../src/cli/program.js';
import { runCli, tempConfig } from '../../run-cli.js';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

const has = (shell: string): boolean => {
  try {
    execFileSync('sh', ['-c', `command -v ${shell}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
};

const cfg = tempConfig();
const scripts: Record<string, string> = {};
beforeAll(async () => {
  for (const shell of ['bash', 'zsh', 'fish']) {
    const r = await runCli(['completion', shell], { env: { PAYGATE_CONFIG: cfg.path } });
    expect(r.code, r.stderr).toBe(0);
    scripts[shell] = join(cfg.dir, `paygate.${shell}`);
    writeFileSync(scripts[shell]!, r.stdout);
  }
});
afterAll(() => cfg.cleanup());

/** What bash completes for the words typed so far (the last one being completed). */
function bash(...words: string[]): string[] {
  const program = `source ${JSON.stringify(scripts.bash)}
COMP_WORDS=(${words.map((w) => `'${w}'`).join(' ')}); COMP_CWORD=${words.length - 1}; _paygate; printf '%s\\n' "\${COMPREPLY[@]}"`;
  return execFileSync('bash', ['-c', program], { encoding: 'utf8', cwd: cfg.dir }).split('\n').filter(Boolean);
}

describe('bash', () => {
  it('completes subcommands at every depth, after global options with values', () => {
    expect(bash('paygate', 'pay')).toEqual(['payment', 'payout']);
    expect(bash('paygate', 'payment', '')).toEqual(['create', 'link', 'confirm', 'cancel', 'help']);
    expect(bash('paygate', '--base-url', 'http://x', 'sandbox', 'pool', 'l')).toEqual(['layout']);
    expect(bash('paygate', 'help', 'glo')).toEqual(['globals']);
    expect(bash('paygate', 'completion', '')).toEqual(['bash', 'zsh', 'fish']);
    expect(bash('paygate', 'trigger', 'payout.')).toEqual(['payout.pending', 'payout.completed', 'payout.failed']);
  });

  it("completes the command's options and the global ones once; payout fields only on payouts", () => {
    const payout = bash('paygate', 'payout', 'create', '--');
    for (const o of ['--number', '--bankname', '--expect-status', '--json', '--base-url', '--no-color'])
      expect(payout).toContain(o);
    expect(payout.filter((o) => o === '--help')).toHaveLength(1);
    expect(bash('paygate', 'payment', 'create', '--')).not.toContain('--number');
  });

  it('completes the values of an option with choices, and files after one that takes a path', () => {
    expect(bash('paygate', 'payment', 'create', '--expect-status', 're')).toEqual(['rejected']);
    writeFileSync(join(cfg.dir, 'receipt-1.pdf'), '');
    expect(bash('paygate', 'payment', 'confirm', '--receipt', 'receipt-')).toEqual(['receipt-1.pdf']);
  });
});

describe.skipIf(!has('zsh'))('zsh', () => {
  it('parses, and walks the command path like bash', () => {
    execFileSync('zsh', ['-n', scripts.zsh!]);
    // _describe and compadd stubbed to print what they are given.
    const program = `compdef() { :; }; source ${JSON.stringify(scripts.zsh)}
_describe() { local arr=\${@[-1]}; print -rl -- \${(P)arr} | cut -d: -f1; }
compadd() { local arr=\${@[-1]}; print -rl -- \${(P)arr}; }
words=(paygate --profile p sandbox keys ''); CURRENT=6; PREFIX=''; _paygate
words=(paygate payment create --expect-status ''); CURRENT=5; PREFIX=''; _paygate`;
    const out = execFileSync('zsh', ['-c', program], { encoding: 'utf8' }).split('\n').filter(Boolean);
    expect(out).toEqual([
      'list',
      'issue',
      'revoke',
      'help',
      'pending',
      'awaiting_confirmation',
      'manual_check',
      'completed',
      'cancelled',
      'rejected',
    ]);
  });
});

describe.skipIf(!has('fish'))('fish', () => {
  it('completes with descriptions', () => {
    const complete = (line: string): string[] =>
      execFileSync('fish', ['-c', `source ${scripts.fish}; complete -C ${JSON.stringify(line)}`], { encoding: 'utf8' })
        .split('\n')
        .filter(Boolean);
    expect(complete('paygate pay')).toEqual([
      'payment\tinbound payments: create, hosted link, confirm, cancel',
      'payout\toutbound payouts',
    ]);
    expect(complete('paygate --api-key k sandbox time ')).toEqual([
      expect.stringMatching(/^advance\tmove the sandbox clock forward/),
    ]);
    expect(complete('paygate payout create --bank')).toEqual([
      expect.stringMatching(/^--bankname\tdestination bank code/),
    ]);
  });
});

describe('the tree', () => {
  it('is every visible command of the program, as help lists them', async () => {
    const program = await buildProgram('0.0.0', ['node', 'paygate', 'completion']);
    const paths = (n: CommandNode, at = ''): string[] =>
      n.commands.flatMap((c) => [`${at}${c.name}`, ...paths(c, `${at}${c.name} `)]);
    const all = paths(commandTree(program));
    for (const p of [
      'sandbox pool layout',
      'sandbox webhooks redeliver',
      'scenario run',
      'webhooks listen',
      'trigger',
      'config get',
      'completion',
    ])
      expect(all).toContain(p);
    expect(all).not.toContain('globals');
  });

  it('an unknown shell is a usage error', async () => {
    const r = await runCli(['completion', 'tcsh'], { env: { PAYGATE_CONFIG: cfg.path } });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('Allowed choices are bash, zsh, fish');
  });
});
