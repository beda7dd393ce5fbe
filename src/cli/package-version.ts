import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The `name` in holdpoint's own package.json: a package.json with another name is passed by. */
const PACKAGE_NAME = 'holdpoint';

/**
 * holdpoint's version, read at run time from its package.json: the first `package.json` named
 * `holdpoint` in the directory of `from` or above it. That is `../../package.json` from `src/cli/` under
 * tsx and `../../../package.json` from `dist/src/cli/` after a build (the image copies package.json next
 * to `dist/`), so no path is written in and nothing is copied at build time.
 *
 * @param from the file to start from (default: this module)
 * @returns the `version` field, or null when no such package.json is found (or it has no version)
 */
export function packageVersion(from: string | URL = import.meta.url): string | null {
  let dir = dirname(fileURLToPath(from));
  for (;;) {
    const found = readPackage(join(dir, 'package.json'));
    if (found?.name === PACKAGE_NAME) return typeof found.version === 'string' ? found.version : null;
    const parent = dirname(dir);
    if (parent === dir) return null;
    dir = parent;
  }
}

function readPackage(path: string): { name?: unknown; version?: unknown } | null {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return null;
  }
  try {
    const parsed: unknown = JSON.parse(text);
    return typeof parsed === 'object' && parsed !== null ? parsed : null;
  } catch {
    return null;
  }
}
