import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
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

/** Side-effect libraries that pure folders must not import (docs/architecture.md, "Components"). */
const FORBIDDEN_IMPORTS = ['ioredis', 'bullmq', '@slack/bolt', '@slack/web-api'];
const PURE_FOLDERS = ['src/ask', 'src/asks', 'src/agent', 'src/slack/blocks', 'src/config'];

/**
 * The layers of src/ (docs/architecture.md, "Components"), lowest first. A file may import from its own
 * folder and from lower layers only; the adapters may also use each other (the store implements the Slack
 * marks, the doctor runs the other adapters' checks), and nothing below the entry points imports them.
 */
const LAYERS: ReadonlyArray<{ name: string; units: readonly string[]; peers?: boolean }> = [
  { name: 'base', units: ['errors.ts'] },
  { name: 'ask (the contract)', units: ['ask'] },
  { name: 'asks (the ask primitive)', units: ['asks'] },
  { name: 'agent (the turn loop)', units: ['agent'] },
  {
    name: 'adapters',
    units: ['config', 'model', 'ops', 'store', 'jobs', 'slack', 'api', 'mcp', 'server', 'doctor', 'log.ts'],
    peers: true,
  },
  { name: 'entry points', units: ['runtime.ts', 'main.ts', 'cli', 'cli.ts'], peers: true },
];

/** The unit of a path under src/: its top folder, or the file itself at the top. */
function unitOf(path: string): string {
  const parts = relative(join(ROOT, 'src'), join(ROOT, path)).split('/');
  return parts.length > 1 ? (parts[0] ?? '') : (parts[0] ?? '');
}

function layerOf(unit: string): number {
  return LAYERS.findIndex((layer) => layer.units.includes(unit));
}

/** Relative imports of a source file (`import … from './x.js'`, `export … from`, `import('./x.js')`), as src paths. */
function relativeImports(file: string): string[] {
  const text = readFileSync(join(ROOT, file), 'utf8');
  const specifiers = [...text.matchAll(/(?:from\s+|import\()\s*'(\.[^']+)'/g)].map((match) => match[1] ?? '');
  return specifiers.map((specifier) => relative(ROOT, join(ROOT, dirname(file), specifier)));
}

describe('architecture', () => {
  it('every unit of src/ is in a layer', () => {
    const units = new Set(sourceFiles('src').map(unitOf));
    expect([...units].filter((unit) => layerOf(unit) < 0)).toEqual([]);
  });

  it('imports between our own folders point down the layers only', () => {
    const offenders: string[] = [];
    for (const file of sourceFiles('src')) {
      const from = unitOf(file);
      const fromLayer = layerOf(from);
      for (const target of relativeImports(file)) {
        const to = unitOf(target);
        if (to === from) continue;
        const toLayer = layerOf(to);
        const peer = toLayer === fromLayer && LAYERS[fromLayer]?.peers === true;
        if (toLayer > fromLayer || (toLayer === fromLayer && !peer))
          offenders.push(`${file} (${LAYERS[fromLayer]?.name}) imports ${target} (${LAYERS[toLayer]?.name})`);
      }
    }
    expect(offenders).toEqual([]);
  });

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
