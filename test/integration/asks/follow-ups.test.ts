/**
 * Reaching people, on real Redis and real BullMQ (the store's Lua scripts, the ask service, the worker's
 * nudge and timeout jobs): reminders only to those who have not answered and exactly once per point,
 * escalation at its time and not before, extension racing the timeout (one outcome each), quorum votes
 * racing (resolves once, on the second distinct person), and late answers (recorded once; a turn's agent
 * gets a new turn saying what changed).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { assumeOpenQuestions } from '../../../src/ask/assume-resolution.js';
import type { QuestionResolution } from '../../../src/ask/types.js';
import { NO_FOLLOW_UP } from '../../../src/asks/types.js';
import { createHarness, type Harness, waitFor } from '../../support/engine-harness.js';
import { programAsk, yesNoQuestions } from '../../support/program-ask.js';
import { testRedisUrl } from '../../support/redis.js';
import { lastToolResults, scriptedModel } from '../../support/scripted-model.js';

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

function answer(userId: string, label = 'Yes'): QuestionResolution {
  return {
    status: 'answered',
    selected: [label],
    other: null,
    answeredBy: userId,
    answeredAt: new Date().toISOString(),
    source: 'button',
    assumption: null,
  };
}

/** Notices the recording surface posted, by kind. */
/** A harness without a worker (the test drives the asks itself), closed after the test. */
function harnessWithoutWorker(): Harness {
  const h = createHarness({
    redisUrl: testRedisUrl(),
    model: scriptedModel(() => ({ text: 'x' })),
    worker: false,
  });
  harness = h;
  return h;
}

async function notices(h: Harness) {
  return (await h.surface.events()).flatMap((event) => (event.type === 'notice' ? [event] : []));
}

/** Waits until no job is waiting, active or delayed before `horizon` (epoch ms), so "nothing else happens" can be checked. */
async function drained(h: Harness): Promise<void> {
  await waitFor(async () => {
    const counts = await h.queue.getJobCounts('waiting', 'active', 'prioritized');
    return (counts.waiting ?? 0) + (counts.active ?? 0) + (counts.prioritized ?? 0) === 0;
  });
}

