/**
 * The timer lane on the built app: with one turn slot (WORKER_CONCURRENCY=1) busy with a model call that
 * takes 6 s, an API ask with a 1 s timeout still resolves at its deadline, because timeouts and reminders run
 * on their own queue and worker, not behind the turn.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeSlack, startFakeSlack } from '../support/fake-slack/index.js';
import { type ModelReplay, startModelReplay } from '../support/model-replay/model-replay.js';
import { freePort, type RedisServerHandle } from '../support/redis-server.js';
import { type ProductionApp, startProductionApp } from './support/production-app.js';
import { productionEnv, startComposeRedis } from './support/production-env.js';
import { newThread } from './support/slack-thread.js';

const TOKEN = 'l'.repeat(40);
let redis: RedisServerHandle;
let fake: FakeSlack;
let replay: ModelReplay;
let app: ProductionApp | undefined;

beforeAll(async () => {
  [redis, fake, replay] = await Promise.all([startComposeRedis(), startFakeSlack(), startModelReplay()]);
});
afterAll(async () => {
  await app?.stop('SIGKILL');
  await Promise.all([replay?.close(), fake?.close(), redis?.stop()]);
});

describe('the timer lane on the built app', () => {
  it('a timeout fires at its deadline while the only turn slot waits on a slow model call', async () => {
    app = await startProductionApp(
      productionEnv({
        fake,
        replay,
        redisUrl: redis.url,
        port: await freePort(),
        model: 'anthropic',
        // The sweep (which also resolves overdue asks) is pushed out of the way: only the timeout job counts here.
        env: { WORKER_CONCURRENCY: '1', API_TOKENS: `lane:${TOKEN}`, HOLDPOINT_TEST_SWEEP_MS: '60000' },
      }),
    );
    replay.enqueue('anthropic', { text: 'Thinking hard.', delayMs: 6000 });
    const thread = newThread(fake);
    expect(await thread.mention(app)).toBe(200);
    await replay.waitForRequests(1, 10_000);
    const response = await fetch(`${app.baseUrl}/v1/asks`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        channel: 'C0OPS',
        timeout: '1s',
        questions: [{ header: 'Go', question: 'Proceed?', options: ['Yes (Recommended)', 'No'] }],
      }),
    });
    const created = (await response.json()) as { id: string; deadline: string };
    const polled = await fetch(`${app.baseUrl}/v1/asks/${created.id}?wait=10`, {
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    const resolvedAt = Date.now();
    const view = (await polled.json()) as { status: string };
    expect(view.status).toBe('resolved');
    const lateMs = resolvedAt - Date.parse(created.deadline);
    console.info(`timeout with the only turn slot busy: resolved ${lateMs} ms after its deadline`);
    // The model call still runs (it answers 6 s after it began): the timeout did not wait for it.
    expect(lateMs).toBeLessThan(1000);
    expect(thread.replies()).toHaveLength(0);
    await thread.waitForReply(15_000);
  }, 30_000);
});
