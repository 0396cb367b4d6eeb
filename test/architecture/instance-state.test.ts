// No module-level state keyed by an instance (house style: every dependency is passed at construction): no
// WeakMap or Map at module level keyed by a service, store, sandbox or clock, and no slot of the service overwritten
// after construction (`service.hook = …`, `service.linkKey = …`).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? files(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

describe('instance state', () => {
  const sources = files(join(__dirname, '../../src')).map((f) => [f, readFileSync(f, 'utf8')] as const);

  it('no module-level map keyed by a service, store, sandbox or clock', () => {
    const keyed = /^(?:export )?const \w+ = new (?:Weak)?Map<(?:GatewayService|Store|Sandbox|SandboxClock)\b/m;
    expect(sources.filter(([, text]) => keyed.test(text)).map(([f]) => f)).toEqual([]);
  });

  it('no slot of the service set from outside it', () => {
    const slot = /\bservice\.(?:hook|linkKey|writeListeners)\s*=[^=]/;
    expect(sources.filter(([, text]) => slot.test(text)).map(([f]) => f)).toEqual([]);
  });

  it('no hook of the clock or the service registered after construction (advance and reset subscribers are given)', () => {
    const late = /\b(?:clock\.(?:before|after)Advance\s*=[^=]|service\.onReset\()/;
    expect(sources.filter(([, text]) => late.test(text)).map(([f]) => f)).toEqual([]);
  });

  it('no module-level WeakMap in the emulator keyed by any object (a service passed as `object`)', () => {
    const keyed = /^(?:export )?const \w+ = new WeakMap<object\b/m;
    const emulator = sources.filter(([f]) => f.includes('/src/emulator/'));
    expect(emulator.filter(([, text]) => keyed.test(text)).map(([f]) => f)).toEqual([]);
  });
});