describe('reminders and escalation', () => {
  it('reminds at 50% and 90% only those who have not answered, escalates at its time, and stops once resolved', async () => {
    const h = createHarness({ redisUrl: testRedisUrl(), model: scriptedModel(() => ({ text: 'x' })) });
    harness = h;
    const definition = programAsk('remind-1', {
      questions: yesNoQuestions(2),
      timeoutMs: 3000,
      followUp: {
        ...NO_FOLLOW_UP,
        reminders: [
          { kind: 'fraction', fraction: 0.5 },
          { kind: 'fraction', fraction: 0.9 },
        ],
        escalation: { afterMs: 1000, userIds: ['U0LEAD'], groupIds: ['S0SRE'] },
      },
    });
    const opened = await h.deps.asks.open(definition.conversation, definition);
    expect(opened?.shownAt).not.toBeNull();
    const shownAt = opened?.shownAt ?? 0;
    // Bob answers the first question at once: reminders no longer name him.
    expect(
      (
        await h.deps.asks.answer({
          turnId: definition.scope,
          askId: 'remind-1',
          questionIndex: 0,
          resolution: answer('U0BOB'),
        })
      ).status,
    ).toBe('recorded');

    // The escalation target may not answer before the escalation time (the click-time flag is false then).
    const early = await h.store.answerQuestion(definition.scope, 'remind-1', 1, answer('U0LEAD'), {
      inAllowedGroup: false,
    });
    expect(early.status).toBe('forbidden');

    const escalation = await waitFor(
      async () => (await notices(h)).find((n) => n.kind === 'escalation'),
      5000,
    );
    expect(escalation.at - shownAt).toBeGreaterThanOrEqual(1000);
    expect(escalation.mentions).toEqual(['U0LEAD', 'S0SRE']);

    const first = await waitFor(async () => (await notices(h)).find((n) => n.key.endsWith('-r0')), 5000);
    expect(first.at - shownAt).toBeGreaterThanOrEqual(1500);
    // Not Bob (he answered); the listed people who did not, and the escalation targets (escalated by now).
    expect(first.mentions).toEqual(['U0ALICE', 'U0CAROL', 'U0LEAD', 'S0SRE']);
    const second = await waitFor(async () => (await notices(h)).find((n) => n.key.endsWith('-r1')), 5000);
    expect(second.at - shownAt).toBeGreaterThanOrEqual(2700);

    await waitFor(
      async () => (await h.store.getAsk(definition.scope, 'remind-1'))?.status === 'resolved',
      5000,
    );
    await drained(h);
    const all = await notices(h);
    expect(all.map((n) => n.key).sort()).toEqual([
      'nudge-remind-1-e',
      'nudge-remind-1-r0',
      'nudge-remind-1-r1',
    ]);
  });

  it('reminders follow an extended deadline: 50% of the new time to the deadline, not of the old', async () => {
    const h = createHarness({ redisUrl: testRedisUrl(), model: scriptedModel(() => ({ text: 'x' })) });
    harness = h;
    const definition = programAsk('remind-ext', {
      timeoutMs: 2000,
      followUp: {
        ...NO_FOLLOW_UP,
        reminders: [{ kind: 'fraction', fraction: 0.5 }],
        extendByMs: [2000],
        maxDeadlineMs: 60_000,
      },
    });
    const opened = await h.deps.asks.open(definition.conversation, definition);
    const shownAt = opened?.shownAt ?? 0;
    const extended = await h.deps.asks.extend({
      turnId: definition.scope,
      askId: 'remind-ext',
      userId: 'U0ALICE',
      choiceIndex: 0,
      inAllowedGroup: false,
    });
    expect(extended.status).toBe('extended');
    // The job wakes at the old point (1 s), finds it moved to 2 s (half of 4 s) and waits again.
    const reminder = await waitFor(async () => (await notices(h)).find((n) => n.kind === 'reminder'), 6000);
    expect(reminder.at - shownAt).toBeGreaterThanOrEqual(2000);
    expect(reminder.at - shownAt).toBeLessThan(3500);
    const resolved = await waitFor(async () => {
      const ask = await h.store.getAsk(definition.scope, 'remind-ext');
      return ask?.status === 'resolved' ? ask : undefined;
    }, 8000);
    expect((resolved.resolvedAt ?? 0) - shownAt).toBeGreaterThanOrEqual(4000);
  });

  it('sends no reminder after the ask resolved', async () => {
    const h = createHarness({ redisUrl: testRedisUrl(), model: scriptedModel(() => ({ text: 'x' })) });
    harness = h;
    const definition = programAsk('remind-2', {
      timeoutMs: 2000,
      followUp: { ...NO_FOLLOW_UP, reminders: [{ kind: 'fraction', fraction: 0.5 }] },
    });
    await h.deps.asks.open(definition.conversation, definition);
    await h.deps.asks.answer({
      turnId: definition.scope,
      askId: 'remind-2',
      questionIndex: 0,
      resolution: answer('U0ALICE'),
    });
    // Past the reminder point and the deadline; the nudge job ran and found the ask resolved.
    await new Promise((resolve) => setTimeout(resolve, 2300));
    await drained(h);
    expect(await notices(h)).toEqual([]);
  });
});

