import { describe, expect, it } from 'vitest';
import { formatDuration } from './format-duration.js';

describe('formatDuration', () => {
  it.each([
    [0, '0 s'],
    [-5, '0 s'],
    [45_000, '45 s'],
    [60_000, '1 min'],
    [30 * 60_000, '30 min'],
    [59 * 60_000 + 40_000, '1 h'],
    [60 * 60_000, '1 h'],
    [90 * 60_000, '1 h 30 min'],
    [24 * 60 * 60_000, '1 d'],
    [51 * 60 * 60_000, '2 d 3 h'],
  ])('%i ms -> %s', (ms, expected) => {
    expect(formatDuration(ms)).toBe(expected);
  });
});
