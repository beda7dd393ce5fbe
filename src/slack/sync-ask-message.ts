import { randomUUID } from 'node:crypto';
import type { WebClient } from '@slack/web-api';
import { askRevision } from '../asks/ask-revision.js';
import type { AskRecord } from '../asks/types.js';
import { parseMessageRef } from './message-ref.js';
import type { SlackMarks } from './slack-marks.js';
import { updateAskMessage } from './update-ask-message.js';

/**
 * How long one process may hold an ask's redraw lock, in ms: longer than one `chat.update` with the Web
 * API client's retries (10 s timeout, 3 retries). A holder that dies leaves it to lapse; the next
 * resolution step (the resume, the timeout job, the sweep) draws then.
 */
export const DRAW_LOCK_MS = 45_000;

/** Rounds of draw-then-look-again one call makes at most (each round draws a newer revision). */
const MAX_ROUNDS = 8;

/** What {@link syncAskMessage} needs. */
export interface SyncAskMessageDeps {
  client: WebClient;
  marks: SlackMarks;
  /** A fresh read of the ask from the store (null when it is gone). */
  readAsk: () => Promise<AskRecord | null>;
  /**
   * Called once after a call that drew, with the newest ask it drew (the Home tabs that list it follow).
   * Must not throw; awaited after the lock is given back.
   */
  onDrawn?: ((ask: AskRecord) => Promise<void>) | undefined;
}

/** How a sync ended: drawn, already current, another process is drawing (it will draw this too), or nothing to draw. */
export type SyncOutcome = 'drawn' | 'current' | 'busy' | 'gone';

/**
 * Makes an ask's Slack message show the ask as stored now, and converge on it whatever order updates
 * arrive in (Slack has no compare-and-set on `chat.update`). One process at a time draws a given ask (a
 * lock in Redis); it renders from a fresh read, records the revision Slack confirmed, and after giving the
 * lock back reads again: when the ask moved on meanwhile (an answer whose own sync found the lock taken),
 * it draws again. So the last change is always drawn by someone, an older snapshot never lands after a
 * newer one, and a revision already drawn is not drawn twice.
 * @param first the ask as the caller last saw it (saves the first read); the sync reads again later anyway.
 * @throws the Web API's error when Slack refuses the update (the lock is given back first).
 */
export async function syncAskMessage(
  deps: SyncAskMessageDeps,
  askId: string,
  first?: AskRecord | null,
): Promise<SyncOutcome> {
  let drawn: AskRecord | null = null;
  const outcome = await syncRounds(deps, askId, first ?? null, (ask) => {
    drawn = ask;
  });
  if (drawn && deps.onDrawn) await deps.onDrawn(drawn);
  return outcome;
}

async function syncRounds(
  deps: SyncAskMessageDeps,
  askId: string,
  first: AskRecord | null,
  onDrawn: (ask: AskRecord) => void,
): Promise<SyncOutcome> {
  let outcome: SyncOutcome = 'current';
  let known = first;
  // Fast path (the resume after a click, a timeout job run again): the revision was drawn already. Safe
  // without the lock: whoever drew it had Slack confirm it, and any older update still in flight is
  // followed by its sender's own look-again.
  if (known && askRevision(known) <= (await deps.marks.drawnRevision(askId))) return 'current';
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const token = randomUUID();
    if (!(await deps.marks.claimDraw(askId, token, DRAW_LOCK_MS)))
      return outcome === 'drawn' ? outcome : 'busy';
    try {
      // Read under the lock: what is drawn now can only be newer than anything drawn before.
      const ask = round === 0 && known ? known : await deps.readAsk();
      known = null;
      const ref = parseMessageRef(ask?.messageRef);
      if (!ask || !ref) return outcome === 'drawn' ? outcome : 'gone';
      const revision = askRevision(ask);
      if (revision > (await deps.marks.drawnRevision(askId))) {
        await updateAskMessage(deps.client, ask, ref, { now: Date.now() });
        await deps.marks.markDrawn(askId, revision);
        outcome = 'drawn';
        onDrawn(ask);
      }
    } finally {
      await deps.marks.releaseDraw(askId, token);
    }
    const now = await deps.readAsk();
    if (!now || askRevision(now) <= (await deps.marks.drawnRevision(askId))) return outcome;
  }
  return outcome;
}
