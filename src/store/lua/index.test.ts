import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { SCRIPT_FILES, storeScripts } from './index.js';

const scripts = Object.entries(storeScripts());

describe('store Lua scripts', () => {
  it('lists every .lua file of the folder', () => {
    const files = readdirSync(fileURLToPath(new URL('.', import.meta.url))).filter((f) => f.endsWith('.lua'));
    expect(Object.values(SCRIPT_FILES).sort()).toStrictEqual(files.sort());
  });

  it.each(scripts)('%s: the key count in the file name is the highest KEYS index used', (_name, script) => {
    const used = [...script.lua.matchAll(/KEYS\[(\d+)\]/g)].map((m) => Number(m[1]));
    expect(Math.max(...used)).toBe(script.numberOfKeys);
  });

  it.each(scripts)('%s: starts with a header naming input and output', (_name, script) => {
    const header = script.lua.slice(0, script.lua.indexOf(']]'));
    expect(header.startsWith('--[[')).toBe(true);
    expect(header).toContain('Input:');
    expect(header).toContain('KEYS[1]');
    expect(header).toContain('Output');
  });
});
