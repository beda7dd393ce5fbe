import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const root = new URL('../../../', import.meta.url);
const read = (path: string): string => readFileSync(new URL(path, root), 'utf8');

describe('LICENSE', () => {
  const license = read('LICENSE');
  const pkg = JSON.parse(read('package.json')) as { license?: string };

  it('is the license package.json names (MIT), held by the holdpoint contributors', () => {
    expect(pkg.license).toBe('MIT');
    expect(license.split('\n')[0]).toBe('MIT License');
    expect(license).toMatch(/^Copyright \(c\) 2026 holdpoint contributors$/m);
    expect(license).toContain('Permission is hereby granted, free of charge, to any person obtaining a copy');
    expect(license).toContain('THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND');
  });

  it('goes into the runtime image, and the build context has it', () => {
    const dockerfile = read('Dockerfile');
    const runtime = dockerfile.slice(dockerfile.indexOf(' AS runtime'));
    expect(runtime).toMatch(/^COPY [^\n]*\bLICENSE\b[^\n]* \.\/$/m);
    const ignored = read('.dockerignore')
      .split('\n')
      .map((line) => line.trim());
    expect(ignored).not.toContain('LICENSE');
    expect(ignored).not.toContain('*');
  });
});
