import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { packageVersion } from './package-version.js';

const repoPackage = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
  version: string;
};

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A scratch tree with the given files (path -> JSON content). */
function tree(files: Record<string, unknown>): string {
  const root = mkdtempSync(join(tmpdir(), 'holdpoint-version-'));
  dirs.push(root);
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), typeof content === 'string' ? content : JSON.stringify(content));
  }
  return root;
}

describe('packageVersion', () => {
  it("is this checkout's package.json version when run from the sources", () => {
    expect(repoPackage.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(packageVersion()).toBe(repoPackage.version);
  });

  it.each([
    ['the sources (tsx src/cli.ts)', 'src/cli/package-version.ts'],
    ['the build (node dist/src/cli.js)', 'dist/src/cli/package-version.js'],
  ])('finds the package.json above %s', (_layout, modulePath) => {
    const root = tree({ 'package.json': { name: 'holdpoint', version: '9.8.7' } });
    expect(packageVersion(pathToFileURL(join(root, modulePath)))).toBe('9.8.7');
  });

  it('passes by a package.json of another name and one that is not JSON', () => {
    const root = tree({
      'package.json': { name: 'holdpoint', version: '1.2.3' },
      'dist/package.json': { name: 'something-else', version: '0.0.1' },
      'dist/src/package.json': 'not json {',
    });
    expect(packageVersion(pathToFileURL(join(root, 'dist/src/cli/package-version.js')))).toBe('1.2.3');
  });

  it('is null without a holdpoint package.json above, or when it has no version', () => {
    const bare = tree({ 'x/package.json': { name: 'other', version: '1.0.0' } });
    expect(packageVersion(pathToFileURL(join(bare, 'x/src/cli/package-version.js')))).toBeNull();
    const noVersion = tree({ 'package.json': { name: 'holdpoint' } });
    expect(packageVersion(pathToFileURL(join(noVersion, 'src/cli/package-version.js')))).toBeNull();
  });
});
