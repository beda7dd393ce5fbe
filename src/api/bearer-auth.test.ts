import { describe, expect, it } from 'vitest';
import { authenticate } from './bearer-auth.js';

const TOKENS = [
  { name: 'deploy', token: 'a'.repeat(32) },
  { name: 'ci', token: 'b'.repeat(40) },
];

describe('authenticate', () => {
  it.each([
    [`Bearer ${'a'.repeat(32)}`, 'deploy'],
    [`bearer ${'b'.repeat(40)}`, 'ci'],
    [`Bearer ${'a'.repeat(31)}`, null],
    [`Bearer ${'a'.repeat(33)}`, null],
    [`Basic ${'a'.repeat(32)}`, null],
    ['Bearer', null],
    ['', null],
    [undefined, null],
    [`Bearer ${'a'.repeat(32)} extra`, null],
  ])('%j -> %j', (header, name) => {
    expect(authenticate(header, TOKENS)).toBe(name);
  });

  it('no configured tokens: nobody', () => {
    expect(authenticate(`Bearer ${'a'.repeat(32)}`, [])).toBeNull();
  });
});
