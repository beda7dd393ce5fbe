import { describe, expect, it } from 'vitest';
import { codePointLength, truncateCodePoints } from './code-points.js';

describe('codePointLength', () => {
  it.each([
    ['', 0],
    ['abc', 3],
    ['🚀', 1], // 2 UTF-16 units
    ['a🚀b', 3],
    ['é', 1], // precomposed U+00E9
    ['e\u0301', 2], // e + combining acute: two code points
    ['👍🏽', 2], // emoji + skin tone modifier
    ['\uD800', 1], // lone high surrogate
  ])('%j has %i code points', (text, expected) => {
    expect(codePointLength(text)).toBe(expected);
  });
});

describe('truncateCodePoints', () => {
  it.each([
    ['abcdef', 3, 'abc'],
    ['abc', 3, 'abc'],
    ['abc', 10, 'abc'],
    ['🚀🚀🚀', 2, '🚀🚀'],
    ['a🚀b', 2, 'a🚀'],
    ['a🚀b', 1, 'a'],
    ['abc', 0, ''],
    ['abc', -1, ''],
    ['abc', 1.9, 'a'],
  ])('%j to %d is %j', (text, max, expected) => {
    expect(truncateCodePoints(text, max)).toBe(expected);
  });

  it('never leaves a lone surrogate from a pair it split', () => {
    for (let max = 0; max <= 6; max += 1) {
      const cut = truncateCodePoints('🚀x🚀y🚀', max);
      expect(cut).not.toMatch(/[\uD800-\uDBFF]$/);
      expect(codePointLength(cut)).toBe(Math.min(max, 5));
    }
  });
});
