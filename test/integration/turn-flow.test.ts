import { afterEach, describe, expect, it } from 'vitest';
import { failTurn } from '../../src/agent/end-turn.js';
import { submitTurn } from '../../src/agent/thread-admission.js';
import { pairingProblems } from '../../src/agent/tool-messages.js';
import type { TurnStart } from '../../src/agent/turn-start.js';
import { formatAskResult } from '../../src/ask/format-ask-result.js';
import type { QuestionResolution, TimeoutPolicy } from '../../src/ask/types.js';
import type { AskRecord } from '../../src/asks/types.js';
import { createHarness, type Harness, replyAnswers, shownAsk, waitFor } from '../support/engine-harness.js';
import { testRedisUrl } from '../support/redis.js';
import { lastToolResults, promptPairingProblems, scriptedModel } from '../support/scripted-model.js';

const DEPLOY_ASK = {
  questions: [
    {
      header: 'Deploy',
      question: 'The payments-api deploy failed. What now?',
      options: [
        { label: 'Hotfix forward', description: 'Patch and redeploy.' },
        { label: 'Roll back to v2.14.3', description: 'Safe, known good.', recommended: true },
      ],
    },
  ],
};

const TWO_QUESTIONS = {
  questions: [
    { header: 'Q1', question: 'Pick A or B?', options: [{ label: 'A', recommended: true }, { label: 'B' }] },
    { header: 'Q2', question: 'Pick C or D?', options: [{ label: 'C' }, { label: 'D' }] },
  ],
};

/** Starts a turn with `text` on `h` and waits until its ask is shown. */
async function startPausedTurn(
  h: Harness,
  text: string,
  startOptions?: Parameters<Harness['turnStart']>[1],
): Promise<{ start: TurnStart; ask: AskRecord }> {
  const start = h.turnStart(text, startOptions);
  await submitTurn(h.deps, start);
  return { start, ask: await shownAsk(h, start.turnId) };
}

/** A model that asks `ask` first, then replies with the text of the tool results it received. */
function askThenEcho(ask: unknown) {
  return scriptedModel((prompt) => {
    const results = lastToolResults(prompt);
    if (results.length === 0)
      return { text: 'I need to ask first.', toolCalls: [{ name: 'ask_question', input: ask }] };
    return { text: `FINAL\n${results.map((result) => result.text).join('\n---\n')}` };
  });
}

function answered(
  label: string,
  userId: string,
  source: QuestionResolution['source'] = 'button',
): QuestionResolution {
  return {
    status: 'answered',
    selected: [label],
    other: null,
    answeredBy: userId,
    answeredAt: new Date().toISOString(),
    source,
    assumption: null,
  };
}

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

async function finalReply(h: Harness, turnId: string) {
  return waitFor(
    async () => {
      const events = await h.surface.events();
      const post = events.find((event) => event.type === 'postMessage' && event.key.endsWith(turnId));
      return post?.type === 'postMessage' ? post : undefined;
    },
    15_000,
    'the final reply',
  );
}

describe('pause, answer, resume', () => {
  it('resumes with the real answer and the model receives exactly the formatter output', async () => {
    const model = askThenEcho(DEPLOY_ASK);
    harness = createHarness({ redisUrl: testRedisUrl(), model });
    const { start, ask } = await startPausedTurn(harness, 'deploy failed, what now?');
    expect(ask.questions[0]?.options?.map((o) => o.label)).toEqual([
      'Roll back to v2.14.3',
      'Hotfix forward',
    ]);

    const resolution = answered('Hotfix forward', 'U0BOB');
    const result = await harness.deps.asks.answer({
      turnId: start.turnId,
      askId: ask.askId,
      questionIndex: 0,
      resolution,
    });
    expect(result.status).toBe('completed');

    const reply = await finalReply(harness, start.turnId);
    expect(reply.kind).toBe('reply');
    expect(reply.text).toBe(
      `FINAL\n${formatAskResult(ask.questions, [resolution], { timeoutMs: ask.timeoutMs })}`,
    );
    const parsed = replyAnswers(reply.text);
    expect(parsed[0]).toMatchObject({
      status: 'answered',
      selected: ['Hotfix forward'],
      answeredBy: 'U0BOB',
      source: 'button',
    });
    for (const prompt of model.prompts) expect(promptPairingProblems(prompt)).toEqual([]);
    expect(model.prompts).toHaveLength(2);
    // The reply is posted first and marked posted in the outbox after: wait for the mark.
    const turn = await waitFor(
      async () => {
        const current = await harness?.store.getTurn(start.turnId);
        return current?.outbox.every((entry) => entry.state === 'posted') ? current : undefined;
      },
      10_000,
      'the outbox marked posted',
    );
    expect(turn.status).toBe('completed');
    // The timeout timer was tidied away: the ask resolves exactly once.
    await waitFor(
      async () =>
        (await harness?.lane.due.dueAt({ kind: 'timeout', turnId: start.turnId, askId: ask.askId })) === null,
      5000,
      'the timeout timer removed',
    );
  });
});

