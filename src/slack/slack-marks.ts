/** The post key of an ask's message: its post mark holds the message `ts` as soon as Slack returned it. */
export function askPostKey(askId: string): string {
  return `ask-${askId}`;
}

/**
 * A thread reply offered to its author as the answer to an open free-text question, kept until they click
 * Use or Not an answer (the ephemeral's buttons carry only `channel` and `ts`; the text stays here).
 */
export interface HeldReply {
  /** The reply's channel and `ts` (its key). */
  channel: string;
  ts: string;
  /** The thread it was written in. */
  threadTs: string;
  teamId?: string | undefined;
  /** Who wrote it: the only person who may decide. */
  userId: string;
  /** The reply's text as Slack sent it (bounded). */
  text: string;
  /** The ask and question it would answer. */
  turnId: string;
  askId: string;
  questionIndex: number;
  /** Whether "Not an answer" lets the reply continue the conversation (DMs, `THREAD_FOLLOW=all`). */
  follow: boolean;
}

/** What {@link SlackMarks.decideReply} found: the decision that stands and the held reply. */
export type ReplyDecision =
  | { status: 'decided' | 'decided-before'; decision: 'use' | 'dismiss'; reply: HeldReply }
  | { status: 'not-found' | 'forbidden' };

/**
 * Small Redis-backed facts the Slack surface keeps so that retries never post twice and thread replies
 * reach the bot only in threads it takes part in. Implemented by `RedisSlackMarks` in src/store/.
 */
export interface SlackMarks {
  /** The `ts` of the message posted under `key`, `pending` when a post began but was not confirmed, or null. */
  getPost(key: string): Promise<string | null>;
  /**
   * Claims the post under `key` (`SET NX`): true when this caller made the claim, false when a post under
   * that key was already begun (by a concurrent caller, or by an attempt that crashed).
   */
  beginPost(key: string): Promise<boolean>;
  /**
   * Gives up a begun post under `key` that Slack refused (deletes the mark only while it is `pending`), so
   * the next try posts at once instead of waiting for a concurrent poster that does not exist.
   */
  abandonPost(key: string): Promise<void>;
  /** Records the `ts` Slack returned for the post under `key`. */
  finishPost(key: string, ts: string): Promise<void>;
  /** Remembers that the bot takes part in a thread, for `ttlMs`. */
  markThread(threadKey: string, ttlMs: number): Promise<void>;
  /** True when the bot takes part in the thread. */
  isThreadMarked(threadKey: string): Promise<boolean>;
  /**
   * Events API de-duplication by `event_id`: `SET NX` with a TTL. True the first time an id is seen
   * within `ttlMs` (Slack redelivers an event it did not see acknowledged within minutes).
   */
  claimEvent(eventId: string, ttlMs: number): Promise<boolean>;
  /** Keeps a reply offered as an answer for `ttlMs` (its text bounded by the caller). */
  holdReply(reply: HeldReply, ttlMs: number): Promise<void>;
  /**
   * Records the author's decision on a held reply, once (one Lua script): the first decision stands and
   * later calls read it back. `forbidden` when `userId` did not write the reply.
   */
  decideReply(
    channel: string,
    ts: string,
    decision: 'use' | 'dismiss',
    userId: string,
  ): Promise<ReplyDecision>;
  /** Display names cached for these users, in order (null where none is cached). */
  userNames(userIds: readonly string[]): Promise<Array<string | null>>;
  /** Caches a person's display name for `ttlMs`. */
  cacheUserName(userId: string, name: string, ttlMs: number): Promise<void>;
  /** Takes the lock of redrawing an ask's message (`SET NX PX`): true when this caller holds it now. */
  claimDraw(askId: string, token: string, ttlMs: number): Promise<boolean>;
  /** Gives the redraw lock back, only when still held with `token`. */
  releaseDraw(askId: string, token: string): Promise<void>;
  /** The ask revision the message last showed (an update Slack confirmed); -1 when never drawn. */
  drawnRevision(askId: string): Promise<number>;
  /** Records that the message now shows `revision` (called by the lock holder after Slack confirmed). */
  markDrawn(askId: string, revision: number): Promise<void>;
}
