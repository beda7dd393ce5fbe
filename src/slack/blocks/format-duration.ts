/** Below this, durations keep their seconds (`1 min 30 s`); from here on they are rounded to minutes. */
const SECONDS_SHOWN_BELOW_MS = 10 * 60_000;

/**
 * A short human duration for Slack texts: `45 s`, `1 min 30 s`, `30 min`, `2 h`, `1 h 30 min`, `1 d`,
 * `2 d 3 h`. Under 10 minutes it is exact to the second (so `--timeout 90s` reads `1 min 30 s`, not
 * `2 min`); from 10 minutes up it is rounded to whole minutes, and shows at most two units. Pure.
 *
 * @param ms duration in milliseconds (negative or non-finite values render as `0 s`).
 */
export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return '0 s';
  const totalSeconds = Math.round(ms / 1000);
  if (totalSeconds * 1000 < SECONDS_SHOWN_BELOW_MS) {
    if (totalSeconds < 60) return `${totalSeconds} s`;
    const minutes = Math.floor(totalSeconds / 60);
    const seconds = totalSeconds % 60;
    return seconds === 0 ? `${minutes} min` : `${minutes} min ${seconds} s`;
  }
  const totalMinutes = Math.round(ms / 60_000);
  if (totalMinutes < 60) return `${totalMinutes} min`;
  if (totalMinutes < 24 * 60) {
    const hours = Math.floor(totalMinutes / 60);
    const minutes = totalMinutes % 60;
    return minutes === 0 ? `${hours} h` : `${hours} h ${minutes} min`;
  }
  const days = Math.floor(totalMinutes / (24 * 60));
  const hours = Math.floor((totalMinutes % (24 * 60)) / 60);
  return hours === 0 ? `${days} d` : `${days} d ${hours} h`;
}
