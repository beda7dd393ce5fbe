/**
 * Work to do after an ack (message updates, ephemerals, adding the resume) waits while clicks that arrived
 * are still being stored and acknowledged, then runs a few at a time. In a burst of clicks, every click is
 * acked first; the messages update right after. `maxDeferMs` bounds the wait, so under steady traffic, where
 * acks are always pending, work still runs within that bound.
 */
export class PostAckQueue {
  private pendingAcks = 0;
  private active = 0;
  private readonly waiting: Array<() => void> = [];
  private readonly idleWaiters = new Set<() => void>();

  /**
   * @param concurrency post-ack tasks running at once
   * @param maxDeferMs the longest a task waits for pending acks, ms
   */
  constructor(
    private readonly concurrency = 4,
    private readonly maxDeferMs = 250,
  ) {}

  /** Tasks waiting for pending acks right now (for tests and diagnostics). */
  get waitingForAcks(): number {
    return this.idleWaiters.size;
  }

  /** A request that will be acked has arrived; call {@link acked} once it was acked. */
  arrived(): void {
    this.pendingAcks++;
  }

  /** The request was acked (or will not be). */
  acked(): void {
    this.pendingAcks = Math.max(0, this.pendingAcks - 1);
    if (this.pendingAcks === 0) {
      const waiters = [...this.idleWaiters];
      this.idleWaiters.clear();
      for (const wake of waiters) wake();
    }
  }

  /** Runs `task` once no ack is pending (or after `maxDeferMs`), with at most `concurrency` tasks at once. */
  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.pendingAcks > 0) {
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
