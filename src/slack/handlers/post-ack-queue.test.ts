import { describe, expect, it } from 'vitest';
import { PostAckQueue } from './post-ack-queue.js';

const tick = (ms = 5) => new Promise((resolve) => setTimeout(resolve, ms));

describe('PostAckQueue', () => {
  it('holds work back while acks are pending, then runs it', async () => {
    const queue = new PostAckQueue(4, 10_000);
    const ran: string[] = [];
    queue.arrived();
    const work = queue.run(async () => {
      ran.push('update');
    });
    await tick();
    expect(ran).toEqual([]);
    queue.acked();
    await work;
    expect(ran).toEqual(['update']);
  });

  it('drops a task whose wait ran out from the waiting list, also while clicks keep arriving', async () => {
    const queue = new PostAckQueue(4, 5);
    queue.arrived(); // a click that stays pending for the whole test: acks never all go out
    await Promise.all(Array.from({ length: 20 }, () => queue.run(async () => undefined)));
    expect(queue.waitingForAcks).toBe(0);
    queue.acked();
  });

  it('waits for a quiet moment: a click arriving right after the last ack still goes first', async () => {
    const queue = new PostAckQueue(4, 10_000, 30);
    const ran: string[] = [];
    queue.arrived();
    const work = queue.run(async () => {
      ran.push('update');
    });
    queue.acked();
    await tick(5);
    queue.arrived(); // the next click of the burst, within the quiet period
    await tick(40);
    expect(ran).toEqual([]);
    queue.acked();
    await tick(5);
    expect(ran).toEqual([]);
    await work;
    expect(ran).toEqual(['update']);
  });

  it('under steady clicks (never quiet) every task still starts within maxDeferMs', async () => {
    const queue = new PostAckQueue(4, 30, 20);
    let clicking = true;
    const clicks = (async () => {
      while (clicking) {
        queue.arrived();
        await tick(2);
        queue.acked();
      }
    })();
    const waits = await Promise.all(
      Array.from({ length: 10 }, async (_, i) => {
        await tick(i * 5);
        const started = Date.now();
        await queue.run(async () => undefined);
        return Date.now() - started;
      }),
    );
    clicking = false;
    await clicks;
    // Without the cap (20 ms here) no task would start while clicks keep coming (they stop only after all
    // ran); the bound is 1 s so that a loaded machine's event-loop stall does not fail it.
    expect(Math.max(...waits)).toBeLessThan(1000);
    expect(queue.waitingForAcks).toBe(0);
  });

  it('runs work at once when no click is in flight', async () => {
    const queue = new PostAckQueue(4, 10_000);
    const started = Date.now();
    await queue.run(async () => undefined);
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('never defers longer than maxDeferMs', async () => {
    const queue = new PostAckQueue(4, 20);
    queue.arrived();
    const started = Date.now();
    await queue.run(async () => undefined);
    expect(Date.now() - started).toBeGreaterThanOrEqual(15);
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('runs at most `concurrency` tasks at once', async () => {
    const queue = new PostAckQueue(2, 10);
    let active = 0;
    let peak = 0;
    await Promise.all(
      Array.from({ length: 6 }, () =>
        queue.run(async () => {
          active++;
          peak = Math.max(peak, active);
          await tick();
          active--;
        }),
      ),
    );
    expect(peak).toBe(2);
  });
});
