/**
 * The ask index is advisory, and some of its writes are sent without waiting (`#indexWrite` in the Redis
 * store): what a lost one leaves must be mended by the next sweep, not carried until the ask's deadline.
 */
import { afterEach, expect, it } from 'vitest';
import { startTurn } from '../../../src/agent/thread-admission.js';
import { askIndexMember } from '../../../src/store/keys.js';
import { createHarness, type Harness } from '../../support/engine-harness.js';
import { testRedisUrl } from '../../support/redis.js';
import { lastToolResults, scriptedModel } from '../../support/scripted-model.js';

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

it('a shown ask whose move to its deadline was lost is moved by the next sweep', async () => {
  harness = createHarness({
    redisUrl: testRedisUrl(),
    worker: false,
    config: { askTimeoutMs: 600_000 },
    model: scriptedModel((prompt) =>
      lastToolResults(prompt).length === 0
        ? {
            text: 'Asking.',
            toolCalls: [
              { name: 'ask_question', input: { questions: [{ question: 'Go?', options: ['Yes', 'No'] }] } },
            ],
          }
        : { text: 'FINAL done' },
    ),
  });
  const start = harness.turnStart('deploy?');
  const paused = await startTurn(harness.deps, start);
  if (paused.state !== 'paused') throw new Error(`turn ${paused.state}`);
  const ask = await harness.store.getAsk(start.turnId, paused.askId);
  if (!ask?.deadline) throw new Error('the ask was not shown');
  const index = harness.store.keys.askIndex();
  const member = askIndexMember(start.turnId, paused.askId);
  // The move after the show never arrived: the ask still sits in the unshown band.
  await harness.redis.zadd(index, -Date.parse(ask.createdAt), member);

  expect(await harness.deps.asks.sweep({ unshownGraceMs: 0 })).toEqual({
    timedOut: 0,
    resumed: 0,
    reshown: 0,
  });
  expect(await harness.redis.zscore(index, member)).toBe(String(ask.deadline));
  // Nothing else changed: still open, shown once, at the same deadline.
  expect(await harness.store.getAsk(start.turnId, paused.askId)).toStrictEqual(ask);
});
