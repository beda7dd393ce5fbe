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
  /** Records the `ts` Slack returned for the post under `key`. */
  finishPost(key: string, ts: string): Promise<void>;
  /** Remembers that the bot takes part in a thread, for `ttlMs`. */
  markThread(threadKey: string, ttlMs: number): Promise<void>;
  /** True when the bot takes part in the thread. */
  isThreadMarked(threadKey: string): Promise<boolean>;
}