describe('timeout', () => {
  const cases: Array<{
    policy: TimeoutPolicy;
    q1: string[];
    q2: string[];
    a1: string | null;
    a2: string | null;
  }> = [
    { policy: 'recommended-or-first', q1: ['A'], q2: ['C'], a1: 'recommended', a2: 'first_option' },
    { policy: 'recommended-only', q1: ['A'], q2: [], a1: 'recommended', a2: 'no_answer' },
    { policy: 'no-answer', q1: [], q2: [], a1: 'no_answer', a2: 'no_answer' },
  ];
  for (const testCase of cases) {
    it(`resolves unanswered questions by the ${testCase.policy} policy and tells the model they are assumptions`, async () => {
      const model = askThenEcho(TWO_QUESTIONS);
      harness = createHarness({
        redisUrl: testRedisUrl(),
        model,
        config: { askTimeoutMs: 400, timeoutPolicy: testCase.policy },
      });
      const { start, ask } = await startPausedTurn(harness, 'two questions');
      const reply = await finalReply(harness, start.turnId);
      const answers = replyAnswers(reply.text);
      expect(answers.map((answer) => answer.status)).toEqual(['assumed', 'assumed']);
      expect(answers.map((answer) => answer.source)).toEqual(['timeout', 'timeout']);
      expect(answers[0]?.selected).toEqual(testCase.q1);
      expect(answers[1]?.selected).toEqual(testCase.q2);
      expect(answers.map((answer) => answer.assumption)).toEqual([testCase.a1, testCase.a2]);
      expect(reply.text).toMatch(/nobody answered/i);
      const resolvedAt = Date.parse(answers[0]?.answeredAt ?? '');
      expect(resolvedAt).toBeGreaterThanOrEqual(ask.deadline ?? Number.POSITIVE_INFINITY);
    });
  }

  it('keeps answers given before the timeout and assumes only the rest', async () => {
    const model = askThenEcho(TWO_QUESTIONS);
    harness = createHarness({ redisUrl: testRedisUrl(), model, config: { askTimeoutMs: 600 } });
    const { start, ask } = await startPausedTurn(harness, 'partial');
    const first = await harness.deps.asks.answer({
      turnId: start.turnId,
      askId: ask.askId,
      questionIndex: 0,
      resolution: answered('B', 'U0BOB'),
    });
    expect(first.status).toBe('recorded');
    const reply = await finalReply(harness, start.turnId);
    const answers = replyAnswers(reply.text);
    expect(answers[0]).toMatchObject({
      status: 'answered',
      selected: ['B'],
      answeredBy: 'U0BOB',
      source: 'button',
    });
    expect(answers[1]).toMatchObject({
      status: 'assumed',
      selected: ['C'],
      source: 'timeout',
      answeredBy: null,
    });
    const updates = (await harness.surface.events()).filter((event) => event.type === 'syncAsk');
    expect(updates.at(-1)).toMatchObject({ statuses: ['answered', 'assumed'] });
  });
});

describe('a step with ask_question and another tool call', () => {
  it('does not run the other tool before the answer, says why, and keeps the pairing rule on every request', async () => {
    let runbookRuns = 0;
    const model = scriptedModel((prompt, index) => {
      if (index === 0) {
        return {
          text: 'Let me check the runbook and ask you.',
          toolCalls: [
            { id: 'toolu_A', name: 'lookup_runbook', input: { service: 'payments' } },
            { id: 'toolu_B', name: 'ask_question', input: DEPLOY_ASK },
          ],
        };
      }
      if (index === 1)
        return { toolCalls: [{ id: 'toolu_C', name: 'lookup_runbook', input: { service: 'payments' } }] };
      return {
        text: `FINAL\n${lastToolResults(prompt)
          .map((r) => `${r.toolName}:${r.text}`)
          .join('\n')}`,
      };
    });
    const { z } = await import('zod');
    harness = createHarness({
      redisUrl: testRedisUrl(),
      model,
      tools: [
        {
          name: 'lookup_runbook',
          description: 'Looks up a runbook',
          inputSchema: z.object({ service: z.string() }),
          execute: async () => {
            runbookRuns++;
            return 'runbook: roll back with deployctl';
          },
        },
      ],
    });
    const { start, ask } = await startPausedTurn(harness, 'help');
    expect(runbookRuns).toBe(0);
    const paused = await harness.store.getTurn(start.turnId);
    const heldBack = paused?.messages.at(-1);
    expect(heldBack?.role).toBe('tool');
    expect(JSON.stringify(heldBack)).toMatch(/held back/);

    await harness.deps.asks.answer({
      turnId: start.turnId,
      askId: ask.askId,
      questionIndex: 0,
      resolution: answered('Hotfix forward', 'U0BOB'),
    });
    const reply = await finalReply(harness, start.turnId);
    expect(reply.text).toContain('lookup_runbook:runbook: roll back with deployctl');
    expect(runbookRuns).toBe(1);
    // The resumed request answered both calls of the paused step, in call order, each once.
    const resumed = model.prompts[1];
    expect(resumed).toBeDefined();
    const toolMessage = resumed?.at(-1);
    expect(toolMessage?.role).toBe('tool');
    if (toolMessage?.role === 'tool') {
      expect(
        toolMessage.content.map((part) => (part.type === 'tool-result' ? part.toolCallId : part.type)),
      ).toEqual(['toolu_A', 'toolu_B']);
    }
    for (const prompt of model.prompts) expect(promptPairingProblems(prompt)).toEqual([]);
  });
});

