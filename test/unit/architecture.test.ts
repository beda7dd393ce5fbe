import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(join(ROOT, dir))) {
    const path = join(dir, name);
    if (statSync(join(ROOT, path)).isDirectory()) out.push(...sourceFiles(path));
    else if (name.endsWith('.ts') && !name.endsWith('.test.ts')) out.push(path);
  }
  return out;
}

/** Side-effect libraries that pure folders must not import (STYLE.md "Layout"). */
const FORBIDDEN_IMPORTS = ['ioredis', 'bullmq', '@slack/bolt', '@slack/web-api'];
const PURE_FOLDERS = ['src/ask', 'src/agent', 'src/slack/blocks', 'src/config'];

describe('architecture', () => {
  for (const folder of PURE_FOLDERS) {
    it(`${folder} imports no Redis, BullMQ or Slack client`, () => {
      const offenders: string[] = [];
      for (const file of sourceFiles(folder)) {
        const text = readFileSync(join(ROOT, file), 'utf8');
        for (const name of FORBIDDEN_IMPORTS) {
          if (new RegExp(`from '${name}(/[^']*)?'`).test(text)) offenders.push(`${file} imports ${name}`);
        }
      }
      expect(offenders).toEqual([]);
    });
  }

  it('reads process.env only in the configuration loader and the process entry points', () => {
    const allowed = (file: string) =>
      file === 'src/config/load-config.ts' || file === 'src/main.ts' || file.startsWith('src/cli/');
    const withoutComments = (text: string) =>
      text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
    const offenders = sourceFiles('src')
      .filter((file) => !allowed(relative(ROOT, join(ROOT, file))))
      .filter((file) => /process\.env\b/.test(withoutComments(readFileSync(join(ROOT, file), 'utf8'))));
    expect(offenders).toEqual([]);
  });

  it('builds store keys only in src/store/keys.ts', () => {
    const offenders = sourceFiles('src')
      .filter((file) => file !== 'src/store/keys.ts')
      .filter((file) =>
        /[`'"](hp|\$\{this\.prefix\}):\{?(t|th|asks|event|slack):/.test(
          readFileSync(join(ROOT, file), 'utf8'),
        ),
      );
    expect(offenders).toEqual([]);
  });
});
