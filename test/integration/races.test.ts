import { afterEach, describe, expect, it } from 'vitest';
import { newTurnRecord } from '../../src/agent/new-turn-record.js';
import type { TurnRecord } from '../../src/agent/turn-record.js';
import { decodeAskArguments } from '../../src/ask/decode-ask-arguments.js';
import type { QuestionResolution } from '../../src/ask/types.js';
import { ASK_RECORD_VERSION } from '../../src/asks/types.js';
import { createHarness, type Harness, TEST_ENGINE_CONFIG, waitFor } from '../support/engine-harness.js';
import { testRedisUrl } from '../support/redis.js';
import { scriptedModel } from '../support/scripted-model.js';

const RACES = 1000;
const ASK = {
  questions: [
    { header: 'Go', question: 'Proceed?', options: [{ label: 'Yes', recommended: true }, { label: 'No' }] },
  ],
};

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

function answer(label: string, userId: string): QuestionResolution {
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

/** Writes `count` turns paused on a shown ask whose deadline has already passed, as the engine would have. */
async function pausedTurns(h: Harness, count: number): Promise<Array<{ turnId: string; askId: string }>> {
  const decoded = decodeAskArguments(ASK);
  if (!decoded.ok) throw new Error('fixture ask must decode');
  const now = Date.now();
  const at = new Date(now).toISOString();
  const ids: Array<{ turnId: string; askId: string }> = [];
  for (let index = 0; index < count; index += 100) {
    await Promise.all(
      Array.from({ length: Math.min(100, count - index) }, async (_, offset) => {
        const n = index + offset;
        const turnId = `race-turn-${n}`;
        const askId = `race-ask-${n}`;
        const conversation = {
          surface: 'memory',
          channel: 'C0OPS',
          threadTs: `1780000000.${String(n).padStart(6, '0')}`,
        };
        const turn = newTurnRecord({
          turnId,
          conversation,
          requestedBy: 'U0ALICE',
          messages: [{ role: 'user', content: `race ${n}` }],
          at,
        });
        await h.store.createTurn(turn);
        const paused: TurnRecord = {
          ...turn,
          status: 'paused' as const,
          pendingAskId: askId,
          stepCount: 1,
          askCount: 1,
          messages: [
            ...turn.messages,
            {
              role: 'assistant' as const,
              content: [
                { type: 'tool-call' as const, toolCallId: `call-${n}`, toolName: 'ask_question', input: ASK },
              ],
            },
          ],
        };
        const committed = await h.store.pauseTurn(paused, 1, {
          version: ASK_RECORD_VERSION,
          askId,
          scope: turnId,
          waiter: { kind: 'turn', turnId: turnId, toolCallId: `call-${n}` },
          ordinal: 0,
          questions: decoded.ask.questions,
          conversation,
          requestedBy: 'U0ALICE',
          answerers: { mode: 'anyone' },
          timeoutMs: 1000,
          policy: 'recommended-or-first',
          createdAt: at,
        });
        if (!committed.ok) throw new Error('pause failed');
        await h.store.markAskShown(turnId, askId, now - 2000, `msg-${askId}`);
        ids.push({ turnId, askId });
      }),
    );
  }
  return ids;
}

function continuationModel() {
  return scriptedModel(() => ({ text: 'continued' }));
}

async function allCompleted(h: Harness, ids: Array<{ turnId: string }>) {
  await waitFor(
    async () => {
      for (const { turnId } of ids) {
        const turn = await h.store.getTurn(turnId);
        if (turn?.status !== 'completed' || turn.outbox.some((entry) => entry.state !== 'posted'))
          return false;
      }
      return true;
    },
    120_000,
    'every raced turn to complete',
  );
}

describe(`${RACES} races`, () => {
  it('an answer against the timeout on the same ask: one resolution per question, one resume per ask', async () => {
    const model = continuationModel();
    harness = createHarness({
      redisUrl: testRedisUrl(),
      model,
      config: { ...TEST_ENGINE_CONFIG, askTimeoutMs: 1000 },
    });
    const h = harness;
    const ids = await pausedTurns(h, RACES);
    let answerWins = 0;
    let timeoutWins = 0;
    for (let index = 0; index < ids.length; index += 100) {
      await Promise.all(
        ids.slice(index, index + 100).map(async ({ turnId, askId }) => {
          // Start them in either order, with a random gap of 0-2 event-loop turns, so both sides win some races.
          const jitter = async () => {
            for (let n = Math.floor(Math.random() * 3); n > 0; n--)
              await new Promise((resolve) => setImmediate(resolve));
          };
          const answering = async () => {
            await jitter();
            return h.deps.asks.answer({ turnId, askId, questionIndex: 0, resolution: answer('No', 'U0BOB') });
          };
          const timing = async () => {
            await jitter();
            return h.deps.asks.timeout(turnId, askId);
          };
          const [answered, timedOut] = await Promise.all([answering(), timing()]);
          const winners = Number(answered.status === 'completed') + Number(timedOut === 'resolved');
          expect(winners).toBe(1);
          if (answered.status === 'completed') answerWins++;
          else timeoutWins++;
        }),
      );
    }
    expect(answerWins + timeoutWins).toBe(RACES);
    await allCompleted(h, ids);
    // Exactly one continuation per turn reached the model, and one reply per turn was posted.
    expect(model.prompts).toHaveLength(RACES);
    expect(await h.surface.calls('postMessage')).toBe(RACES);
    for (const { turnId, askId } of ids) {
      const ask = await h.store.getAsk(turnId, askId);
      expect(ask?.resolutions).toHaveLength(1);
      const resolution = ask?.resolutions[0];
      expect(resolution?.status === 'answered' ? resolution.selected : resolution?.selected).toEqual(
        resolution?.status === 'answered' ? ['No'] : ['Yes'],
      );
    }
    // Both sides must have won some races, or this was not a race.
    expect(answerWins).toBeGreaterThan(0);
    expect(timeoutWins).toBeGreaterThan(0);
  });

  it('double answers on the same question: the first committed wins, the second changes nothing', async () => {
    const model = continuationModel();
    harness = createHarness({ redisUrl: testRedisUrl(), model });
    const h = harness;
    const ids = await pausedTurns(h, RACES);
    for (let index = 0; index < ids.length; index += 100) {
      await Promise.all(
        ids.slice(index, index + 100).map(async ({ turnId, askId }) => {
          const results = await Promise.all([
            h.deps.asks.answer({ turnId, askId, questionIndex: 0, resolution: answer('Yes', 'U0ALICE') }),
            h.deps.asks.answer({ turnId, askId, questionIndex: 0, resolution: answer('No', 'U0BOB') }),
          ]);
          const winners = results.filter((result) => result.status === 'completed');
          expect(winners).toHaveLength(1);
          const winner = winners[0];
          const loser = results.find((result) => result !== winner);
          // A one-question ask is closed by the winner; either way the loser changed nothing.
          expect(['already-resolved', 'closed']).toContain(loser?.status);
          // The loser sees who won, so the surface can say "already answered by @x".
          expect(loser?.ask?.resolutions[0]?.answeredBy).toBe(winner?.ask?.resolutions[0]?.answeredBy);
        }),
      );
    }
    await allCompleted(h, ids);
    expect(model.prompts).toHaveLength(RACES);
    expect(await h.surface.calls('postMessage')).toBe(RACES);
  });
});