describe('extension against the timeout', () => {
  it('200 races at the deadline: exactly one of them wins each time, in the order Redis ran them', async () => {
    const h = harnessWithoutWorker();
    const counts = { extended: 0, timedOut: 0 };
    for (let race = 0; race < 200; race++) {
      const askId = `ext-${race}`;
      const definition = programAsk(askId, {
        timeoutMs: 1000,
        followUp: { ...NO_FOLLOW_UP, extendByMs: [60_000], maxDeadlineMs: 3_600_000 },
      });
      await h.store.openAsk(definition);
      // Shown so that the deadline falls within the next few ms: both sides are valid until then.
      const shown = await h.store.markAskShown(definition.scope, askId, Date.now() - 1000 + 3, '{"ts":"1"}');
      const deadline = shown?.deadline ?? 0;
      await new Promise((resolve) => setTimeout(resolve, race % 5));
      const [extended, timedOut] = await Promise.all([
        h.deps.asks.extend({
          turnId: definition.scope,
          askId,
          userId: 'U0ALICE',
          choiceIndex: 0,
          inAllowedGroup: false,
        }),
        (async () => {
          // The timeout job, woken at the deadline (it waits again when it finds the deadline moved).
          while (Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 1));
          return h.deps.asks.timeout(definition.scope, askId);
        })(),
      ]);
      const after = await h.store.getAsk(definition.scope, askId);
      if (extended.status === 'extended') {
        counts.extended++;
        expect(timedOut).toBe('not-due');
        expect(after?.status).toBe('open');
        expect(after?.deadline).toBe(deadline + 60_000);
        expect(after?.extendedBy).toBe('U0ALICE');
      } else {
        counts.timedOut++;
        expect(extended.status).toBe('closed');
        expect(timedOut).toBe('resolved');
        expect(after?.status).toBe('resolved');
        expect(after?.deadline).toBe(deadline);
        expect(after?.resolutions[0]?.status).toBe('assumed');
      }
    }
    expect(counts.extended + counts.timedOut).toBe(200);
    console.info(
      `extension vs timeout, 200 races: extension won ${counts.extended}, timeout won ${counts.timedOut}`,
    );
  });

  it('refuses people who may not answer and stops at the latest deadline', async () => {
    const h = harnessWithoutWorker();
    const definition = programAsk('ext-limit', {
      timeoutMs: 60_000,
      followUp: { ...NO_FOLLOW_UP, extendByMs: [30_000, 3_600_000], maxDeadlineMs: 90_000 },
    });
    await h.store.openAsk(definition);
    const shown = await h.store.markAskShown(definition.scope, 'ext-limit', Date.now(), '{"ts":"1"}');
    const input = { turnId: definition.scope, askId: 'ext-limit', choiceIndex: 0, inAllowedGroup: false };
    expect((await h.deps.asks.extend({ ...input, userId: 'U0MALLORY' })).status).toBe('forbidden');
    // "+1 h" does not fit before the latest deadline: it moves nothing (never a smaller step than offered).
    expect((await h.deps.asks.extend({ ...input, userId: 'U0BOB', choiceIndex: 1 })).status).toBe('at-limit');
    const first = await h.deps.asks.extend({ ...input, userId: 'U0BOB' });
    expect(first.status).toBe('extended');
    expect(first.ask?.deadline).toBe((shown?.shownAt ?? 0) + 90_000);
    expect((await h.deps.asks.extend({ ...input, userId: 'U0BOB' })).status).toBe('at-limit');
    // The open index follows the deadline (the sweep does not see it as overdue at the old one).
    const score = await h.redis.zscore(h.store.keys.askIndex(), `${definition.scope}|ext-limit`);
    expect(Number(score)).toBe(first.ask?.deadline);
  });
});

describe('quorum', () => {
  it('100 races of 2-of-3 with concurrent clicks: resolves once, on the second distinct person; a repeat does not count', async () => {
    const h = harnessWithoutWorker();
    for (let race = 0; race < 100; race++) {
      const askId = `quorum-${race}`;
      const definition = programAsk(askId, { followUp: { ...NO_FOLLOW_UP, quorum: 2 } });
      await h.store.openAsk(definition);
      await h.store.markAskShown(definition.scope, askId, Date.now(), '{"ts":"1"}');
      const clicks = ['U0ALICE', 'U0ALICE', 'U0BOB', 'U0CAROL'];
      const results = await Promise.all(
        clicks.map((user) =>
          h.deps.asks.record({
            turnId: definition.scope,
            askId,
            questionIndex: 0,
            resolution: answer(user),
            quorum: 2,
          }),
        ),
      );
      const statuses = results.map((result) => result.status);
      expect(statuses.filter((status) => status === 'completed')).toHaveLength(1);
      expect(statuses.filter((status) => status === 'voted')).toHaveLength(1);
      const after = await h.store.getAsk(definition.scope, askId);
      const resolution = after?.resolutions[0];
      expect(after?.status).toBe('resolved');
      expect(new Set(resolution?.voters).size).toBe(2);
      expect(resolution?.voters).toHaveLength(2);
      expect(resolution?.answeredBy).toBe(resolution?.voters?.[1]);
      // Alice's second click never counts: it is a duplicate, or comes after the resolution.
      const aliceSecond = statuses.slice(0, 2);
      expect(aliceSecond.some((status) => status === 'duplicate' || status === 'already-resolved')).toBe(
        resolution?.voters?.filter((user) => user === 'U0ALICE').length === 1,
      );
    }
  });

  it('an approval: any single Deny decides at once', async () => {
    const h = harnessWithoutWorker();
    const definition = programAsk('quorum-deny', { followUp: { ...NO_FOLLOW_UP, quorum: 3 } });
    await h.store.openAsk(definition);
    await h.store.markAskShown(definition.scope, 'quorum-deny', Date.now(), '{"ts":"1"}');
    const input = { turnId: definition.scope, askId: 'quorum-deny', questionIndex: 0, quorum: 3 };
    expect((await h.deps.asks.record({ ...input, resolution: answer('U0ALICE', 'Yes') })).status).toBe(
      'voted',
    );
    const denied = await h.deps.asks.record({ ...input, resolution: answer('U0BOB', 'No'), decisive: true });
    expect(denied.status).toBe('completed');
    expect(denied.ask?.resolutions[0]).toMatchObject({ selected: ['No'], answeredBy: 'U0BOB' });
  });
});

