import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { advanceTurn } from '../../src/agent/advance-turn.js';
import { newTurnRecord } from '../../src/agent/new-turn-record.js';
import { TURN_RECORD_VERSION, type TurnRecord } from '../../src/agent/turn-record.js';
import { decodeAskArguments } from '../../src/ask/decode-ask-arguments.js';
import { ASK_RECORD_VERSION } from '../../src/asks/types.js';
import { StateError } from '../../src/errors.js';
import { resumeJobId } from '../../src/jobs/job-ids.js';
import { createHarness, type Harness, replyAnswers, waitFor } from '../support/engine-harness.js';
import { testRedisUrl } from '../support/redis.js';
import { lastToolResults, promptPairingProblems, scriptedModel } from '../support/scripted-model.js';

/** A paused turn as the previous schema version (1) wrote it. */
const V1 = JSON.parse(readFileSync(new URL('../fixtures/state/turn-v1.json', import.meta.url), 'utf8')) as {
  turnId: string;
  rev: number;
  pendingAskId: string;
  messages: TurnRecord['messages'];
  conversation: TurnRecord['conversation'];
  requestedBy: string;
};

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

/** Writes the fixture's ask with the current store, then puts the turn document back exactly as version 1 stored it. */
async function storeVersionOneTurn(h: Harness, turnJson: string): Promise<string> {
  const askCall = V1.messages
    .flatMap((message) =>
      message.role === 'assistant' && Array.isArray(message.content) ? message.content : [],
    )
    .find((part) => part.type === 'tool-call' && part.toolName === 'ask_question');
  if (askCall?.type !== 'tool-call') throw new Error('fixture has no ask_question call');
  const decoded = decodeAskArguments(askCall.input);
  if (!decoded.ok) throw new Error('fixture ask must decode');
  const at = new Date().toISOString();
  const current = newTurnRecord({
    turnId: V1.turnId,
    conversation: V1.conversation,
    requestedBy: V1.requestedBy,
    messages: [],
    at,
  });
  await h.store.createTurn(current);
  const paused = await h.store.pauseTurn({ ...current, status: 'paused', pendingAskId: V1.pendingAskId }, 1, {
    version: ASK_RECORD_VERSION,
    askId: V1.pendingAskId,
    scope: V1.turnId,
    waiter: { kind: 'turn', turnId: V1.turnId, toolCallId: askCall.toolCallId },
    ordinal: 0,
    questions: decoded.ask.questions,
    conversation: V1.conversation,
    requestedBy: V1.requestedBy,
    answerers: { mode: 'anyone' },
    timeoutMs: 60_000,
    policy: 'recommended-or-first',
    createdAt: at,
  });
  if (!paused.ok) throw new Error('pause failed');
  await h.store.markAskShown(V1.turnId, V1.pendingAskId, Date.now(), 'msg-v1');
  // The turn hash exactly as the earlier store wrote it: the whole record in `data`, and `rev`.
  const key = h.store.keys.turn(V1.turnId);
  await h.redis.del(key);
  await h.redis.hset(key, 'data', turnJson, 'rev', String(V1.rev));
  return V1.pendingAskId;
}

/** An ask with definition version 1 and its paused turn (version 2), as the Redis hashes the earlier store wrote. */
const ASK_V1 = JSON.parse(
  readFileSync(new URL('../fixtures/state/ask-v1-turn-v2.json', import.meta.url), 'utf8'),
) as { turnId: string; askId: string; askHash: Record<string, string>; turnHash: Record<string, string> };

