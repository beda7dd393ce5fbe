import type { AskRecord } from './types.js';

/**
 * How far an ask has moved: the number of resolved questions, plus one once the ask itself is resolved,
 * plus its other changes (`changes`: extension, votes, reminders, late answers). Every transition raises it (a question only ever gains a resolution, the status only moves forward), so
 * of two snapshots of one ask the one with the higher revision is the newer. The renderer puts it in every
 * block_id; the Slack message sync compares it with the revision last drawn. Pure.
 */
export function askRevision(ask: Pick<AskRecord, 'resolutions' | 'status'> & { changes?: number }): number {
  let resolved = 0;
  for (const resolution of ask.resolutions) if (resolution !== null && resolution !== undefined) resolved++;
  return resolved + (ask.status === 'resolved' ? 1 : 0) + (ask.changes ?? 0);
}
