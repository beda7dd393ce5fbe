/** Small Redis-backed facts of the ask API (implemented by `RedisApiMarks` in src/store/). */
export interface ApiMarks {
  /**
   * Claims the `Idempotency-Key` `key` of `client` for `askId` (`SET NX` with a TTL), remembering the digest
   * of the request body it came with.
   * @returns the ask id that holds the key (`askId` when this call claimed it, else the earlier one) and
   *   whether the earlier request had the same body digest.
   */
  claimIdempotencyKey(
    client: string,
    key: string,
    askId: string,
    bodyDigest: string,
    ttlMs: number,
  ): Promise<{ askId: string; sameBody: boolean }>;
  /**
   * Releases `client`'s `Idempotency-Key` `key` when it still names `askId` (compare and delete), so a retry
   * after a failed create (Slack refused the message) opens a new ask instead of returning the failed one.
   */
  releaseIdempotencyKey(client: string, key: string, askId: string): Promise<void>;
  /** Counts one request of `client` in the current window of `windowMs`; returns the count so far. */
  countRequest(client: string, windowMs: number, now: number): Promise<number>;
  /** Whether the `ask.resolved` webhook of `askId` was delivered (a receiver answered 2xx). */
  isDelivered(askId: string): Promise<boolean>;
  /** Records that it was, for `ttlMs`. */
  markDelivered(askId: string, ttlMs: number): Promise<void>;
}