describe('invalid ask_question calls', () => {
  it('returns the error to the model and ends the turn after three invalid calls with a clear message', async () => {
    const model = scriptedModel(() => ({ toolCalls: [{ name: 'ask_question', input: { questions: [] } }] }));
    harness = createHarness({ redisUrl: testRedisUrl(), model });
    const start = harness.turnStart('bad asks');
    await submitTurn(harness.deps, start);
    const reply = await finalReply(harness, start.turnId);
    expect(reply.kind).toBe('error');
    expect(reply.text).toMatch(/3 invalid ask_question calls/);
    expect(model.prompts).toHaveLength(3);
    // The model saw an error naming the path and the limit after each invalid call.
    const second = lastToolResults(model.prompts[1] ?? []);
    expect(second[0]?.isError).toBe(true);
    expect(second[0]?.text).toContain('questions');
    expect((await harness.surface.events()).some((event) => event.type === 'showAsk')).toBe(false);
    expect(await harness.redis.keys(`${harness.prefix}:*ask:*`)).toEqual([]);
  });

  it('lets the model fix an invalid call and then pauses on the valid one', async () => {
    const model = scriptedModel((prompt, index) => {
      if (index === 0)
        return {
          toolCalls: [
            { name: 'ask_question', input: { questions: [{ question: 'x', options: ['only one'] }] } },
          ],
        };
      if (index === 1) return { toolCalls: [{ name: 'ask_question', input: DEPLOY_ASK }] };
      return { text: `FINAL\n${lastToolResults(prompt)[0]?.text}` };
    });
    harness = createHarness({ redisUrl: testRedisUrl(), model });
    const { start, ask } = await startPausedTurn(harness, 'fix it');
    expect(lastToolResults(model.prompts[1] ?? [])[0]?.text).toContain('questions[0].options');
    await harness.deps.asks.answer({
      turnId: start.turnId,
      askId: ask.askId,
      questionIndex: 0,
      resolution: answered('Hotfix forward', 'U0BOB'),
    });
    expect((await finalReply(harness, start.turnId)).kind).toBe('reply');
  });
});

