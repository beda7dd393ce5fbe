/**
 * The timer lane over the due set, on real Redis and real BullMQ: claims never take a timer before it is
 * due, a claim's lease keeps other sweeps off and lapses when its sweep dies, two lanes (two processes'
 * worth) handle each timer once, and a timer re-scheduled mid-sweep survives the sweep's release.
 */
import { Queue, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { submitTurn } from '../../src/agent/thread-admission.js';
import { NO_FOLLOW_UP } from '../../src/asks/types.js';
import { type DueOutcome, DueTimerLane } from '../../src/jobs/due-timer-lane.js';
import { sweepJobId, timeoutJobId } from '../../src/jobs/job-ids.js';
import { JOB_NAMES } from '../../src/jobs/payloads.js';
import { type DueTimer, dueTimerMember, RedisDueTimers } from '../../src/store/redis-due-timers.js';
import { createHarness, type Harness, shownAsk, waitFor } from '../support/engine-harness.js';
import { programAsk } from '../support/program-ask.js';
import { testRedisClient, testRedisUrl, uniquePrefix } from '../support/redis.js';
import { lastToolResults, scriptedModel } from '../support/scripted-model.js';

const closers: Array<() => Promise<unknown>> = [];
let harness: Harness | undefined;
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
  await harness?.close();
  harness = undefined;
});

function client(): Redis {
  const redis = testRedisClient();
  closers.push(() => redis.quit());
  return redis;
}

function timer(i: number, kind: DueTimer['kind'] = 'timeout'): DueTimer {
  return { kind, turnId: `turn-${i}`, askId: `ask-${i}` };
}

/** A lane on its own queue and prefix, with `workers` BullMQ workers running its sweeps through `handle`. */
async function laneWithWorkers(
  prefix: string,
  handle: (timer: DueTimer) => Promise<DueOutcome>,
  options: { workers?: number; leaseMs?: number } = {},
): Promise<DueTimerLane[]> {
  const lanes: DueTimerLane[] = [];
  for (let w = 0; w < (options.workers ?? 1); w++) {
    const redis = client();
    const queue = new Queue(`lane-${prefix}`, { connection: redis, prefix: `{${prefix}}` });
    closers.push(() => queue.close());
    const lane = new DueTimerLane(queue, new RedisDueTimers(redis, { prefix }), {
      ...(options.leaseMs !== undefined ? { leaseMs: options.leaseMs } : {}),
      batchSize: 50,
    });
    const worker = new Worker(`lane-${prefix}`, async () => lane.sweep(handle, () => undefined), {
      connection: client(),
      prefix: `{${prefix}}`,
      concurrency: 8,
    });
    closers.push(() => worker.close());
    await worker.waitUntilReady();
    lanes.push(lane);
  }
  return lanes;
}

/**
 * A lane with one worker whose handler records the time of each attempt and throws while `fails(attempt)`
 * (attempts count from 1), with claims of `leaseMs`.
 */
async function laneFailingWhile(
  fails: (attempt: number) => boolean,
  leaseMs: number,
): Promise<{ lane: DueTimerLane | undefined; attempts: number[] }> {
  const attempts: number[] = [];
  const [lane] = await laneWithWorkers(
    uniquePrefix('lane'),
    async () => {
      attempts.push(Date.now());
      if (fails(attempts.length)) throw new Error('the handler failed');
      return 'done';
    },
    { leaseMs },
  );
  return { lane, attempts };
}

describe('the due set', () => {
  it('claims only due timers, earliest first, and a claim keeps them off until its lease ends', async () => {
    const due = new RedisDueTimers(client(), { prefix: uniquePrefix('due') });
    const now = Date.now();
    await due.set(timer(1), now - 10);
    await due.set(timer(2), now - 20);
    await due.set(timer(3), now + 60_000);
    const first = await due.claim(now, 10, 5000);
    expect(first.timers).toEqual([timer(2), timer(1)]);
    expect(first.leaseUntil).toBe(now + 5000);
    // Claimed: not due again before the lease ends, and the future one is not due at all.
    expect((await due.claim(now + 4999, 10, 5000)).timers).toEqual([]);
    const again = await due.claim(now + 5000, 10, 5000);
    // Both carry the same lease score now, so Redis orders them by member.
    expect(again.timers).toEqual([timer(1), timer(2)]);
  });

  it('a release removes only timers that still carry its lease', async () => {
    const due = new RedisDueTimers(client(), { prefix: uniquePrefix('due') });
    const now = Date.now();
    await due.set(timer(1), now - 1);
    await due.set(timer(2), now - 1);
    const claim = await due.claim(now, 10, 5000);
    // Meanwhile timer 2 is scheduled again (a moved deadline): the release must keep it.
    await due.set(timer(2), now + 30_000);
    expect(await due.release(claim.leaseUntil, claim.members)).toBe(1);
    expect(await due.dueAt(timer(1))).toBeNull();
    expect(await due.dueAt(timer(2))).toBe(now + 30_000);
  });

  it('drops members that are not timers instead of handing them to a sweep', async () => {
    const redis = client();
    const prefix = uniquePrefix('due');
    const due = new RedisDueTimers(redis, { prefix });
    await redis.zadd(`${prefix}:due`, 1, 'garbage', 2, dueTimerMember(timer(7)));
    const claim = await due.claim(Date.now(), 10, 1000);
    expect(claim.timers).toEqual([timer(7)]);
    expect(claim.malformed).toBe(1);
    expect(await due.count()).toBe(1);
  });
});

