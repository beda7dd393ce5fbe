// Copies the non-TypeScript runtime assets (the store's Lua scripts) next to the compiled modules:
// src/**/*.lua -> dist/src/**/*.lua. Run by `npm run build`.
import { cpSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';

function walk(dir) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) walk(path);
    else if (name.endsWith('.lua')) {
      const target = join('dist', path);
      mkdirSync(dirname(target), { recursive: true });
      cpSync(path, target);
    }
  }
}
walk('src');
