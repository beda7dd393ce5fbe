import { describe, expect, it } from 'vitest';
import { formatDuration, parseDuration } from './durations.js';

describe('parseDuration', () => {
  it.each([
    ['30m', 1_800_000],
    ['90s', 90_000],
    ['2h', 7_200_000],
    ['1500ms', 1500],
    ['7d', 604_800_000],
    ['1.5h', 5_400_000],
    ['1h30m', 5_400_000],
    ['2m30s', 150_000],
    ['90', 90_000],
    ['0.5', 500],
    ['  45S ', 45_000],
    ['1M', 60_000],
  ])('%j -> %i ms', (text, ms) => {
    expect(parseDuration(text)).toBe(ms);
  });

  it.each(['', 'abc', '-5s', '5 m', '1h 30m', '30min', '5x', 'm', '1e3', '1,5h', '30m!'])(
    '%j is not a duration',
    (text) => {
      expect(parseDuration(text)).toBeNull();
    },
  );
});

describe('formatDuration', () => {
  it.each([
    [1_800_000, '30m'],
    [5_400_000, '1h30m'],
    [1500, '1s500ms'],
    [0, '0s'],
    [604_800_000, '7d'],
    [25_000, '25s'],
  ])('%i ms -> %s', (ms, text) => {
    expect(formatDuration(ms)).toBe(text);
    expect(parseDuration(text)).toBe(ms);
  });
});