describe('the timer lane', () => {
  it('two lanes sweeping one due set handle each of 2,000 timers once, none before it is due', async () => {
    const prefix = uniquePrefix('lane');
    const handled = new Map<string, number>();
    const dueAt = new Map<string, number>();
    let early = 0;
    const [a, b] = await laneWithWorkers(
      prefix,
      async (t) => {
        handled.set(t.askId, (handled.get(t.askId) ?? 0) + 1);
        if (Date.now() < (dueAt.get(t.askId) ?? 0)) early++;
        return 'done';
      },
      { workers: 2 },
    );
    const base = Date.now() + 300;
    await Promise.all(
      Array.from({ length: 2000 }, async (_, i) => {
        const at = base + (i % 1000);
        dueAt.set(`ask-${i}`, at);
        await (i % 2 === 0 ? a : b)?.schedule(timer(i), at);
      }),
    );
    await waitFor(async () => handled.size === 2000, 20_000, 'every timer handled');
    expect([...handled.values()].every((count) => count === 1)).toBe(true);
    expect(early).toBe(0);
    await waitFor(async () => (await a?.due.count()) === 0, 5000, 'every timer released');
  });

  it('a timer whose handling fails stays claimed and is handled again when the lease ends', async () => {
    const { lane, attempts } = await laneFailingWhile((attempt) => attempt === 1, 500);
    await lane?.schedule(timer(1), Date.now() + 100);
    await waitFor(async () => attempts.length === 2, 10_000, 'the second attempt');
    expect((attempts[1] ?? 0) - (attempts[0] ?? 0)).toBeGreaterThanOrEqual(500);
    await waitFor(async () => (await lane?.due.count()) === 0, 5000, 'the timer released');
  });

  it('a timer handled as due again fires again at its new time', async () => {
    const prefix = uniquePrefix('lane');
    const fired: number[] = [];
    let again = 0;
    const [lane] = await laneWithWorkers(prefix, async () => {
      fired.push(Date.now());
      if (fired.length === 1) {
        again = Date.now() + 400;
        return { at: again };
      }
      return 'done';
    });
    await lane?.schedule(timer(1, 'nudge'), Date.now() + 50);
    await waitFor(async () => fired.length === 2, 10_000, 'the second firing');
    expect(fired[1]).toBeGreaterThanOrEqual(again);
  });

  it('a timer set already due, while a sweep runs, is taken by the next bucket', async () => {
    const prefix = uniquePrefix('lane');
    const fired = new Set<string>();
    let lane: DueTimerLane | undefined;
    [lane] = await laneWithWorkers(prefix, async (t) => {
      // The first timer's handling schedules another one that is already due.
      if (t.askId === 'ask-1') await lane?.schedule(timer(2), Date.now() - 5);
      fired.add(t.askId);
      return 'done';
    });
    await lane?.schedule(timer(1), Date.now() + 50);
    await waitFor(async () => fired.has('ask-2'), 5000, 'the timer set during the sweep');
  });
});

describe('a timer whose sweep job was never added', () => {
  it('is found by the periodic kick and fires', async () => {
    const prefix = uniquePrefix('lane');
    const fired: string[] = [];
    const [lane] = await laneWithWorkers(prefix, async (t) => {
      fired.push(t.askId);
      return 'done';
    });
    if (!lane) throw new Error('no lane');
    // What a process killed between setting the timer and adding its sweep leaves behind.
    await lane.due.set(timer(1, 'nudge'), Date.now() - 10);
    const counts = await lane.queue.getJobCounts('delayed', 'wait', 'active');
    expect(counts).toEqual({ delayed: 0, wait: 0, active: 0 });
    expect(await lane.kick()).not.toBeNull();
    await waitFor(async () => fired.includes('ask-1'), 5000, 'the repaired timer');
    await waitFor(async () => (await lane.due.count()) === 0, 5000, 'the timer released');
    expect(await lane.kick()).toBeNull();
  });
});

