/**
 * Races on asks a program waits on (real Redis, real BullMQ): for each of 1,000 asks with a callbackUrl, an
 * answer, a cancel and a timeout arrive at once. Exactly one of them resolves each ask, and each ask gets
 * exactly one webhook job (one delivery id), whichever won.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { decodeAskArguments } from '../../src/ask/decode-ask-arguments.js';
import { ASK_RECORD_VERSION, type AskDefinition, standaloneScope } from '../../src/asks/types.js';
import { webhookJobId } from '../../src/jobs/job-ids.js';
import { createHarness, type Harness } from '../support/engine-harness.js';
import { testRedisUrl } from '../support/redis.js';
import { scriptedModel } from '../support/scripted-model.js';

const RACES = 1000;

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

describe('answers vs cancels vs timeouts on asks of programs', () => {
  it(`${RACES} races: one resolution and one webhook delivery each`, { timeout: 120_000 }, async () => {
    const h = createHarness({
      redisUrl: testRedisUrl(),
      model: scriptedModel(() => ({ text: 'unused' })),
      worker: false,
    });
    harness = h;
    const decoded = decodeAskArguments({
      questions: [{ question: 'Ship?', options: ['Ship it (Recommended)', 'Hold'] }],
    });
    if (!decoded.ok) throw new Error('fixture');
    const conversation = { surface: 'memory', channel: 'C0OPS', threadTs: '' };
    const ids = Array.from({ length: RACES }, (_, n) => `api-race-${n}`);
    // Open and show every ask with a timeout that has already passed by the time the races start.
    for (let index = 0; index < RACES; index += 100) {
      await Promise.all(
        ids.slice(index, index + 100).map(async (askId) => {
          const definition: AskDefinition = {
            version: ASK_RECORD_VERSION,
            askId,
            scope: standaloneScope(askId),
            waiter: { kind: 'api', clientName: 'deploy-script', callbackUrl: 'http://127.0.0.1:9/hook' },
            ordinal: 0,
            questions: decoded.ask.questions,
            conversation,
            requestedBy: 'deploy-script',
            answerers: { mode: 'anyone' },
            timeoutMs: 1000,
            policy: 'recommended-or-first',
            createdAt: new Date(Date.now() - 5000).toISOString(),
          };
          await h.deps.store.openAsk(definition);
          await h.deps.store.markAskShown(definition.scope, askId, Date.now() - 2000, `msg-${askId}`);
        }),
      );
    }
    const outcomes = new Map<string, string[]>();
    for (let index = 0; index < RACES; index += 100) {
      await Promise.all(
        ids.slice(index, index + 100).map(async (askId, offset) => {
          const scope = standaloneScope(askId);
          const contenders = [
            async () =>
              (
                await h.deps.asks.answer({
                  turnId: scope,
                  askId,
                  questionIndex: 0,
                  resolution: {
                    status: 'answered',
                    selected: ['Hold'],
                    other: null,
                    answeredBy: 'U0BOB',
                    answeredAt: new Date().toISOString(),
                    source: 'button',
                    assumption: null,
                  },
                })
              ).status === 'completed'
                ? 'answer'
                : null,
            async () =>
              (await h.deps.asks.cancel({ turnId: scope, askId, userId: 'deploy-script' })).status ===
              'completed'
                ? 'cancel'
                : null,
            async () => ((await h.deps.asks.timeout(scope, askId)) === 'resolved' ? 'timeout' : null),
          ];
          // Rotate who starts first, so each kind wins some races.
          const order = [...contenders.slice(offset % 3), ...contenders.slice(0, offset % 3)];
          const won = await Promise.all(order.map((contender) => contender()));
          outcomes.set(
            askId,
            won.flatMap((w) => (w === null ? [] : [w])),
          );
        }),
      );
    }
    const winners = [...outcomes.values()];
    expect(winners.filter((w) => w.length !== 1)).toEqual([]);
    const kinds = new Set(winners.map((w) => w[0]));
    expect(kinds.size).toBeGreaterThanOrEqual(2);
    for (const askId of ids) {
      const ask = await h.deps.store.getAsk(standaloneScope(askId), askId);
      expect(ask?.status).toBe('resolved');
    }
    const webhooks = (await h.queue.getJobs(['waiting', 'delayed', 'prioritized'])).filter(
      (job) => job.name === 'webhook',
    );
    expect(webhooks).toHaveLength(RACES);
    expect(new Set(webhooks.map((job) => job.id))).toEqual(new Set(ids.map((id) => webhookJobId(id))));
    // Nothing left for the sweep: every resolved program ask left the index.
    expect(await h.deps.store.listUnresumedAsks(10)).toEqual([]);
  });
});
