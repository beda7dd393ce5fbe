import { describe, expect, it } from 'vitest';
import { parseApiTokens } from './api-tokens.js';

const T1 = 'a'.repeat(32);
const T2 = 'b'.repeat(40);

describe('parseApiTokens', () => {
  it('reads a comma list of name:token (split at the first colon)', () => {
    expect(parseApiTokens(`deploy:${T1}, ci-bot:${T2}`)).toEqual({
      ok: true,
      tokens: [
        { name: 'deploy', token: T1 },
        { name: 'ci-bot', token: T2 },
      ],
    });
    expect(parseApiTokens(`x:${T1}:with:colons`)).toEqual({
      ok: true,
      tokens: [{ name: 'x', token: `${T1}:with:colons` }],
    });
  });

  it.each([
    ['deploy', 'entry 1 is not name:token'],
    [`deploy:short`, 'token "deploy" is 5 characters; use at least 32'],
    [`bad name:${T1}`, 'token "bad name": the name must be'],
    [`a:${T1},a:${T2}`, 'token "a" is listed twice'],
    [`a:${T1},b:${T1}`, 'token "b" has the same token as another'],
  ])('%j is refused: %s', (text, problem) => {
    const parsed = parseApiTokens(text);
    expect(parsed.ok).toBe(false);
    expect(parsed.ok ? '' : parsed.problems.join('\n')).toContain(problem);
    expect(parsed.ok ? '' : parsed.problems.join('\n')).not.toContain(T1);
  });
});
