import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root (three levels above this file). */
export const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** The production entry point: what `npm start` and the Dockerfile run. */
export const MAIN_JS = join(REPO_ROOT, 'dist', 'src', 'main.js');

/** Newest non-test `.ts` file under `src/` and its modification time (ms). */
function newestSource(dir = join(REPO_ROOT, 'src')): { path: string; mtimeMs: number } {
  let newest = { path: '', mtimeMs: 0 };
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      const inner = newestSource(path);
      if (inner.mtimeMs > newest.mtimeMs) newest = inner;
    } else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts')) {
      const { mtimeMs } = statSync(path);
      if (mtimeMs > newest.mtimeMs) newest = { path, mtimeMs };
    }
  }
  return newest;
}

/**
 * The reason the built app cannot be used, or null when `dist/src/main.js` exists and is at least as new
 * as every source file (unless `HOLDPOINT_E2E_STALE_OK=1`). The production tests run the BUILT app (`node dist/src/main.js`), so a stale build
 * would test old code; `.ci/run` builds before it tests.
 */
export function builtAppProblem(): string | null {
  if (!existsSync(MAIN_JS)) {
    return `${MAIN_JS} is missing: the production end-to-end tests run the built app. Run \`npm run build\` first (.ci/run does).`;
  }
  const built = statSync(MAIN_JS).mtimeMs;
  const source = newestSource();
  if (source.mtimeMs > built + 1000 && process.env.HOLDPOINT_E2E_STALE_OK !== '1') {
    const path = source.path.slice(REPO_ROOT.length);
    return `dist/ is older than ${path}: the production end-to-end tests run the built app. Run \`npm run build\` first (.ci/run does), or set HOLDPOINT_E2E_STALE_OK=1 to test the old build on purpose.`;
  }
  return null;
}

/**
 * Throws with a message telling you to run `npm run build` when the built app is missing or older than
 * `src/` (see {@link builtAppProblem}).
 */
export function assertBuilt(): void {
  const problem = builtAppProblem();
  if (problem !== null) throw new Error(problem);
}
