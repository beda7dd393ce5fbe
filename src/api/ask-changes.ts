/**
 * Announcements that an ask changed, as a reader sees them (implemented over Redis pub/sub by
 * `RedisAskChanges` in src/store/; the ask service's program waiter announces).
 */
export interface AskChanges {
  /**
   * Calls `listener` each time ask `askId` is announced as changed, until the returned function is called.
   * Adding a listener is synchronous and the process is subscribed before it serves requests, so a reader
   * that adds its listener before it reads the ask misses no announcement made after that read.
   */
  onChange(askId: string, listener: () => void): () => void;
}

/** A reader's watch on one ask: {@link AskWatch.next} waits for the next announcement. */
export interface AskWatch {
  /**
   * Resolves at the next announcement for the ask (or at once when one came since the last call), or after
   * `ms`, whichever is first. Never rejects.
   */
  next(ms: number): Promise<void>;
  /** Wakes a pending {@link AskWatch.next} and stops listening. */
  stop(): void;
}

/**
 * Watches ask `askId`: start the watch, then read the ask, then call `next` between reads. Without
 * `changes` (no pub/sub), `next` just waits `ms`.
 */
export function watchAsk(changes: AskChanges | undefined, askId: string): AskWatch {
  let pending = false;
  let wake: (() => void) | null = null;
  const off = changes?.onChange(askId, () => {
    pending = true;
    wake?.();
  });
  return {
    next(ms) {
      if (pending) {
        pending = false;
        return Promise.resolve();
      }
      return new Promise((resolve) => {
        const timer = setTimeout(done, ms);
        function done(): void {
          clearTimeout(timer);
          wake = null;
          pending = false;
          resolve();
        }
        wake = done;
      });
    },
    stop() {
      off?.();
      wake?.();
    },
  };
}
