// Builds the Dockerfile's image for the container tests, on the local Node base scripts/container-base.sh makes and
// caches once per machine. The container project's global setup (prebuild.setup.ts) starts this build in the
// background when the run begins, so the debootstrap, the `npm ci` and the tsc inside the build overlap the other
// projects' tests instead of adding to the run; image.test.ts waits for it (or builds itself when run without it).
import { execFile, execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const run = promisify(execFile);

/** The build stage of the last run, kept as the layer cache of the next (one image at most). */
export const BUILD_CACHE = 'paygate-test-build-cache:latest';

/** What the global setup hands the test: the image it builds, and the file it writes when the build has ended. */
export interface Prebuild {
  image: string;
  status: string;
}

/** The outcome the global setup writes to `Prebuild.status`. */
interface Status {
  ok: boolean;
  error?: string;
  ms: number;
}

declare module 'vitest' {
  export interface ProvidedContext {
    containerPrebuild: Prebuild | null;
  }
}

export function dockerAnswers(): boolean {
  try {
    execFileSync('docker', ['info', '--format', '{{.ServerVersion}}'], { stdio: 'pipe', timeout: 20_000 });
    return true;
  } catch {
    return false;
  }
}

/**
 * Makes (or finds) the local base, builds the image as `image`, and keeps its build stage as BUILD_CACHE (its
 * `npm ci` layer is reused while the lockfile is unchanged); the stage it replaces, now untagged, is removed.
 */
export async function buildImage(image: string): Promise<void> {
  const made = await run('bash', [`${ROOT}scripts/container-base.sh`], { maxBuffer: 16 << 20, timeout: 15 * 60_000 });
  const baseImage = made.stdout.trim().split('\n').pop()!;
  const build = ['--build-arg', `BASE=${baseImage}`, ROOT];
  await run('docker', ['build', '-q', '--target', 'build', '-t', BUILD_CACHE, ...build], {
    maxBuffer: 64 << 20,
    timeout: 15 * 60_000,
  });
  await run('docker', ['build', '-q', '-t', image, ...build], { maxBuffer: 64 << 20, timeout: 15 * 60_000 });
  const stale = (
    await run('docker', ['images', '-q', '--no-trunc', '-f', 'dangling=true', '-f', 'label=org.paygate.stage=build'])
  ).stdout
    .split('\n')
    .filter(Boolean);
  if (stale.length) await run('docker', ['rmi', '-f', ...stale]).catch(() => undefined);
}

/** Builds `image` and writes the outcome to `status` (never rejects: the test reads and reports the failure). */
export async function buildImageInto(image: string, status: string): Promise<void> {
  const started = Date.now();
  let outcome: Status;
  try {
    await buildImage(image);
    outcome = { ok: true, ms: Date.now() - started };
  } catch (e) {
    const err = e as Error & { stderr?: string };
    outcome = { ok: false, error: `${err.message}\n${err.stderr ?? ''}`, ms: Date.now() - started };
  }
  writeFileSync(status, JSON.stringify(outcome));
}

/** Waits for the global setup's build to end; throws its error when it failed. Resolves the build's duration. */
export async function prebuilt(pre: Prebuild, ms = 20 * 60_000): Promise<number> {
  const deadline = Date.now() + ms;
  while (!existsSync(pre.status)) {
    if (Date.now() > deadline) throw new Error(`the image build of the global setup did not end within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 250));
  }
  const outcome = JSON.parse(readFileSync(pre.status, 'utf8')) as Status;
  if (!outcome.ok) throw new Error(`the image build of the global setup failed: ${outcome.error}`);
  return outcome.ms;
}
