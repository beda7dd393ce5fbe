/**
 * The built app on a Redis Cluster (`REDIS_CLUSTER=on`, `REDIS_URL` = one node): the cluster pass of
 * `.ci/run` starts three masters from Debian's `redis-server` and runs this with
 * `HOLDPOINT_TEST_REDIS_CLUSTER=1`; on one Redis server (the normal pass) it is skipped. A mention pauses
 * on an ask (Lua scripts and BullMQ on the cluster), the worker is SIGKILLed while the ask is open, a new
 * process takes the click and the turn replies once; then a timeout resolves another ask. Any CROSSSLOT
 * fails the turn, which these waits would see.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type FakeSlack, startFakeSlack } from '../support/fake-slack/index.js';
import { type ModelReplay, startModelReplay } from '../support/model-replay/model-replay.js';
import { isClusterRun } from '../support/redis-client.js';
import { freePort } from '../support/redis-server.js';
import { type ProductionApp, startProductionApp } from './support/production-app.js';
import { productionEnv, scopeEnv } from './support/production-env.js';
import { newThread } from './support/slack-thread.js';

let fake: FakeSlack;
let replay: ModelReplay;
let scope: string;
const running: ProductionApp[] = [];

beforeAll(async () => {
  if (!isClusterRun()) return;
  [fake, replay] = await Promise.all([startFakeSlack(), startModelReplay()]);
});
afterAll(async () => {
  await Promise.all([replay?.close(), fake?.close()]);
});
beforeEach(() => {
  replay?.reset();
  scope = `cluster-${Math.random().toString(36).slice(2, 10)}`;
});
afterEach(async () => {
  await Promise.all(running.splice(0).map((app) => app.stop('SIGKILL')));
});

async function start(env: Record<string, string> = {}): Promise<ProductionApp> {
  const app = await startProductionApp(
    productionEnv({
      fake,
      replay,
      redisUrl: process.env.REDIS_URL ?? '',
      port: await freePort(),
      model: 'anthropic',
      env: {
        REDIS_CLUSTER: 'on',
        ...scopeEnv(scope),
        ...env,
      },
    }),
  );
  running.push(app);
  return app;
}

describe.runIf(isClusterRun())('the built app on a Redis Cluster', () => {
  it('pause, SIGKILL while the ask is open, click on a new process: one reply', async () => {
    replay.enqueue('anthropic', 'a-text-and-ask_question', 'd-final-text');
    const first = await start();
    const thread = newThread(fake);
    expect(await thread.mention(first)).toBe(200);
    const ask = await thread.waitForAskSettled(1, 20_000);
    expect((await first.stop('SIGKILL')).signal).toBe('SIGKILL');

    const second = await start();
    expect(await thread.click(second, ask, 'Hotfix forward')).toBe(200);
    const reply = await thread.waitForReply(20_000);
    expect(String(reply.args.text)).toContain('Going with the hotfix');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(thread.replies()).toHaveLength(1);
    expect(second.output()).not.toContain('CROSSSLOT');
  });

  it('nobody answers: the timeout job resolves the ask by its recommended option', async () => {
    replay.enqueue('anthropic', 'a-text-and-ask_question', 'd-final-text');
    const app = await start({ ASK_TIMEOUT: '2s' });
    const thread = newThread(fake);
    await thread.mention(app);
    const reply = await thread.waitForReply(20_000);
    expect(String(reply.args.text)).toContain('Going with the hotfix');
    const continuation = JSON.stringify(replay.requests[1]?.body);
    expect(continuation).toContain('assumed');
    expect(app.output()).not.toContain('CROSSSLOT');
  });
});
