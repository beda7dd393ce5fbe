import { describe, expect, it } from 'vitest';
import type { AskDefinition } from '../asks/types.js';
import { DefinitionCache, definitionDigest } from './definition-cache.js';

function definition(askId: string): AskDefinition {
  return { askId, questions: [{ header: 'H', options: [{ label: 'A' }] }] } as unknown as AskDefinition;
}

describe('definitionDigest', () => {
  it.each([
    ['{"a":1}', '{"a":1}', true],
    ['{"a":1}', '{"a":2}', false],
    ['', '', true],
  ])('digest(%j) equals digest(%j): %s', (a, b, equal) => {
    expect(definitionDigest(a) === definitionDigest(b)).toBe(equal);
    expect(definitionDigest(a)).toMatch(/^[A-Za-z0-9_-]{16}$/);
  });
});

describe('DefinitionCache', () => {
  it.each([
    { name: 'same digest', stored: 'd1', asked: 'd1' as string | undefined, hit: true },
    { name: 'other digest', stored: 'd1', asked: 'd2', hit: false },
    { name: 'no digest (record written before digests)', stored: 'd1', asked: undefined, hit: false },
  ])('get with $name: hit $hit', ({ stored, asked, hit }) => {
    const cache = new DefinitionCache();
    const value = cache.set('k', stored, definition('a'));
    expect(cache.get('k', asked)).toBe(hit ? value : undefined);
    expect(cache.entry('k')?.digest ?? '').toBe(stored);
    expect(cache.entry('other')?.digest ?? '').toBe('');
  });

  it('freezes what it stores, deeply', () => {
    const value = new DefinitionCache().set('k', 'd', definition('a'));
    expect(Object.isFrozen(value.questions[0])).toBe(true);
  });

  it('drops the least recently used entry past its capacity', () => {
    const cache = new DefinitionCache(2);
    cache.set('k0', 'd0', definition('0'));
    cache.set('k1', 'd1', definition('1'));
    cache.get('k0', 'd0'); // used: k1 is now the least recently used
    cache.set('k2', 'd2', definition('2'));
    expect(cache.entry('k0')?.digest).toBe('d0');
    expect(cache.entry('k1')).toBeUndefined();
    cache.set('k1', 'd1', definition('1'));
    cache.set('k2', 'd2', definition('2'));
    cache.set('k3', 'd3', definition('3'));
    expect([
      cache.entry('k1')?.digest ?? '',
      cache.entry('k2')?.digest ?? '',
      cache.entry('k3')?.digest ?? '',
    ]).toStrictEqual(['', 'd2', 'd3']);
  });
});