describe('other pause paths', () => {
  it('a second ask_question call in the same step gets an error result asking to batch', async () => {
    const model = scriptedModel((prompt, index) => {
      if (index === 0) {
        return {
          toolCalls: [
            { id: 'c1', name: 'ask_question', input: DEPLOY_ASK },
            { id: 'c2', name: 'ask_question', input: TWO_QUESTIONS },
          ],
        };
      }
      return {
        text: `FINAL\n${lastToolResults(prompt)
          .map((r) => `${r.isError}:${r.text}`)
          .join('\n---\n')}`,
      };
    });
    harness = createHarness({ redisUrl: testRedisUrl(), model });
    const { start, ask } = await startPausedTurn(harness, 'two asks');
    expect(ask.waiter).toMatchObject({ kind: 'turn', toolCallId: 'c1' });
    await harness.deps.asks.answer({
      turnId: start.turnId,
      askId: ask.askId,
      questionIndex: 0,
      resolution: answered('Hotfix forward', 'U0BOB'),
    });
    const reply = await finalReply(harness, start.turnId);
    const [first, second] = reply.text.slice('FINAL\n'.length).split('\n---\n');
    expect(first?.startsWith('false:')).toBe(true);
    expect(second).toMatch(/^true:.*one ask_question call/s);
  });

  it('an ask that cannot be shown resolves at once as not shown, and the model is told', async () => {
    const model = askThenEcho(DEPLOY_ASK);
    harness = createHarness({ redisUrl: testRedisUrl(), model });
    await harness.surface.failShowAsk(3);
    const start = harness.turnStart('cannot show');
    await submitTurn(harness.deps, start);
    const reply = await finalReply(harness, start.turnId);
    const answers = replyAnswers(reply.text);
    expect(answers[0]).toMatchObject({ status: 'assumed', source: 'not_shown', selected: [] });
    expect(reply.text).toMatch(/could not be shown/i);
  });

  it('the requester can cancel; anyone else is forbidden; the turn goes on with a canceled result', async () => {
    const model = askThenEcho(DEPLOY_ASK);
    harness = createHarness({ redisUrl: testRedisUrl(), model });
    const { start, ask } = await startPausedTurn(harness, 'cancel me', { userId: 'U0ALICE' });
    expect(
      (await harness.deps.asks.cancel({ turnId: start.turnId, askId: ask.askId, userId: 'U0BOB' })).status,
    ).toBe('forbidden');
    expect(
      (await harness.deps.asks.cancel({ turnId: start.turnId, askId: ask.askId, userId: 'U0ALICE' })).status,
    ).toBe('completed');
    const reply = await finalReply(harness, start.turnId);
    const answers = replyAnswers(reply.text);
    expect(answers[0]).toMatchObject({ status: 'canceled', answeredBy: 'U0ALICE' });
  });

  it('a second ask in the same turn gets its own timeout timer and resolves by itself', async () => {
    const model = scriptedModel((prompt, index) => {
      if (index === 0) return { toolCalls: [{ name: 'ask_question', input: DEPLOY_ASK }] };
      if (index === 1) return { toolCalls: [{ name: 'ask_question', input: TWO_QUESTIONS }] };
      return { text: `FINAL\n${lastToolResults(prompt)[0]?.text}` };
    });
    harness = createHarness({ redisUrl: testRedisUrl(), model, config: { askTimeoutMs: 1500 } });
    const { start, ask: first } = await startPausedTurn(harness, 'two asks in a row');
    await harness.deps.asks.answer({
      turnId: start.turnId,
      askId: first.askId,
      questionIndex: 0,
      resolution: answered('Hotfix forward', 'U0BOB'),
    });
    const second = await waitFor(async () => {
      const ask = await shownAsk(harness as Harness, start.turnId);
      return ask.askId !== first.askId ? ask : undefined;
    });
    // The second ask has a timer of its own, due at its own deadline (set right after the ask is marked
    // shown, so waited for, not read once).
    const timer = { kind: 'timeout', turnId: start.turnId, askId: second.askId } as const;
    await waitFor(
      async () => (await harness?.lane.due.dueAt(timer)) === second.deadline,
      5000,
      "the second ask's timeout timer at its deadline",
    );
    const reply = await finalReply(harness, start.turnId);
    expect(replyAnswers(reply.text).map((a) => a.status)).toEqual(['assumed', 'assumed']);
  });

  it.each([
    ['a UUID', '7f1c2a9e-3b4d-4e5f-8a6b-1c2d3e4f5a6b'],
    ['all digits', '123456'],
    ['a colon', 'team:T0TEST:thread'],
  ])('adds jobs for a turn id that is %s', async (_shape, turnId) => {
    const model = askThenEcho(DEPLOY_ASK);
    harness = createHarness({ redisUrl: testRedisUrl(), model });
    const { ask } = await startPausedTurn(harness, 'id shapes', { turnId });
    await harness.deps.asks.answer({
      turnId,
      askId: ask.askId,
      questionIndex: 0,
      resolution: answered('Hotfix forward', 'U0BOB'),
    });
    expect((await finalReply(harness, turnId)).kind).toBe('reply');
  });
});

describe('failTurn', () => {
  it('ends a paused turn with one error message and closes the unanswered tool call', async () => {
    const model = askThenEcho(DEPLOY_ASK);
    harness = createHarness({ redisUrl: testRedisUrl(), model });
    const { start } = await startPausedTurn(harness, 'will fail');
    await failTurn(harness.deps, start.turnId, 'the model kept failing');
    await failTurn(harness.deps, start.turnId, 'the model kept failing');
    const turn = await harness.store.getTurn(start.turnId);
    expect(turn?.status).toBe('failed');
    expect(pairingProblems(turn?.messages ?? [])).toEqual([]);
    const posts = (await harness.surface.events()).filter((event) => event.type === 'postMessage');
    expect(posts).toHaveLength(1);
    expect(posts[0]).toMatchObject({ kind: 'error', text: 'the model kept failing' });
  });
});
