/** Milliseconds per unit accepted by {@link parseDuration}. */
const UNIT_MS = {
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
} as const;

type DurationUnit = keyof typeof UNIT_MS;

const PART = /(\d+(?:\.\d+)?)(ms|s|m|h|d)/gy;
const PLAIN_SECONDS = /^\d+(?:\.\d+)?$/;

/**
 * Parses a human duration into whole milliseconds (rounded to the nearest ms).
 *
 * Accepted forms (case-insensitive, surrounding whitespace ignored):
 * - a number with a unit: `1500ms`, `90s`, `30m`, `2h`, `7d`, decimals allowed (`1.5h`);
 * - several such parts without separators, largest first or not: `1h30m`, `2m30s`;
 * - a plain number, read as **seconds**: `90` = 90 000 ms.
 *
 * @returns the duration in ms, or null when the text is not a duration (empty, negative, unknown unit,
 *   spaces between parts, ...).
 */
export function parseDuration(text: string): number | null {
  const value = text.trim().toLowerCase();
  if (value === '') return null;
  if (PLAIN_SECONDS.test(value)) return Math.round(Number(value) * 1000);
  PART.lastIndex = 0;
  let total = 0;
  let consumed = 0;
  for (;;) {
    const match = PART.exec(value);
    if (match === null) break;
    const [whole, amount, unit] = match;
    total += Number(amount) * UNIT_MS[unit as DurationUnit];
    consumed += whole.length;
  }
  if (consumed !== value.length || consumed === 0) return null;
  return Math.round(total);
}

/**
 * Formats milliseconds as the shortest exact human duration in the same syntax {@link parseDuration}
 * accepts: `1800000` -> `30m`, `5400000` -> `1h30m`, `1500` -> `1s500ms`, `0` -> `0s`.
 */
export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return `${ms}ms`;
  let rest = Math.round(ms);
  if (rest === 0) return '0s';
  const parts: string[] = [];
  for (const unit of ['d', 'h', 'm', 's', 'ms'] as const) {
    const size = UNIT_MS[unit];
    const count = Math.floor(rest / size);
    if (count > 0) {
      parts.push(`${count}${unit}`);
      rest -= count * size;
    }
  }
  return parts.join('');
}