describe('late answers', () => {
  it('a change of an assumed answer is recorded once under concurrent submissions, only within the window', async () => {
    const h = harnessWithoutWorker();
    for (let race = 0; race < 50; race++) {
      const askId = `late-${race}`;
      const definition = programAsk(askId, { followUp: { ...NO_FOLLOW_UP, overrideWindowMs: 60_000 } });
      await h.store.openAsk(definition);
      await h.store.markAskShown(definition.scope, askId, Date.now() - 60_000, '{"ts":"1"}');
      const at = new Date().toISOString();
      await h.store.resolveOpenQuestions(
        definition.scope,
        askId,
        assumeOpenQuestions(definition.questions, 'recommended-or-first', at, 'timeout'),
      );
      const results = await Promise.all(
        ['U0ALICE', 'U0BOB'].map((by) =>
          h.deps.asks.override({
            turnId: definition.scope,
            askId,
            questionIndex: 0,
            override: { selected: ['No'], other: null, by, at },
            inAllowedGroup: false,
          }),
        ),
      );
      expect(results.map((r) => r.status).sort()).toEqual(['duplicate', 'recorded']);
      const after = await h.store.getAsk(definition.scope, askId);
      expect(after?.overrides[0]?.by).toBe(
        results.find((r) => r.status === 'recorded') === results[0] ? 'U0ALICE' : 'U0BOB',
      );
    }
    // Outside the window: refused.
    const definition = programAsk('late-closed', { followUp: { ...NO_FOLLOW_UP, overrideWindowMs: 1 } });
    await h.store.openAsk(definition);
    await h.store.markAskShown(definition.scope, 'late-closed', Date.now(), '{"ts":"1"}');
    await h.store.resolveOpenQuestions(
      definition.scope,
      'late-closed',
      assumeOpenQuestions(definition.questions, 'recommended-or-first', new Date().toISOString(), 'timeout'),
    );
    await new Promise((resolve) => setTimeout(resolve, 10));
    const late = await h.deps.asks.override({
      turnId: definition.scope,
      askId: 'late-closed',
      questionIndex: 0,
      override: { selected: ['No'], other: null, by: 'U0ALICE', at: new Date().toISOString() },
      inAllowedGroup: false,
    });
    expect(late.status).toBe('closed');
  });

  it("a turn's agent gets a new turn whose input says who replaced which assumed answer with what", async () => {
    const model = scriptedModel((prompt) => {
      const text = JSON.stringify(prompt);
      if (text.includes('[holdpoint]')) return { text: 'Understood: switching to No.' };
      if (lastToolResults(prompt).length > 0) return { text: 'Went on with the assumption.' };
      return {
        text: 'Asking.',
        toolCalls: [
          {
            name: 'ask_question',
            input: {
              questions: [
                {
                  header: 'Go',
                  question: 'Proceed?',
                  options: [{ label: 'Yes', recommended: true }, { label: 'No' }],
                },
              ],
            },
          },
        ],
      };
    });
    const h = createHarness({
      redisUrl: testRedisUrl(),
      model,
      config: { askTimeoutMs: 1000, followUp: { ...NO_FOLLOW_UP, overrideWindowMs: 60_000 } },
    });
    harness = h;
    const start = h.turnStart('deploy please');
    await h.deps.scheduler.startTurn(start);
    const turn = await waitFor(async () => {
      const found = await h.store.getTurn(start.turnId);
      return found?.status === 'completed' ? found : undefined;
    }, 10_000);
    const askId = turn.pendingAskId ?? (await h.store.listUnresumedAsks(10))[0]?.askId;
    const events = await h.surface.events();
    const shown = events.find((event) => event.type === 'showAsk');
    const id = askId ?? (shown?.type === 'showAsk' ? shown.askId : '');
    const changed = await h.deps.asks.override({
      turnId: start.turnId,
      askId: id,
      questionIndex: 0,
      override: { selected: ['No'], other: null, by: 'U0BOB', at: new Date().toISOString() },
      inAllowedGroup: false,
    });
    expect(changed.status).toBe('recorded');
    const followUp = await waitFor(async () => {
      const found = await h.store.getTurn(`override-${id}-q0`);
      return found?.status === 'completed' ? found : undefined;
    }, 10_000);
    const input = JSON.stringify(followUp.messages);
    expect(input).toContain(
      '<@U0BOB> replaced the assumed answer “Yes” with “No” for the question “Proceed?”',
    );
    // Telling the waiter again starts nothing new.
    await h.deps.asks.overridden(changed.ask ?? (await h.store.getAsk(start.turnId, id))!, 0);
    await drained(h);
    const calls = model.prompts.filter((prompt) => JSON.stringify(prompt).includes('[holdpoint]'));
    expect(calls).toHaveLength(1);
    expect((await notices(h)).filter((n) => n.kind === 'overridden')).toHaveLength(1);
  });
});

