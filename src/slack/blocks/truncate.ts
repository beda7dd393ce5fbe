import { escapeMrkdwn } from '../mrkdwn.js';

/** Appended to a text that was cut. One UTF-16 code unit. */
export const ELLIPSIS = '…';

const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/** Splits `text` into extended grapheme clusters (user-perceived characters). */
export function graphemes(text: string): string[] {
  return Array.from(segmenter.segment(text), (part) => part.segment);
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
  for (const part of graphemes(text)) {
    if (result.length + part.length > budget) break;
    result += part;
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
  for (const part of graphemes(raw)) {
    const piece = escapeMrkdwn(part);
    if (result.length + piece.length > budget) break;
    result += piece;
  }
  return result + ELLIPSIS;
}
