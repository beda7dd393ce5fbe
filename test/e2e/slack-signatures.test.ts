import { afterEach, describe, expect, it } from 'vitest';
import { testRedisUrl } from '../support/redis.js';
import { askingModel } from '../support/scripted-model.js';
import {
  askRefOf,
  clickRequest,
  mentionAndWaitForAsk,
  type SlackHarness,
  startSlackHarness,
  TEST_SIGNING_SECRET,
} from '../support/slack-harness.js';
import { eventRequest, type SignedSlackRequest } from '../support/slack-payloads.js';

const ASK = {
  questions: [{ header: 'Deploy', question: 'What now?', options: [{ label: 'A' }, { label: 'B' }] }],
};

let harness: SlackHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

function mention(options: { secret?: string; timestampSec?: number } = {}): SignedSlackRequest {
  return eventRequest(
    {
      text: '<@U0BOT> what now?',
      ts: '1780000000.000200',
      thread_ts: '1780000000.000100',
      user: 'U0ALICE',
      channel: 'C0OPS',
    },
    {
      eventId: 'EvSig1',
      secret: options.secret ?? TEST_SIGNING_SECRET,
      ...(options.timestampSec !== undefined ? { timestampSec: options.timestampSec } : {}),
    },
  );
}

function unsigned(request: SignedSlackRequest): SignedSlackRequest {
  const headers = { ...request.headers };
  delete headers['x-slack-signature'];
  delete headers['x-slack-request-timestamp'];
  return { body: request.body, headers };
}

async function storedKeys(h: SlackHarness): Promise<string[]> {
  const keys: string[] = [];
  let cursor = '0';
  do {
    const [next, batch] = await h.redis.scan(cursor, 'MATCH', `${h.storePrefix}:*`, 'COUNT', 1000);
    cursor = next;
    keys.push(...batch);
  } while (cursor !== '0');
  return keys;
}

const nowSec = () => Math.floor(Date.now() / 1000);

describe('Slack end to end: request signatures', () => {
  const cases: Array<[string, () => SignedSlackRequest]> = [
    ['an unsigned request', () => unsigned(mention())],
    ['a bad signature', () => mention({ secret: 'not-the-signing-secret' })],
    ['a timestamp older than 5 minutes', () => mention({ timestampSec: nowSec() - 6 * 60 })],
    [
      'a signature over a different body',
      () => {
        const request = mention();
        return { ...request, body: request.body.replace('what now?', 'delete prod') };
      },
    ],
  ];
  it('rejects each bad request with 401 and stores and posts nothing', async () => {
    const model = askingModel(ASK);
    harness = await startSlackHarness({ redisUrl: testRedisUrl(), model });
    const h = harness;
    h.fake.seedMessage({ channel: 'C0OPS', user: 'U0ALICE', text: 'parent', ts: '1780000000.000100' });
    for (const [name, build] of cases) {
      const response = await h.send(build());
      expect(response.status, name).toBe(401);
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await storedKeys(h)).toEqual([]);
    expect(await h.queue.getJobCountByTypes('waiting', 'active', 'delayed', 'completed', 'failed')).toBe(0);
    expect(h.fake.callsTo('chat.postMessage')).toHaveLength(0);
    expect(model.prompts).toHaveLength(0);

    // A correctly signed copy 4 minutes old is accepted (the window is 5 minutes).
    expect((await h.send(mention({ timestampSec: nowSec() - 4 * 60 }))).status).toBe(200);
    await h.fake.waitForCall('chat.postMessage', (call) => Array.isArray(call.args.blocks), 15_000);
    // The key scan above does see what a valid request stores.
    expect((await storedKeys(h)).length).toBeGreaterThan(0);
  });

  it('a click with a bad signature gets 401 and leaves the ask open', async () => {
    harness = await startSlackHarness({ redisUrl: testRedisUrl(), model: askingModel(ASK) });
    const h = harness;
    const ask = await mentionAndWaitForAsk(h, { eventId: 'EvSig2' });
    const good = clickRequest(h, ask, 'U0BOB', 'hp.option.0.0');
    const forged = { ...good, headers: { ...good.headers, 'x-slack-signature': `v0=${'0'.repeat(64)}` } };
    const old = clickRequest(h, ask, 'U0BOB', 'hp.option.0.0', { timestampSec: nowSec() - 301 - 5 });
    expect((await h.send(forged)).status).toBe(401);
    expect((await h.send(unsigned(good))).status).toBe(401);
    expect((await h.send(old)).status).toBe(401);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const ref = askRefOf(ask);
    const stored = await h.store.getAsk(ref.turnId, ref.askId);
    expect(stored?.status).toBe('open');
    expect(stored?.resolutions).toEqual([null]);
    expect(h.fake.callsTo('chat.update')).toHaveLength(0);
    expect(h.fake.ephemerals).toHaveLength(0);
  });
});
