/**
 * Work to do after an ack (message updates, ephemerals, adding the resume) waits while clicks that arrived
 * are still being stored and acknowledged, and for a short quiet period after the last ack (the clicks of a
 * burst arrive a few ms apart), then runs a few at a time. In a burst of clicks, every click is acked first;
 * the messages update right after. `maxDeferMs` bounds the wait, so under steady traffic, where acks are
 * always pending, work still starts within that bound.
 */
export class PostAckQueue {
  private pendingAcks = 0;
  private active = 0;
  private readonly waiting: Array<() => void> = [];
  private readonly idleWaiters = new Set<() => void>();
  private quietTimer: NodeJS.Timeout | null = null;

  /**
   * @param concurrency post-ack tasks running at once
   * @param maxDeferMs the longest a task waits for pending acks and the quiet period, ms
   * @param quietMs how long no click may be pending before waiting tasks start, ms
   */
  constructor(
    private readonly concurrency = 4,
    private readonly maxDeferMs = 100,
    private readonly quietMs = 5,
  ) {}

  /** Tasks waiting for pending acks right now (for tests and diagnostics). */
  get waitingForAcks(): number {
    return this.idleWaiters.size;
  }

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
      for (const wake of [...this.idleWaiters]) wake();
    }, this.quietMs);
    this.quietTimer.unref();
  }

  /**
   * Runs `task` once no ack is pending and the quiet period passed (or after `maxDeferMs`), with at most
   * `concurrency` tasks at once. With no click in flight it starts at once.
   */
  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.pendingAcks > 0 || this.quietTimer) {
      await new Promise<void>((resolve) => {
        const wake = () => {
          clearTimeout(timer);
          this.idleWaiters.delete(wake);
          resolve();
        };
        const timer = setTimeout(wake, this.maxDeferMs);
        timer.unref();
        this.idleWaiters.add(wake);
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