describe('asks written by an earlier schema version', () => {
  it('a version-1 ask and its version-2 turn, as stored before asks had a scope and a waiter, resume on an answer', async () => {
    const model = scriptedModel((prompt) => ({ text: `FINAL\n${lastToolResults(prompt).at(-1)?.text}` }));
    harness = createHarness({ redisUrl: testRedisUrl(), model });
    const h = harness;
    await h.redis.hset(h.store.keys.turn(ASK_V1.turnId), ASK_V1.turnHash);
    await h.redis.hset(h.store.keys.ask(ASK_V1.turnId, ASK_V1.askId), ASK_V1.askHash);

    const ask = await h.store.getAsk(ASK_V1.turnId, ASK_V1.askId);
    expect(ask).toMatchObject({
      version: ASK_RECORD_VERSION,
      scope: ASK_V1.turnId,
      waiter: { kind: 'turn', turnId: ASK_V1.turnId, toolCallId: 'call_v1' },
      status: 'open',
      messageRef: JSON.stringify({ channel: 'C0OPS', ts: '1780000000.000300' }),
    });

    const result = await h.deps.asks.answer({
      turnId: ASK_V1.turnId,
      askId: ASK_V1.askId,
      questionIndex: 0,
      resolution: {
        status: 'answered',
        selected: ['Hotfix forward'],
        other: null,
        answeredBy: 'U0BOB',
        answeredAt: new Date().toISOString(),
        source: 'button',
        assumption: null,
      },
    });
    expect(result.status).toBe('completed');
    const reply = await waitFor(async () => {
      const post = (await h.surface.events()).find((event) => event.type === 'postMessage');
      return post?.type === 'postMessage' ? post : undefined;
    });
    expect(replyAnswers(reply.text)[0]).toMatchObject({
      status: 'answered',
      selected: ['Hotfix forward'],
      answeredBy: 'U0BOB',
    });
    expect(model.prompts).toHaveLength(1);
    expect(promptPairingProblems(model.prompts[0] ?? [])).toEqual([]);
    expect((await h.store.getTurn(ASK_V1.turnId))?.status).toBe('completed');
  });
});

describe('paused turns written by an earlier schema version', () => {
  it('a version-1 paused turn resumes on a click, with every tool call paired', async () => {
    const model = scriptedModel((prompt) => ({ text: `FINAL\n${lastToolResults(prompt).at(-1)?.text}` }));
    harness = createHarness({ redisUrl: testRedisUrl(), model });
    const fixture = readFileSync(new URL('../fixtures/state/turn-v1.json', import.meta.url), 'utf8');
    const askId = await storeVersionOneTurn(harness, fixture);
    const loaded = await harness.store.getTurn(V1.turnId);
    expect(loaded?.status).toBe('paused');
    expect(loaded?.version).toBe(TURN_RECORD_VERSION);

    const result = await harness.deps.asks.answer({
      turnId: V1.turnId,
      askId,
      questionIndex: 0,
      resolution: {
        status: 'answered',
        selected: ['v2.40.0'],
        other: null,
        answeredBy: 'U0BOB',
        answeredAt: new Date().toISOString(),
        source: 'button',
        assumption: null,
      },
    });
    expect(result.status).toBe('completed');
    const h = harness;
    const reply = await waitFor(async () => {
      const post = (await h.surface.events()).find((event) => event.type === 'postMessage');
      return post?.type === 'postMessage' ? post : undefined;
    });
    expect(replyAnswers(reply.text)[0]).toMatchObject({
      status: 'answered',
      selected: ['v2.40.0'],
      answeredBy: 'U0BOB',
    });
    expect(model.prompts).toHaveLength(1);
    expect(promptPairingProblems(model.prompts[0] ?? [])).toEqual([]);
    // The thinking block's signature survived the upgrade and reached the provider request.
    expect(JSON.stringify(model.prompts[0])).toContain(
      'EqQBCkgIARABGAIiQL8nTq3yC4Ff3n1vZ0mJ0Q9y7aWk2s0dYV0f1b2c3d4e5f6g7h8i9j0k1l2m3n4o5p6q7r8s9t0u1v2w3x4y5z6',
    );
  });

  it('an unknown version is refused with a clear error, and its job is failed once instead of retried', async () => {
    const model = scriptedModel(() => ({ text: 'must not be called' }));
    harness = createHarness({ redisUrl: testRedisUrl(), model });
    const future = JSON.stringify({
      ...JSON.parse(readFileSync(new URL('../fixtures/state/turn-v1.json', import.meta.url), 'utf8')),
      version: 99,
    });
    const askId = await storeVersionOneTurn(harness, future);

    const refused = await advanceTurn(harness.deps, V1.turnId).then(
      () => null,
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(StateError);
    expect((refused as StateError).code).toBe('state_unknown_version');
    expect((refused as StateError).message).toMatch(/99/);

    await harness.deps.scheduler.resume(V1.turnId, askId);
    const h = harness;
    const job = await waitFor(async () => {
      const found = await h.queue.getJob(resumeJobId(askId));
      return found && (await found.isFailed()) ? found : undefined;
    });
    expect(job.attemptsMade).toBe(1);
    expect(job.failedReason).toMatch(/state_unknown_version/);
    expect(model.prompts).toHaveLength(0);
  });
});
