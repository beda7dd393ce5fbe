import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { submitTurn } from '../../src/agent/thread-admission.js';
import { sweepJobId } from '../../src/jobs/job-ids.js';
import { startWorkerProcess, type WorkerProcess } from '../support/child-process.js';
import { createHarness, type Harness, replyAnswers, shownAsk, waitFor } from '../support/engine-harness.js';
import { testRedisUrl } from '../support/redis.js';
import { promptPairingProblems, scriptedModel } from '../support/scripted-model.js';

/**
 * Crash tests: a worker child process is SIGKILLed at a named point, a fresh one starts, and every turn
 * must still complete exactly once, with one visible ask and one reply.
 */
let harness: Harness | undefined;
const children: WorkerProcess[] = [];
afterEach(async () => {
  for (const child of children.splice(0)) await child.stop();
  await harness?.close();
  harness = undefined;
});

function env(h: Harness, extra: Record<string, string> = {}): Record<string, string> {
  return { REDIS_URL: testRedisUrl(), HP_PREFIX: h.prefix, HP_QUEUE: h.queueName, ...extra };
}

async function worker(h: Harness, extra: Record<string, string> = {}): Promise<WorkerProcess> {
  const child = await startWorkerProcess(env(h, extra));
  children.push(child);
  return child;
}

async function answerInChild(
  h: Harness,
  turnId: string,
  askId: string,
  crashAt = '',
): Promise<WorkerProcess> {
  const child = await startWorkerProcess(
    env(h, {
      HP_ANSWER: `${turnId}|${askId}|0|Hotfix forward|U0BOB`,
      HP_CRASH_AT: crashAt,
      HP_CRASH_MARKER: `${h.prefix}:answer-crash`,
    }),
    'exit',
  );
  children.push(child);
  return child;
}

async function expectCompletedOnce(h: Harness, turnId: string): Promise<void> {
  await waitFor(
    async () => (await h.store.getTurn(turnId))?.status === 'completed',
    30_000,
    'the turn to complete',
  );
  await waitFor(
    async () => (await h.store.getTurn(turnId))?.outbox.every((entry) => entry.state === 'posted'),
    10_000,
    'the reply',
  );
  const events = await h.surface.events();
  expect(events.filter((event) => event.type === 'showAsk')).toHaveLength(1);
  const replies = events.filter((event) => event.type === 'postMessage');
  expect(replies).toHaveLength(1);
  const reply = replies[0];
  if (reply?.type !== 'postMessage') throw new Error('no reply');
  expect(reply.kind).toBe('reply');
  const answers = replyAnswers(reply.text);
  expect(answers).toHaveLength(1);
  expect(answers[0]).toMatchObject({ status: 'answered', selected: ['Hotfix forward'], answeredBy: 'U0BOB' });
  for (const raw of await h.redis.lrange(`${h.prefix}:prompts`, 0, -1)) {
    expect(promptPairingProblems(JSON.parse(raw))).toEqual([]);
  }
}

function newHarness(): Harness {
  // The test process only submits and inspects; the workers are child processes.
  return createHarness({
    redisUrl: testRedisUrl(),
    model: scriptedModel(() => ({ text: 'unused' })),
    worker: false,
  });
}

