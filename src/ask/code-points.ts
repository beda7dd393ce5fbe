/**
 * String length and truncation in Unicode code points, the unit JSON Schema's `maxLength` counts
 * (JSON Schema 2020-12 validation, section 6.3.1: "the number of characters ... as defined by RFC 8259",
 * i.e. code points) and the unit every `ask_question` cap uses. A lone surrogate counts as one code point.
 */

/**
 * Number of Unicode code points in `s` (an astral character such as an emoji is 1, not 2 UTF-16 units).
 * @param s any string
 * @returns the code point count, >= 0
 */
export function codePointLength(s: string): number {
  let count = 0;
  for (const _ of s) {
    count += 1;
  }
  return count;
}

/**
 * The first `max` code points of `s`; never splits a surrogate pair.
 * @param s any string
 * @param max the number of code points to keep; values < 0 are treated as 0, fractions are floored
 * @returns `s` itself when it is already short enough, else its prefix of `max` code points
 */
export function truncateCodePoints(s: string, max: number): string {
  const limit = Number.isFinite(max) ? Math.max(0, Math.floor(max)) : max > 0 ? Number.POSITIVE_INFINITY : 0;
  // Fast path: a string of at most `limit` UTF-16 units has at most `limit` code points.
  if (s.length <= limit) {
    return s;
  }
  let kept = 0;
  let end = 0;
  for (const character of s) {
    if (kept === limit) {
      return s.slice(0, end);
    }
    kept += 1;
    end += character.length;
  }
  return s;
}
