/** Piece lengths (code points) cycled through by {@link chunkText}; uneven like real token boundaries. */
const PIECE_LENGTHS = [9, 3, 5, 7, 11, 4, 6, 3, 8, 5];

/**
 * Splits `text` into consecutive pieces whose concatenation is `text`, deterministically, never inside a
 * surrogate pair (lengths count code points). An empty string gives no pieces.
 */
export function chunkText(text: string): string[] {
  const codePoints = Array.from(text);
  const pieces: string[] = [];
  let start = 0;
  let turn = 0;
  while (start < codePoints.length) {
    const length = PIECE_LENGTHS[turn % PIECE_LENGTHS.length] ?? 5;
    pieces.push(codePoints.slice(start, start + length).join(''));
    start += length;
    turn += 1;
  }
  return pieces;
}

/** Formats one server-sent event: optional `event:` line, a `data:` line, a blank line. */
export function sseEvent(data: string, event?: string): string {
  return event === undefined ? `data: ${data}\n\n` : `event: ${event}\ndata: ${data}\n\n`;
}
