/**
 * A short human duration for Slack texts: `45 s`, `30 min`, `2 h`, `1 h 30 min`, `1 d`, `2 d 3 h`.
 * Rounded to whole minutes from one minute up. Pure.
 *
 * @param ms duration in milliseconds (negative or non-finite values render as `0 s`).
 */
export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return '0 s';
  if (ms < 59_500) return `${Math.round(ms / 1000)} s`;
  const totalMinutes = Math.max(1, Math.round(ms / 60_000));
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