describe('a reminder with two worker processes and a SIGKILL between its claim and its post', () => {
  it('is posted exactly once, by the other worker', async () => {
    const { startWorkerProcess } = await import('../../support/child-process.js');
    // This process only opens the ask; two child workers run its jobs, the first one dies after the claim.
    const h = harnessWithoutWorker();
    const env = {
      REDIS_URL: testRedisUrl(),
      HP_PREFIX: h.prefix,
      HP_QUEUE: h.queueName,
      HP_CRASH_AT: 'after-nudge-claimed',
    };
    // The first worker is the one armed to die (it sets the crash marker first); the second starts while the
    // reminder is being claimed by the first, and takes the reminder over once the dead sweep's claim lapses.
    const first = await startWorkerProcess(env);
    const workers = [first];
    try {
      const definition = programAsk('remind-crash', {
        timeoutMs: 60_000,
        followUp: { ...NO_FOLLOW_UP, reminders: [{ kind: 'after', ms: 300 }] },
      });
      await h.deps.asks.open(definition.conversation, definition);
      const second = startWorkerProcess(env);
      const died = await first.exited;
      workers.push(await second);
      expect(died.signal).toBe('SIGKILL');
      // The claim was stored before the kill; the dead sweep's claim on the timer lapses (5 s) and the other
      // worker's sweep takes it and posts it.
      const ask = await h.store.getAsk(definition.scope, 'remind-crash');
      expect(ask?.nudged).toEqual(['r0']);
      const after = await waitFor(async () => {
        const found = await h.store.getAsk(definition.scope, 'remind-crash');
        return found?.nudged.includes('r0!') ? found : undefined;
      });
      expect(after.nudged).toEqual(['r0', 'r0!']);
      await waitFor(async () => (await notices(h)).length > 0, 10_000, 'the reminder after the crash');
      await new Promise((resolve) => setTimeout(resolve, 1500));
      expect((await notices(h)).map((n) => n.key)).toEqual(['nudge-remind-crash-r0']);
      expect(await h.surface.calls('postNotice')).toBe(1);
    } finally {
      await Promise.all(workers.map((worker) => worker.stop()));
    }
  }, 30_000);
});

