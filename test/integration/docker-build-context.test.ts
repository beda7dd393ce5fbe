import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

/**
 * There is no Docker engine here, so this builds what the Dockerfile's build stage would build: only the
 * files its COPY lines bring in (checked against .dockerignore), then `npm run build` in that folder.
 * It catches a build that needs a file the image does not get (a new user found one: the build script
 * ran scripts/copy-assets.mjs, which the image did not copy).
 */
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const dockerfile = readFileSync(join(ROOT, 'Dockerfile'), 'utf8');
const buildStage = dockerfile.slice(0, dockerfile.indexOf(' AS runtime'));
const sources = [...buildStage.matchAll(/^COPY (?!--from)(.+) \S+$/gm)].flatMap((match) =>
  (match[1] ?? '').split(/\s+/),
);
const ignored = readFileSync(join(ROOT, '.dockerignore'), 'utf8')
  .split('\n')
  .map((line) => line.trim())
  .filter((line) => line && !line.startsWith('#'));

function isIgnored(path: string): boolean {
  let result = false;
  for (const rule of ignored) {
    const negated = rule.startsWith('!');
    const pattern = negated ? rule.slice(1) : rule;
    if (path === pattern || path.startsWith(`${pattern}/`)) result = !negated;
  }
  return result;
}

describe('the Docker build stage', () => {
  const dir = mkdtempSync(join(tmpdir(), 'holdpoint-docker-context-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('copies only files the build context has', () => {
    expect(sources.length).toBeGreaterThan(0);
    expect(sources.filter(isIgnored)).toEqual([]);
    for (const source of sources) expect(existsSync(join(ROOT, source)), source).toBe(true);
  });

  it('builds with exactly those files: dist/src/main.js and the Lua scripts next to the store', () => {
    for (const source of sources) cpSync(join(ROOT, source), join(dir, source), { recursive: true });
    symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
    execFileSync('npm', ['run', 'build'], { cwd: dir, stdio: 'pipe' });
    expect(existsSync(join(dir, 'dist/src/main.js'))).toBe(true);
    const lua = readdirSync(join(dir, 'dist/src/store/lua')).filter((name) => name.endsWith('.lua'));
    expect(lua.length).toBeGreaterThanOrEqual(10);
  }, 120_000);
});
