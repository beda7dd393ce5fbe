import { describe, expect, it } from 'vitest';
import { parseExtendChoices, parseOptionalDuration, parseReminders } from './follow-up.js';

describe('parseReminders', () => {
  it.each([
    [
      '50%,90%',
      [
        { kind: 'fraction', fraction: 0.5 },
        { kind: 'fraction', fraction: 0.9 },
      ],
    ],
    [
      '10m, 75%',
      [
        { kind: 'after', ms: 600_000 },
        { kind: 'fraction', fraction: 0.75 },
      ],
    ],
    ['50%,50%', [{ kind: 'fraction', fraction: 0.5 }]],
    ['none', []],
    ['', []],
    ['NONE', []],
  ])('%j -> %j', (text, points) => {
    expect(parseReminders(text)).toEqual({ ok: true, value: points });
  });

  it.each([
    ['0%', '0% is not between'],
    ['100%', '100% is not between'],
    ['soon', 'soon is neither a percentage'],
    ['0s', '0s is neither'],
    ['1m,2m,3m,4m,5m,6m,7m,8m,9m,10m,11m', 'at most 10'],
  ])('%j is refused: %s', (text, problem) => {
    const result = parseReminders(text);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.problem).toContain(problem);
  });
});

describe('parseExtendChoices', () => {
  it.each([
    ['15m,1h,4h', [900_000, 3_600_000, 14_400_000]],
    ['30s', [30_000]],
    ['none', []],
    ['1h,1h', [3_600_000]],
  ])('%j -> %j', (text, choices) => {
    expect(parseExtendChoices(text)).toEqual({ ok: true, value: choices });
  });

  it.each([['1m,2m,3m,4m'], ['later'], ['500ms']])('%j is refused', (text) => {
    expect(parseExtendChoices(text).ok).toBe(false);
  });
});

describe('parseOptionalDuration', () => {
  it.each([
    ['24h', 86_400_000],
    ['none', 0],
    ['0', 0],
    ['off', 0],
  ])('%j -> %d ms', (text, ms) => {
    expect(parseOptionalDuration(text)).toEqual({ ok: true, value: ms });
  });

  it('refuses what is not a duration', () => {
    expect(parseOptionalDuration('tomorrow')).toEqual({
      ok: false,
      problem: 'tomorrow is not a duration (e.g. 20m, 24h) or none',
    });
  });
});