describe('a late Deny of an approval that timed out with onTimeout: approve', () => {
  it('never runs the call again or undoes it; the agent is told so in a new turn', async () => {
    let runs = 0;
    const model = scriptedModel((prompt) => {
      const text = JSON.stringify(prompt);
      if (text.includes('[holdpoint]')) return { text: 'Noted: the restart already happened.' };
      if (lastToolResults(prompt).length > 0) return { text: 'Restarted.' };
      return { toolCalls: [{ name: 'deploy_restart', input: { service: 'api' } }] };
    });
    const h = createHarness({
      redisUrl: testRedisUrl(),
      model,
      tools: [
        {
          name: 'deploy_restart',
          description: 'Restarts a service',
          inputSchema: z.object({ service: z.string() }),
          source: { server: 'deploy', tool: 'restart' },
          approval: {
            approvers: null,
            timeoutMs: 800,
            onTimeout: 'approve',
            quorum: 1,
            escalation: null,
            reason: 'rule',
          },
          execute: async () => {
            runs++;
            return 'restarted';
          },
        },
      ],
      config: { followUp: { ...NO_FOLLOW_UP, overrideWindowMs: 60_000 } },
    });
    harness = h;
    const start = h.turnStart('restart the api');
    await h.deps.scheduler.startTurn(start);
    await waitFor(async () => (await h.store.getTurn(start.turnId))?.status === 'completed', 10_000);
    expect(runs).toBe(1);
    const shown = (await h.surface.events()).find((event) => event.type === 'showAsk');
    const askId = shown?.type === 'showAsk' ? shown.askId : '';
    const changed = await h.deps.asks.override({
      turnId: start.turnId,
      askId,
      questionIndex: 0,
      override: { selected: ['Deny'], other: null, by: 'U0MALLORY', at: new Date().toISOString() },
      inAllowedGroup: false,
    });
    // The approvers of this rule: the requester only.
    expect(changed.status).toBe('forbidden');
    const byRequester = await h.deps.asks.override({
      turnId: start.turnId,
      askId,
      questionIndex: 0,
      override: { selected: ['Deny'], other: null, by: 'U0ALICE', at: new Date().toISOString() },
      inAllowedGroup: false,
    });
    expect(byRequester.status).toBe('recorded');
    const followUp = await waitFor(async () => {
      const found = await h.store.getTurn(`override-${askId}-q0`);
      return found?.status === 'completed' ? found : undefined;
    }, 10_000);
    expect(JSON.stringify(followUp.messages)).toContain(
      'The call deploy.restart already ran when the approval timed out; it is not undone and not run again.',
    );
    await drained(h);
    expect(runs).toBe(1);
  });
});

describe('a quorum question that times out with too few votes', () => {
  it('keeps the votes in the assumed resolution, tells the waiter who chose what, and offers no late change', async () => {
    const h = harnessWithoutWorker();
    const definition = programAsk('quorum-short', {
      timeoutMs: 1000,
      followUp: { ...NO_FOLLOW_UP, quorum: 2, overrideWindowMs: 60_000 },
    });
    await h.store.openAsk(definition);
    await h.store.markAskShown(definition.scope, 'quorum-short', Date.now() - 1000, '{"ts":"1"}');
    const voted = await h.store.answerQuestion(definition.scope, 'quorum-short', 0, answer('U0BOB', 'No'), {
      quorum: 2,
    });
    expect(voted.status).toBe('voted');
    expect(await h.deps.asks.timeout(definition.scope, 'quorum-short')).toBe('resolved');
    const ask = await h.store.getAsk(definition.scope, 'quorum-short');
    expect(ask?.resolutions[0]).toMatchObject({
      status: 'assumed',
      selected: ['Yes'],
      votes: [{ by: 'U0BOB', selected: ['No'], other: null }],
    });
    const { formatAskResult } = await import('../../../src/ask/format-ask-result.js');
    const told = formatAskResult(ask?.questions ?? [], ask?.resolutions.map((r) => r!) ?? []);
    expect(told).toContain('not enough people agreed within the time limit');
    expect(told).toContain('<@U0BOB> chose "No"');
    // One person does not change afterwards what needed two to agree.
    const late = await h.deps.asks.override({
      turnId: definition.scope,
      askId: 'quorum-short',
      questionIndex: 0,
      override: { selected: ['No'], other: null, by: 'U0BOB', at: new Date().toISOString() },
      inAllowedGroup: false,
    });
    expect(late.status).toBe('closed');
  });
});

describe('a program ask opened again after a crash between showing it and setting its timers', () => {
  it('gets its timeout and its reminder back', async () => {
    const h = harnessWithoutWorker();
    const definition = programAsk('reopen-timers', {
      timeoutMs: 60_000,
      followUp: { ...NO_FOLLOW_UP, reminders: [{ kind: 'after', ms: 30_000 }] },
    });
    const opened = await h.deps.asks.open(definition.conversation, definition);
    const timeout = { kind: 'timeout', turnId: definition.scope, askId: 'reopen-timers' } as const;
    const nudge = { ...timeout, kind: 'nudge' } as const;
    // What the crash leaves: shown, with no timers.
    await h.lane.unschedule(timeout, nudge);
    await h.deps.asks.open(definition.conversation, definition);
    expect(await h.lane.due.dueAt(timeout)).toBe(opened?.deadline);
    expect(await h.lane.due.dueAt(nudge)).toBe((opened?.shownAt ?? 0) + 30_000);
    expect(await h.surface.calls('showAsk')).toBe(1);
  });
});
