// The program's lazy groups, in process: a group's subcommands are defined only when argv names it (`help <group>`
// too), and a group dispatched to without having been named is still defined first.
import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { buildProgram, commandNamed } from '../../src/cli/program.js';

const group = (program: Command, name: string): Command => program.commands.find((c) => c.name() === name)!;

/** Parse `args` with help and errors captured instead of written. */
async function parse(program: Command, args: string[]): Promise<string> {
  let out = '';
  const capture = (c: Command): void => {
    c.configureOutput({ writeOut: (s) => void (out += s), writeErr: (s) => void (out += s) });
    c.commands.forEach(capture);
  };
  capture(program);
  await program.parseAsync(['node', 'paygate', ...args]).catch(() => undefined);
  return out;
}

describe('commandNamed', () => {
  it.each([
    [['payment', 'create'], 'payment'],
    [['--base-url', 'http://x', '--profile', 'p', 'sandbox', 'time'], 'sandbox'],
    [['--api-key=k', 'config', 'list'], 'config'],
    [['help', 'payout'], 'payout'],
    [['--json', 'balances'], 'balances'],
    [['--help'], undefined],
    [[], undefined],
  ])('%j names %s', (args, name) => {
    expect(commandNamed(args)).toBe(name);
  });
});

describe('buildProgram', () => {
  it('defines the subcommands of the named group only', async () => {
    const program = await buildProgram('0.0.0', ['node', 'paygate', 'help', 'payment']);
    expect(group(program, 'payment').commands.map((c) => c.name())).toEqual(['create', 'link', 'confirm', 'cancel']);
    expect(group(program, 'sandbox').commands).toEqual([]);
    expect(group(program, 'state')).toBeDefined();
  });

  it('a group reached without being named is defined before it parses', async () => {
    const program = await buildProgram('0.0.0', ['node', 'paygate']);
    program.exitOverride();
    const help = await parse(program, ['sandbox', 'keys', 'issue', '--help']);
    expect(help).toMatch(/^Usage: paygate sandbox keys issue/);
    expect(help).toContain('--scopes <list>');
  });
});
