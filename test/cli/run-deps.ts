// Test helpers for calling a command's run function directly, in this process: a Paygate client that reaches the
// sandbox through its fetch handler (no socket, no port) and an Output that records what the command printed.
import { stripVTControlCharacters } from 'node:util';
import type { Paygate } from '../../src/client/index.js';
import type { ConnectOptions } from '../../src/cli/api.js';
import type { CommandDeps } from '../../src/cli/deps.js';
import type { Output } from '../../src/cli/output.js';
import type { SandboxUnderTest } from '../helpers/sandbox.js';

export interface Recorder extends Output {
  /** What went to stdout, colour codes removed. */
  readonly stdout: string;
  /** What went to stderr (notes), colour codes removed. */
  readonly stderr: string;
  /** The text of every spinner the command started, and every text it then said under one, in order. */
  readonly spinners: string[];
}

export function recorder(): Recorder {
  let stdout = '';
  let stderr = '';
  const spinners: string[] = [];
  return {
    get stdout() {
      return stripVTControlCharacters(stdout);
    },
    get stderr() {
      return stripVTControlCharacters(stderr);
    },
    spinners,
    print: (text) => void (stdout += `${text}\n`),
    json: (body) => void (stdout += `${JSON.stringify(body, null, 2)}\n`),
    note: (text) => void (stderr += `${text}\n`),
    spin: (text, work) => {
      spinners.push(text);
      return work((said) => {
        spinners.push(said);
        stderr += `${said}\n`;
      });
    },
  };
}

export interface InProcessDeps extends CommandDeps {
  output: Recorder;
  client: Paygate;
  /** What each `connect()` call asked for, in order (an empty list: the command never reached the API). */
  connects: ConnectOptions[];
}

/** A command's dependencies over an in-process sandbox (its client from `sandbox.make`), with the given credentials; never interactive. */
export function inProcessDeps(
  sandbox: SandboxUnderTest,
  credentials: { apiKey?: string; adminToken?: string },
): InProcessDeps {
  const baseUrl = 'http://sandbox.local';
  const client = sandbox.make({ baseUrl, ...credentials, maxRetries: 0 });
  const connects: ConnectOptions[] = [];
  return {
    client,
    connects,
    output: recorder(),
    interactive: false,
    connect: async (need = {}) => {
      connects.push(need);
      return { client, baseUrl };
    },
  };
}
