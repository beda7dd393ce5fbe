/**
 * Work to do after an ack (message updates, ephemerals) waits while clicks that arrived are still being
 * stored and acknowledged, and for a short quiet period after the last of them (clicks of a burst arrive a
 * few ms apart), then runs a few at a time. In a burst of clicks, every click is acked first; the messages
 * update right after. `maxDeferMs` bounds the wait, so updates are never starved.
 */
export class PostAckQueue {
  private pendingAcks = 0;
  private active = 0;
  private readonly waiting: Array<() => void> = [];
  private idleWaiters: Array<() => void> = [];
  private quietTimer: NodeJS.Timeout | null = null;

  /**
   * @param concurrency post-ack tasks running at once
   * @param maxDeferMs the longest a task waits for pending acks, ms
   * @param quietMs how long no click may be pending before deferred tasks start, ms
   */
  constructor(
    private readonly concurrency = 4,
    private readonly maxDeferMs = 250,
    private readonly quietMs = 5,
  ) {}

  /** A request that will be acked has arrived; call {@link acked} once it was acked. */
  arrived(): void {
    this.pendingAcks++;
    if (this.quietTimer) {
      clearTimeout(this.quietTimer);
      this.quietTimer = null;
    }
  }

  /** The request was acked (or will not be). */
  acked(): void {
    this.pendingAcks = Math.max(0, this.pendingAcks - 1);
    if (this.pendingAcks > 0 || this.quietTimer) return;
    this.quietTimer = setTimeout(() => {
      this.quietTimer = null;
      if (this.pendingAcks > 0) return;
      const waiters = this.idleWaiters;
      this.idleWaiters = [];
      for (const wake of waiters) wake();
    }, this.quietMs);
    this.quietTimer.unref();
  }

  /** Runs `task` once no ack is pending (or after `maxDeferMs`), with at most `concurrency` tasks at once. */
  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.pendingAcks > 0 || this.quietTimer) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, this.maxDeferMs);
        timer.unref();
        this.idleWaiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    if (this.active >= this.concurrency) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.active++;
    try {
      return await task();
    } finally {
      this.active--;
      this.waiting.shift()?.();
    }
  }
}
