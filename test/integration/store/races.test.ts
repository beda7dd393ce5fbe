import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AskTransitionResult } from '../../../src/asks/types.js';
import { RESOLVED_SCORE_BASE } from '../../../src/store/ask-index.js';
import { RedisTurnStore } from '../../../src/store/redis-turn-store.js';
import { testRedisClient } from '../../support/redis.js';
import { answer, assumed, pausedAsk, storeForTest } from './builders.js';

const ASKS = 1_000;
const CLIENTS = 4;

/** Several clients (separate connections) on one prefix, so that the scripts really interleave in Redis. */
const main = storeForTest('races');
const extraClients = Array.from({ length: CLIENTS - 1 }, () => testRedisClient());
const stores = [
  main.store,
  ...extraClients.map((client) => new RedisTurnStore(client, { prefix: main.prefix })),
];
const storeFor = (i: number): RedisTurnStore => stores[i % stores.length] ?? main.store;

afterAll(async () => {
  await Promise.all(extraClients.map((client) => client.quit()));
  await main.close();
});

async function pauseMany(label: string, questionCount: number): Promise<void> {
  for (let start = 0; start < ASKS; start += 200) {
    await Promise.all(
      Array.from({ length: Math.min(200, ASKS - start) }, (_, k) =>
        pausedAsk(main.store, `${label}-${start + k}`, 'a', { questionCount }),
      ),
    );
  }
}

function count(results: AskTransitionResult[], status: AskTransitionResult['status']): number {
  return results.filter((r) => r.status === status).length;
}

describe(`${ASKS} races`, () => {
  beforeAll(async () => {
    await pauseMany('race', 2);
    await pauseMany('double', 1);
  }, 120_000);

  it('answer vs timeout on the same ask: exactly one completed per ask, each question resolved once', async () => {
    const pairs = await Promise.all(
      Array.from({ length: ASKS }, (_, i) =>
        Promise.all([
          storeFor(i).answerQuestion(`race-${i}`, 'a', 0, answer(`U${i}`, 'B')),
          storeFor(i + 1).resolveOpenQuestions(`race-${i}`, 'a', [assumed('A'), assumed('A')]),
        ]),
      ),
    );
    let answerFirst = 0;
    let timeoutFirst = 0;
    for (const [i, [byAnswer, byTimeout]] of pairs.entries()) {
      const completed = [byAnswer, byTimeout].filter((r) => r.status === 'completed');
      expect(completed).toHaveLength(1);
      const stored = await main.store.getAsk(`race-${i}`, 'a');
      expect(stored?.status).toBe('resolved');
      if (byAnswer.status === 'recorded') {
        // The answer landed first and stays; the timeout filled only question 1.
        answerFirst += 1;
        expect(byTimeout.status).toBe('completed');
        expect(stored?.resolutions).toStrictEqual([answer(`U${i}`, 'B'), assumed('A')]);
      } else {
        timeoutFirst += 1;
        expect(byAnswer.status).toBe('closed');
        expect(byTimeout.status).toBe('completed');
        expect(stored?.resolutions).toStrictEqual([assumed('A'), assumed('A')]);
      }
    }
    expect(answerFirst + timeoutFirst).toBe(ASKS);
    console.info(`answer vs timeout: answer first ${answerFirst}, timeout first ${timeoutFirst}`);
    const unresumed = await main.store.listUnresumedAsks(10 * ASKS);
    expect(unresumed.filter((r) => r.turnId.startsWith('race-'))).toHaveLength(ASKS);
    const stillOpen = await main.redis.zrangebyscore(
      main.store.keys.askIndex(),
      '-inf',
      `(${RESOLVED_SCORE_BASE}`,
    );
    expect(stillOpen.filter((member) => member.startsWith('race-'))).toStrictEqual([]);
  });

  it('two answers to the same question at once: exactly one wins, the other sees it closed', async () => {
    const pairs = await Promise.all(
      Array.from({ length: ASKS }, (_, i) =>
        Promise.all([
          storeFor(i).answerQuestion(`double-${i}`, 'a', 0, answer('U_X', 'A')),
          storeFor(i + 1).answerQuestion(`double-${i}`, 'a', 0, answer('U_Y', 'B')),
        ]),
      ),
    );
    const flat = pairs.flat();
    expect(count(flat, 'completed')).toBe(ASKS);
    expect(count(flat, 'closed')).toBe(ASKS);
    for (const [i, pair] of pairs.entries()) {
      const winner = pair.find((r) => r.status === 'completed');
      const loser = pair.find((r) => r.status === 'closed');
      // The loser sees the winner's answer (for "already answered by @x").
      expect(loser?.ask?.resolutions).toStrictEqual(winner?.ask?.resolutions);
      const stored = await main.store.getAsk(`double-${i}`, 'a');
      expect(stored?.resolutions).toStrictEqual(winner?.ask?.resolutions);
    }
  });

  it('many resume claims on one resolved ask: exactly one wins', async () => {
    const claims = await Promise.all(
      Array.from({ length: 100 }, (_, i) => storeFor(i).markResumeQueued('double-0', 'a', 1_000 + i)),
    );
    expect(claims.filter(Boolean)).toHaveLength(1);
  });
});
