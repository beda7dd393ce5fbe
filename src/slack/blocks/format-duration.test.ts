import { describe, expect, it } from 'vitest';
import { formatDuration } from './format-duration.js';

describe('formatDuration', () => {
  it.each([
    [0, '0 s'],
    [-5, '0 s'],
    [Number.NaN, '0 s'],
    [400, '0 s'],
    [1000, '1 s'],
    [45_000, '45 s'],
    [59_400, '59 s'],
    [59_600, '1 min'],
    [60_000, '1 min'],
    [61_000, '1 min 1 s'],
    [90_000, '1 min 30 s'],
    [150_000, '2 min 30 s'],
    [5 * 60_000, '5 min'],
    [9 * 60_000 + 59_000, '9 min 59 s'],
    [9 * 60_000 + 59_600, '10 min'],
    [10 * 60_000, '10 min'],
    [10 * 60_000 + 20_000, '10 min'],
    [10 * 60_000 + 40_000, '11 min'],
    [30 * 60_000, '30 min'],
    [59 * 60_000 + 40_000, '1 h'],
    [60 * 60_000, '1 h'],
    [90 * 60_000, '1 h 30 min'],
    [24 * 60 * 60_000, '1 d'],
    [51 * 60 * 60_000, '2 d 3 h'],
    [7 * 24 * 60 * 60_000, '7 d'],
  ])('%d ms -> %s', (ms, expected) => {
    expect(formatDuration(ms)).toBe(expected);
  });
});