describe('a worker killed with SIGKILL', () => {
  it('(a) after the pause is stored but before the ask is shown: the restarted worker shows it once', async () => {
    harness = newHarness();
    const first = await worker(harness, { HP_CRASH_AT: 'after-pause-stored' });
    const start = harness.turnStart('crash a', { turnId: randomUUID() });
    await submitTurn(harness.deps, start);
    expect((await first.exited).signal).toBe('SIGKILL');
    const paused = await harness.store.getTurn(start.turnId);
    expect(paused?.status).toBe('paused');
    expect((await harness.surface.events()).some((event) => event.type === 'showAsk')).toBe(false);

    await worker(harness);
    const ask = await shownAsk(harness, start.turnId);
    await answerInChild(harness, start.turnId, ask.askId);
    await expectCompletedOnce(harness, start.turnId);
  });

  it('(b) after the ask is shown but before its timeout timer exists: the restart sets it once', async () => {
    harness = newHarness();
    const first = await worker(harness, { HP_CRASH_AT: 'after-ask-shown' });
    const start = harness.turnStart('crash b');
    await submitTurn(harness.deps, start);
    expect((await first.exited).signal).toBe('SIGKILL');
    const ask = await shownAsk(harness, start.turnId);
    const timer = { kind: 'timeout', turnId: start.turnId, askId: ask.askId } as const;
    expect(await harness.lane.due.dueAt(timer)).toBeNull();

    await worker(harness);
    const dueAt = await waitFor(
      async () => (await harness?.lane.due.dueAt(timer)) ?? undefined,
      20_000,
      'the timeout timer',
    );
    expect(dueAt).toBe(ask.deadline);
    // Its bucket's sweep job waits for it (unless the 3 s deadline already passed and the sweep ran and was
    // removed). The lane adds the job after it sets the timer, one round trip later: wait for it, do not peek.
    const sweepId = sweepJobId(Math.ceil(dueAt / harness.lane.bucketMs));
    await waitFor(
      async () => Date.now() >= dueAt - 500 || (await harness?.queue.getJob(sweepId)) !== undefined,
      20_000,
      'the sweep job of the timeout bucket',
    );
    if (Date.now() < dueAt - 500) expect(await harness.queue.getJob(sweepId)).toBeDefined();
    await answerInChild(harness, start.turnId, ask.askId);
    await expectCompletedOnce(harness, start.turnId);
  });

  it('(c) after an answer is recorded but before the resume job exists: the sweep adds the resume', async () => {
    harness = newHarness();
    const first = await worker(harness);
    const start = harness.turnStart('crash c');
    await submitTurn(harness.deps, start);
    const ask = await shownAsk(harness, start.turnId);
    await first.stop();

    const answering = await answerInChild(harness, start.turnId, ask.askId, 'after-answer-recorded');
    expect((await answering.exited).signal).toBe('SIGKILL');
    const recorded = await harness.store.getAsk(start.turnId, ask.askId);
    expect(recorded?.status).toBe('resolved');
    expect(recorded?.resumeQueuedAt).toBeNull();

    await worker(harness);
    await expectCompletedOnce(harness, start.turnId);
  });

  it('(d) during the resumed model call: the stalled resume job runs again and replies once', async () => {
    harness = newHarness();
    const first = await worker(harness, { HP_CRASH_AT: 'during-resume-model-call' });
    const start = harness.turnStart('crash d');
    await submitTurn(harness.deps, start);
    const ask = await shownAsk(harness, start.turnId);
    await answerInChild(harness, start.turnId, ask.askId);
    expect((await first.exited).signal).toBe('SIGKILL');
    expect((await harness.store.getTurn(start.turnId))?.status).not.toBe('completed');

    await worker(harness);
    await expectCompletedOnce(harness, start.turnId);
  });
});

describe('two worker processes on one queue', () => {
  it('complete every turn exactly once', async () => {
    harness = newHarness();
    await worker(harness);
    await worker(harness);
    const starts = Array.from({ length: 30 }, (_, index) => harness?.turnStart(`turn ${index}`)).filter(
      (s) => s !== undefined,
    );
    await Promise.all(starts.map((start) => submitTurn((harness as Harness).deps, start)));
    const h = harness;
    const asks = await Promise.all(starts.map((start) => shownAsk(h, start.turnId)));
    for (const [index, ask] of asks.entries()) {
      const start = starts[index];
      if (!start) continue;
      await h.deps.store.answerQuestion(start.turnId, ask.askId, 0, {
        status: 'answered',
        selected: ['Hotfix forward'],
        other: null,
        answeredBy: 'U0BOB',
        answeredAt: new Date().toISOString(),
        source: 'button',
        assumption: null,
      });
      await h.deps.scheduler.resume(start.turnId, ask.askId);
    }
    await waitFor(
      async () => {
        const turns = await Promise.all(starts.map((start) => h.store.getTurn(start.turnId)));
        return turns.every(
          (turn) => turn?.status === 'completed' && turn.outbox.every((e) => e.state === 'posted'),
        );
      },
      60_000,
      'all turns to complete',
    );
    const events = await h.surface.events();
    const replies = events.filter((event) => event.type === 'postMessage');
    expect(replies).toHaveLength(starts.length);
    expect(new Set(replies.map((event) => (event.type === 'postMessage' ? event.key : ''))).size).toBe(
      starts.length,
    );
    expect(events.filter((event) => event.type === 'showAsk')).toHaveLength(starts.length);
    // Each turn's model saw exactly two requests: the first step and the resumed one.
    const prompts = await h.redis.lrange(`${h.prefix}:prompts`, 0, -1);
    expect(prompts).toHaveLength(starts.length * 2);
  });

  it('(t) after a timeout resolved the ask but before its message was updated: the message shows the assumption after the restart', async () => {
    harness = newHarness();
    const first = await worker(harness, { HP_CRASH_AT: 'after-timeout-resolved', HP_ASK_TIMEOUT_MS: '800' });
    const start = harness.turnStart('crash t');
    await submitTurn(harness.deps, start);
    expect((await first.exited).signal).toBe('SIGKILL');
    const ask = await shownAsk(harness, start.turnId);
    expect((await harness.store.getAsk(start.turnId, ask.askId))?.status).toBe('resolved');
    const before = await harness.surface.events();
    expect(before.filter((event) => event.type === 'syncAsk')).toEqual([]);

    await worker(harness, { HP_ASK_TIMEOUT_MS: '800' });
    await waitFor(
      async () => (await harness?.store.getTurn(start.turnId))?.status === 'completed',
      30_000,
      'the turn to complete',
    );
    const syncs = (await harness.surface.events()).filter((event) => event.type === 'syncAsk');
    expect(syncs.length).toBeGreaterThan(0);
    expect(syncs.at(-1)).toMatchObject({ askId: ask.askId, statuses: ['assumed'] });
  });
});
