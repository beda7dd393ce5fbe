/**
 * A turn's advance starts each transition from what it just stored instead of reading it back
 * (`KnownTurn`): these tests check that what it carries is exactly what Redis holds, so skipping the read
 * changes nothing a surface, the model or the next job sees.
 */
import type { ModelMessage } from 'ai';
import { afterEach, describe, expect, it } from 'vitest';
import { advanceTurn } from '../../src/agent/advance-turn.js';
import { withAskService } from '../../src/agent/engine-deps.js';
import { runModelStep } from '../../src/agent/model-step.js';
import type { Surface } from '../../src/agent/surface.js';
import { startTurn } from '../../src/agent/thread-admission.js';
import type { AskRecord } from '../../src/asks/types.js';
import { createHarness, type Harness } from '../support/engine-harness.js';
import { testRedisUrl } from '../support/redis.js';
import { lastToolResults, scriptedModel } from '../support/scripted-model.js';

const ASK = {
  questions: [
    {
      header: 'Deploy',
      question: 'What now?',
      options: [{ label: 'Hotfix forward' }, { label: 'Roll back', recommended: true }],
    },
    { header: 'Notify', question: 'Who to tell?' },
  ],
};

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

/** `target` with its method `name` replaced by `method` (the others bound to `target`). */
function withMethod<T extends object, K extends keyof T>(target: T, name: K, method: T[K]): T {
  return new Proxy(target, {
    get(object, property) {
      if (property === name) return method;
      const value: unknown = Reflect.get(object, property, object);
      return typeof value === 'function' ? value.bind(object) : value;
    },
  });
}

/** Sets `harness` to one whose model replies at once, and counts the model's calls. */
function replyingHarness(): { h: Harness; calls: () => number } {
  let calls = 0;
  const h = createHarness({
    redisUrl: testRedisUrl(),
    worker: false,
    model: scriptedModel(() => {
      calls++;
      return { text: 'FINAL done' };
    }),
  });
  harness = h;
  return { h, calls: () => calls };
}

/** The harness's deps with a surface that keeps each ask it is asked to show, as it was handed over. */
function capturing(h: Harness): { deps: Harness['deps']; shown: AskRecord[] } {
  const shown: AskRecord[] = [];
  const surface: Surface = withMethod<Surface, 'showAsk'>(h.surface, 'showAsk', async (conversation, ask) => {
    shown.push(structuredClone(ask));
    return h.surface.showAsk(conversation, ask);
  });
  return { deps: withAskService({ ...h.deps, surface }), shown };
}

describe('a turn carries what it stored', () => {
  it('shows the ask of its pause exactly as the store holds it, with every follow-up and answerer field', async () => {
    const prompts: ModelMessage[][] = [];
    harness = createHarness({
      redisUrl: testRedisUrl(),
      worker: false,
      model: scriptedModel((prompt) => {
        prompts.push(structuredClone(prompt) as ModelMessage[]);
        return lastToolResults(prompt).length === 0
          ? { text: 'Asking.', toolCalls: [{ name: 'ask_question', input: ASK }] }
          : { text: 'FINAL done' };
      }),
      config: {
        answerers: { mode: 'list', userIds: ['U0BOB'], groupIds: ['S0ONCALL'] },
        followUp: {
          reminders: [{ kind: 'fraction', fraction: 0.5 }],
          escalation: { afterMs: 60_000, userIds: ['U0LEAD'], groupIds: [] },
          extendByMs: [600_000],
          maxDeadlineMs: 7_200_000,
          overrideWindowMs: 3_600_000,
          quorum: 1,
        },
      },
    });
    const { deps, shown } = capturing(harness);
    const start = harness.turnStart('deploy failed');
    const paused = await startTurn(deps, start);
    expect(paused.state).toBe('paused');
    const askId = (paused as { askId: string }).askId;
    const stored = await harness.store.getAsk(start.turnId, askId);
    if (!stored) throw new Error('no stored ask');
    // The surface got the ask as it stood before it was shown: the stored one less what showing wrote.
    expect(shown).toStrictEqual([{ ...stored, shownAt: null, deadline: null, messageRef: null }]);

    // The resume job's read (turn and ask with the lease) and the step after it see the stored turn.
    await deps.asks.answer({
      turnId: start.turnId,
      askId,
      questionIndex: 0,
      resolution: {
        status: 'answered',
        selected: ['Roll back'],
        other: null,
        answeredBy: 'U0BOB',
        answeredAt: new Date().toISOString(),
        source: 'button',
        assumption: null,
      },
    });
    await deps.asks.answer({
      turnId: start.turnId,
      askId,
      questionIndex: 1,
      resolution: {
        status: 'answered',
        selected: [],
        other: '#ops',
        answeredBy: 'U0BOB',
        answeredAt: new Date().toISOString(),
        source: 'thread_reply',
        assumption: null,
      },
    });
    expect(await advanceTurn(deps, start.turnId, { askId })).toEqual({ state: 'completed' });
    const ended = await harness.store.getTurn(start.turnId);
    expect(ended).toMatchObject({ status: 'completed', stepCount: 2, askCount: 1, pendingAskId: null });
    // The model's last prompt is the one the turn as stored (less its final reply) makes: not reading it
    // back after the resume's commit changed nothing the model sees.
    const fromStored: unknown[] = [];
    await runModelStep({
      model: scriptedModel((prompt) => {
        fromStored.push(structuredClone(prompt));
        return { text: 'FINAL done' };
      }),
      system: deps.config.systemPrompt,
      messages: ended?.messages.slice(0, -1) ?? [],
      tools: deps.tools,
      askTool: deps.askTool,
    });
    expect(prompts).toHaveLength(2);
    expect(prompts.at(-1)).toStrictEqual(fromStored[0]);
  });

  it('reads the turn again when someone else wrote it after the lease holder created it (its next write loses and reloads)', async () => {
    const { h, calls } = replyingHarness();
    const start = h.turnStart('hello');
    const store = h.store;
    // A writer that takes no lease (as failTurn does) moves the turn on right after its creation.
    const deps = {
      ...h.deps,
      store: withMethod(store, 'createTurn', async (turn) => {
        const created = await store.createTurn(turn);
        await store.commitTurn({ ...turn, stepCount: 5 }, 1);
        return created;
      }),
    };
    expect(await startTurn(deps, start)).toEqual({ state: 'completed' });
    expect(await store.getTurn(start.turnId)).toMatchObject({ status: 'completed', stepCount: 6, rev: 4 });
    expect(calls()).toBe(2);
  });

  it('a second run of the turn job while the first holds the lease waits (busy) and calls no model', async () => {
    const { h, calls } = replyingHarness();
    const start = h.turnStart('hello');
    // The first run (a stalled job still working) holds the lease.
    expect(await h.store.acquireTurnLease(start.turnId, 'first-run', 10_000)).toBe(true);
    expect(await startTurn(h.deps, start)).toEqual({ state: 'busy' });
    expect(calls()).toBe(0);
    expect(await h.store.getTurn(start.turnId)).toMatchObject({ rev: 1, status: 'running' });
    await h.store.releaseTurnLease(start.turnId, 'first-run');
    // Retried, it finds the turn it created and finishes it.
    expect(await startTurn(h.deps, start)).toEqual({ state: 'completed' });
    expect(calls()).toBe(1);
  });
});
