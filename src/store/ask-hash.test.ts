import { describe, expect, it } from 'vitest';
import {
  DEFINITION_PART_BYTES,
  definitionJsonOf,
  definitionPartsArg,
  MAX_DEFINITION_PARTS,
} from './ask-hash.js';

const bytes = (text: string) => Buffer.byteLength(text, 'utf8');

describe('definitionPartsArg', () => {
  it.each([
    ['empty', ''],
    ['ASCII shorter than one part', '{"a":1}'],
    ['ASCII of exactly one part', 'x'.repeat(DEFINITION_PART_BYTES)],
    ['ASCII one byte past a part', 'x'.repeat(DEFINITION_PART_BYTES + 1)],
    ['two-byte characters across borders', `"${'é'.repeat(100)}"`],
    ['three-byte characters across borders', `"${'配置'.repeat(50)}"`],
    ['four-byte characters across borders', `"${'🚦'.repeat(40)}"`],
    ['a mix, each offset', `{"q":"${'a🙂é配'.repeat(30)}"}`],
  ])('%s: parts of at most 64 bytes that join back to the text', (_name, json) => {
    const parts = definitionPartsArg(json)
      .split('\n')
      .filter((part) => part !== '');
    for (const part of parts) expect(bytes(part)).toBeLessThanOrEqual(DEFINITION_PART_BYTES);
    // No part was cut inside a character (a cut one decodes to U+FFFD).
    for (const part of parts) expect(part).not.toContain('\uFFFD');
    expect(parts.join('')).toBe(json);
    expect(parts.length).toBeLessThanOrEqual(Math.ceil(bytes(json) / (DEFINITION_PART_BYTES - 3)));
  });

  it('fills parts as far as a character allows (at most 3 bytes short)', () => {
    const parts = definitionPartsArg(`"${'🚦'.repeat(40)}"`).split('\n');
    for (const part of parts.slice(0, -1))
      expect(bytes(part)).toBeGreaterThanOrEqual(DEFINITION_PART_BYTES - 3);
  });

  it('keeps a definition longer than the parts can hold whole (it would not be a listpack anyway)', () => {
    const atLimit = 'x'.repeat(MAX_DEFINITION_PARTS * (DEFINITION_PART_BYTES - 3));
    expect(definitionPartsArg(atLimit).split('\n').length).toBeLessThanOrEqual(MAX_DEFINITION_PARTS);
    const long = 'é'.repeat(3000);
    expect(definitionPartsArg(long)).toBe(long);
  });

  it('refuses text with a raw newline (not JSON.stringify output)', () => {
    expect(() => definitionPartsArg('{"a":\n1}')).toThrow(RangeError);
  });
});

describe('definitionJsonOf', () => {
  it.each([
    ['whole in def (stored before the parts)', { def: '{"a":1}' }, '{"a":1}'],
    ['def wins over parts', { def: '{"a":1}', dn: '1', d0: 'x' }, '{"a":1}'],
    ['parts in order', { dn: '3', d0: '{"a', d1: '":', d2: '1}' }, '{"a":1}'],
    ['a part missing', { dn: '3', d0: '{"a', d2: '1}' }, undefined],
    ['no definition', { status: 'open' }, undefined],
    ['a count that is not a number', { dn: 'x', d0: '{}' }, undefined],
  ])('%s', (_name, hash, expected) => {
    expect(definitionJsonOf(hash)).toBe(expected);
  });
});
