// Owns the teardown of what a test opens by hand: useCleanup() registers one afterEach that runs every deferred close,
// last opened first, each one even when an earlier one failed; tempDir() is a temporary directory removed that way.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';

export type Deferred = () => unknown;

/** `defer(fn)` runs `fn` after the current test. Call useCleanup() at file or describe level. */
export function useCleanup(): (fn: Deferred) => void {
  const stack: Deferred[] = [];
  afterEach(async () => {
    const errors: unknown[] = [];
    for (const fn of stack.splice(0).reverse()) {
      try {
        await fn();
      } catch (e) {
        errors.push(e);
      }
    }
    if (errors.length > 0) throw errors[0];
  });
  return (fn) => void stack.push(fn);
}

/** A fresh temporary directory, removed (with everything in it) by `defer`'s cleanup. */
export function tempDir(defer: (fn: Deferred) => void, prefix = 'paygate-test-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  defer(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}