describe('asks shown before the due set', () => {
  it('a delayed `timeout` job of the old kind still resolves its ask', async () => {
    const model = scriptedModel((prompt) =>
      lastToolResults(prompt).length === 0
        ? {
            text: 'asking',
            toolCalls: [
              {
                name: 'ask_question',
                input: {
                  questions: [
                    { header: 'Go', question: 'Deploy?', options: [{ label: 'Yes' }, { label: 'No' }] },
                  ],
                },
              },
            ],
          }
        : { text: 'done' },
    );
    harness = createHarness({ redisUrl: testRedisUrl(), model, config: { askTimeoutMs: 800 } });
    const start = harness.turnStart('legacy timeout');
    await submitTurn(harness.deps, start);
    const ask = await shownAsk(harness, start.turnId);
    // What an ask shown by an older build has: no timer in the due set, a delayed job instead. The timer
    // is set right after the ask is marked shown: wait for it before taking it out, or it would come after.
    const timer = { kind: 'timeout', turnId: start.turnId, askId: ask.askId } as const;
    await waitFor(async () => (await harness?.lane.due.dueAt(timer)) ?? undefined, 5000, 'the due timer');
    await harness.lane.unschedule(timer);
    await harness.queue.add(
      JOB_NAMES.timeout,
      { turnId: start.turnId, askId: ask.askId },
      { jobId: timeoutJobId(ask.askId), delay: Math.max(0, (ask.deadline ?? 0) - Date.now()) },
    );
    const resolved = await waitFor(
      async () => {
        const current = await harness?.store.getAsk(start.turnId, ask.askId);
        return current?.status === 'resolved' ? current : undefined;
      },
      10_000,
      'the ask resolved by the old job',
    );
    expect(resolved.resolutions[0]?.status).toBe('assumed');
    // It was the old job that resolved it, not a due timer.
    const job = await waitFor(
      async () => {
        const current = await harness?.queue.getJob(timeoutJobId(ask.askId));
        return current?.finishedOn ? current : undefined;
      },
      10_000,
      'the old job finished',
    );
    expect(job.returnvalue).toBe('resolved');
  });
});

describe('timers far ahead', () => {
  it('add no sweep job of their own; the kick adds the one of the earliest', async () => {
    const prefix = uniquePrefix('lane');
    const [lane] = await laneWithWorkers(prefix, async () => 'done');
    if (!lane) throw new Error('no lane');
    const first = Date.now() + 3_600_000;
    for (let i = 0; i < 50; i++) await lane.schedule(timer(i), first + i * 1000);
    expect(await lane.queue.getJobCounts('delayed')).toEqual({ delayed: 0 });
    expect(await lane.kick()).toBe(first);
    expect(await lane.queue.getJobCounts('delayed')).toEqual({ delayed: 1 });
    expect(await lane.queue.getJob(sweepJobId(Math.ceil(first / lane.bucketMs)))).toBeDefined();
  });
});

describe('a timer whose handling keeps failing', () => {
  it('is tried again after a back-off that doubles', async () => {
    const { lane, attempts } = await laneFailingWhile(() => true, 200);
    await lane?.schedule(timer(1), Date.now());
    await waitFor(async () => attempts.length >= 3, 10_000, 'three attempts');
    const [a = 0, b = 0, c = 0] = attempts;
    expect(b - a).toBeGreaterThanOrEqual(200);
    expect(c - b).toBeGreaterThanOrEqual(400);
  });
});

describe('a timer of an ask whose stored state is unreadable', () => {
  it('ends once instead of being tried again', async () => {
    harness = createHarness({ redisUrl: testRedisUrl(), model: scriptedModel(() => ({ text: 'x' })) });
    const h = harness;
    await h.redis.hset(h.store.keys.ask('turn-x', 'ask-x'), 'v', '999', 'def', '{not json');
    await expect(h.store.getAsk('turn-x', 'ask-x')).rejects.toThrow();
    await h.lane.schedule({ kind: 'timeout', turnId: 'turn-x', askId: 'ask-x' }, Date.now());
    await waitFor(async () => (await h.lane.due.count()) === 0, 5000, 'the timer ended');
  });
});

describe('an ask that times out through the due set', () => {
  it('leaves no timer behind: its reminder ran before the deadline and the sweep released the timeout', async () => {
    harness = createHarness({ redisUrl: testRedisUrl(), model: scriptedModel(() => ({ text: 'x' })) });
    const h = harness;
    const definition = programAsk('lane-tidy', {
      answerers: { mode: 'anyone' },
      timeoutMs: 800,
      followUp: { ...NO_FOLLOW_UP, reminders: [{ kind: 'after', ms: 300 }] },
    });
    const opened = await h.deps.asks.open(definition.conversation, definition);
    const timeout = { kind: 'timeout', turnId: definition.scope, askId: 'lane-tidy' } as const;
    expect(await h.lane.due.dueAt(timeout)).toBe(opened?.deadline);
    expect(await h.lane.due.dueAt({ ...timeout, kind: 'nudge' })).toBe((opened?.shownAt ?? 0) + 300);
    const resolved = await waitFor(
      async () => {
        const ask = await h.store.getAsk(definition.scope, 'lane-tidy');
        return ask?.status === 'resolved' ? ask : undefined;
      },
      10_000,
      'the timeout',
    );
    expect(resolved.resolutions[0]).toMatchObject({ status: 'assumed', selected: ['Yes'] });
    // Nothing else happens: once the due set is empty and no sweep job waits, the reminder went out once.
    await waitFor(async () => (await h.lane.due.count()) === 0, 10_000, 'an empty due set');
    await waitFor(
      async () => {
        const counts = await h.lane.queue.getJobCounts('delayed', 'wait', 'active');
        return Object.values(counts).every((n) => n === 0);
      },
      10_000,
      'no sweep job left',
    );
    expect(await h.surface.calls('postNotice')).toBe(1);
  });
});
