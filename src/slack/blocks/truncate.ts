import { escapeMrkdwn } from '../mrkdwn.js';

/** Appended to a text that was cut. One UTF-16 code unit. */
export const ELLIPSIS = '…';

const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/** Splits `text` into extended grapheme clusters (user-perceived characters). */
export function graphemes(text: string): string[] {
  return Array.from(segmenter.segment(text), (part) => part.segment);
}

/**
 * Extra code units segmented past the cut: a boundary depends on the characters next to it only (UAX #29
 * looks one character ahead), so segmenting a prefix a little longer than the budget finds the same
 * boundaries up to the budget as segmenting the whole text.
 */
const WINDOW_MARGIN = 8;

/**
 * The graphemes of the start of `text` that fit in `budget` code units: only a window of `budget` plus
 * {@link WINDOW_MARGIN} code units is segmented, so the cost does not grow with the text (segmenting a
 * 160,000-character reply whole took 19 s and stalled the process).
 */
function leadingGraphemes(text: string, budget: number): Iterable<{ segment: string }> {
  return segmenter.segment(text.slice(0, Math.max(0, budget) + WINDOW_MARGIN));
}

/**
 * Truncates `text` to at most `limit` UTF-16 code units (`String.length`, which never under-counts compared
 * with code points), cutting only between grapheme clusters: never a lone surrogate, never inside an emoji
 * ZWJ sequence or flag, never separating a combining mark from its base. When cut, {@link ELLIPSIS} is
 * appended (and counted). A text within the limit comes back unchanged.
 *
 * @param limit maximum length in UTF-16 code units, ≥ 1.
 */
export function truncateText(text: string, limit: number): string {
  if (text.length <= limit) return text;
  const budget = limit - ELLIPSIS.length;
  let result = '';
  for (const { segment } of leadingGraphemes(text, budget)) {
    if (result.length + segment.length > budget) break;
    result += segment;
  }
  return result + ELLIPSIS;
}

/**
 * Escapes `raw` for mrkdwn ({@link escapeMrkdwn}) and truncates the escaped text to at most `limit` UTF-16
 * code units, cutting between grapheme clusters of the raw text, so an entity such as `&amp;` is never
 * split. Appends {@link ELLIPSIS} when cut.
 *
 * @param limit maximum length of the escaped result in UTF-16 code units, ≥ 1.
 */
export function escapeAndTruncate(raw: string, limit: number): string {
  const escaped = escapeMrkdwn(raw);
  if (escaped.length <= limit) return escaped;
  const budget = limit - ELLIPSIS.length;
  let result = '';
  // Escaping only lengthens text, so the raw graphemes that fit lie within the first `budget` code units.
  for (const { segment } of leadingGraphemes(raw, budget)) {
    const piece = escapeMrkdwn(segment);
    if (result.length + piece.length > budget) break;
    result += piece;
  }
  return result + ELLIPSIS;
}
