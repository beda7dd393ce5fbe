/**
 * The one global index of live asks (`<p>:asks`, see `keys.ts`): a zset with member `<turnId>|<askId>` whose
 * score says where the ask is, in three bands that never overlap:
 * - not shown yet: `-createdAt` (negative, epoch ms);
 * - shown and open: `deadline` (epoch ms);
 * - resolved, not yet consumed by its turn: {@link RESOLVED_SCORE_BASE} `+ resolvedAt` (epoch ms).
 *
 * Every move is one single-key `ZADD` (no two-key step can leave an ask in neither index, and the key needs
 * no hash tag on Redis Cluster), and moves only ever raise the score (`GT`), so a late "shown" can never
 * take a resolved ask back to open. The turn removes its ask (`ZREM`) once it consumed the resolution.
 */

/**
 * 2^52: above every epoch-ms deadline (about 1.8e12 today), and `RESOLVED_SCORE_BASE + resolvedAt` stays
 * an exact double (below 2^53) for the next 140,000 years.
 */
export const RESOLVED_SCORE_BASE = 2 ** 52;

/** The score of an ask resolved at `resolvedAt` (epoch ms). */
export function resolvedScore(resolvedAt: number): number {
  return RESOLVED_SCORE_BASE + resolvedAt;
}

/** Where an index score puts an ask (for tests and diagnostics). */
export function askIndexBand(score: number): 'unshown' | 'open' | 'resolved' {
  if (score >= RESOLVED_SCORE_BASE) return 'resolved';
  return score < 0 ? 'unshown' : 'open';
}
