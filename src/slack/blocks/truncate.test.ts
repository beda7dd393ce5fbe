import { describe, expect, it } from 'vitest';
import { escapeAndTruncate, graphemes, truncateText } from './truncate.js';

const FAMILY = '👩‍👩‍👧‍👦'; // 4 people joined by ZWJ: 11 UTF-16 units, one grapheme
const FLAG = '🇯🇵'; // 2 regional indicators: 4 units
const E_ACUTE = 'e\u0301'; // e + combining acute: 2 units

function hasLoneSurrogate(text: string): boolean {
  return /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(text);
}

describe('truncateText', () => {
  it.each([
    ['short', 10, 'short'],
    ['exactly10!', 10, 'exactly10!'],
    ['abcdefghijk', 10, 'abcdefghi…'],
    ['日本語のテキストです', 5, '日本語の…'],
    ['😀😀😀', 4, '😀…'],
    ['😀😀😀', 6, '😀😀😀'],
    ['😀😀😀', 5, '😀😀…'],
    [`ab${FAMILY}`, 12, 'ab…'],
    [`ab${FAMILY}`, 13, `ab${FAMILY}`],
    [`${FLAG}${FLAG}`, 7, `${FLAG}…`],
    [`caf${E_ACUTE}s`, 5, 'caf…'],
    [`caf${E_ACUTE}sx`, 6, `caf${E_ACUTE}…`],
  ])('%j at %i -> %j', (input, limit, expected) => {
    const result = truncateText(input, limit);
    expect(result).toBe(expected);
    expect(result.length).toBeLessThanOrEqual(limit);
    expect(hasLoneSurrogate(result)).toBe(false);
  });

  it('never splits a grapheme for any limit', () => {
    const text = `x${FAMILY}日${E_ACUTE}${FLAG}😀a`;
    const parts = new Set(graphemes(text));
    for (let limit = 1; limit <= text.length + 1; limit += 1) {
      const result = truncateText(text, limit);
      expect(result.length).toBeLessThanOrEqual(limit);
      const body = result.endsWith('…') && result !== text ? result.slice(0, -1) : result;
      for (const part of graphemes(body)) expect(parts.has(part)).toBe(true);
    }
  });
});

describe('escapeAndTruncate', () => {
  it.each([
    ['a & b', 20, 'a &amp; b'],
    ['&&&&', 12, '&amp;&amp;…'],
    ['&&&&', 11, '&amp;&amp;…'],
    ['&&&&', 10, '&amp;…'],
    ['<!channel>', 100, '&lt;!channel&gt;'],
    ['<!channel>', 8, '&lt;!ch…'],
  ])('%j at %i -> %j', (input, limit, expected) => {
    const result = escapeAndTruncate(input, limit);
    expect(result).toBe(expected);
    expect(result.length).toBeLessThanOrEqual(limit);
  });
});

describe('truncation of long texts', () => {
  /** The definition: keep whole graphemes of the whole text while they fit (what the window must equal). */
  function reference(text: string, limit: number, escapePart: (part: string) => string): string {
    if (escapePart(text).length <= limit) return escapePart(text);
    let result = '';
    for (const part of graphemes(text)) {
      const piece = escapePart(part);
      if (result.length + piece.length > limit - 1) break;
      result += piece;
    }
    return `${result}…`;
  }
  const escapeEntities = (part: string) =>
    part.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
  const PIECES = ['x', '&', '<', FAMILY, FLAG, E_ACUTE, '日', '😀', '\u0301'];

  it('cuts exactly where cutting the whole text would, for mixed texts and every limit up to 60', () => {
    let seed = 7;
    const next = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed;
    };
    for (let round = 0; round < 200; round++) {
      const text = Array.from({ length: 40 }, () => PIECES[next() % PIECES.length]).join('');
      for (let limit = 1; limit <= 60; limit++) {
        expect(truncateText(text, limit)).toBe(reference(text, limit, (part) => part));
        expect(escapeAndTruncate(text, limit)).toBe(reference(text, limit, escapeEntities));
      }
    }
  });

  it('a 1,000,000-character model reply is cut without segmenting all of it', () => {
    const huge = `${'a'.repeat(2999)}${FAMILY}${'b'.repeat(1_000_000)}`;
    expect(truncateText(huge, 3000)).toBe(`${'a'.repeat(2999)}…`);
    expect(escapeAndTruncate(`&${huge}`, 3000)).toBe(`&amp;${'a'.repeat(2994)}…`);
  });
});
