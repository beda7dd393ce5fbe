/**
 * The Home tab's Redis facts (real Redis) and the publish convergence against the fake Slack: the viewer
 * record stays bounded and expires; concurrent refreshes of one person publish at most twice and always end
 * on the stored state.
 */
import { WebClient } from '@slack/web-api';
import pino from 'pino';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { standaloneScope } from '../../../src/asks/types.js';
import { inboxAskOfBlockId, shortAskId } from '../../../src/slack/blocks/action-ids.js';
import { HomeTab } from '../../../src/slack/home-tab.js';
import { RedisHomeMarks } from '../../../src/store/redis-home-marks.js';
import { type FakeSlack, startFakeSlack } from '../../support/fake-slack/index.js';
import { answer, makeAsk, storeForTest } from './builders.js';

const { redis, store, prefix, close } = storeForTest('home');
afterAll(close);
const marks = new RedisHomeMarks(redis, { prefix });

describe('RedisHomeMarks', () => {
  it('keeps the newest viewers within the TTL, at most max, and the key expires', async () => {
    const now = 1_800_000_000_000;
    for (const [index, user] of ['U1', 'U2', 'U3', 'U4', 'U5'].entries())
      await marks.recordOpened(user, now + index, 60_000, 3);
    expect(await marks.recentViewers(now - 60_000, 10)).toEqual(['U5', 'U4', 'U3']);
    await marks.recordOpened('U6', now + 120_000, 60_000, 3);
    // The others opened it more than a minute before U6: forgotten.
    expect(await marks.recentViewers(0, 10)).toEqual(['U6']);
    const ttl = await redis.pttl(store.keys.homeViewers());
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(60_000);
  });

  it('a publish lock is held by one token; the publish-again mark is taken once', async () => {
    expect(await marks.claimPublish('U7', 'a', 5000)).toBe(true);
    expect(await marks.claimPublish('U7', 'b', 5000)).toBe(false);
    await marks.releasePublish('U7', 'b');
    expect(await marks.claimPublish('U7', 'b', 5000)).toBe(false);
    await marks.releasePublish('U7', 'a');
    expect(await marks.claimPublish('U7', 'b', 5000)).toBe(true);
    await marks.markDirty('U7', 5000);
    expect(await marks.isDirty('U7')).toBe(true);
    expect(await marks.takeDirty('U7')).toBe(true);
    expect(await marks.takeDirty('U7')).toBe(false);
  });
});

describe('HomeTab.refresh', () => {
  let fake: FakeSlack;
  let client: WebClient;
  beforeEach(async () => {
    fake = await startFakeSlack();
    client = new WebClient(fake.botToken, { slackApiUrl: fake.url, retryConfig: { retries: 0 } });
  });
  afterEach(async () => {
    await fake.close();
  });

  async function openShownAsk(askId: string): Promise<string> {
    const scope = standaloneScope(askId);
    await store.openAsk({
      ...makeAsk(scope, askId, { answerers: { mode: 'list', userIds: ['U0ALICE'], groupIds: [] } }),
      waiter: { kind: 'api', clientName: 'test' },
    });
    await store.markAskShown(
      scope,
      askId,
      Date.now(),
      JSON.stringify({ channel: 'C1', ts: '1700000001.000200' }),
    );
    return scope;
  }

  function listed(): string[] {
    const blocks = (fake.homeView('U0ALICE')?.blocks ?? []) as Array<{ block_id: string }>;
    return blocks
      .filter((block) => block.block_id.endsWith('.b'))
      .map((block) => inboxAskOfBlockId(block.block_id) ?? '?')
      .sort();
  }

  it('concurrent refreshes publish at most twice and end on the stored state', async () => {
    const homes = new HomeTab({
      reader: store,
      marks: new RedisHomeMarks(redis, { prefix: `${prefix}-conv` }),
      groupMembers: async () => [],
      log: pino({ level: 'silent' }),
      now: () => Date.now(),
      workspaceUrl: null,
    });
    // The store's prefix is this file's own: its ask index holds these two asks only.
    const first = `home-${prefix}-1`;
    const second = `home-${prefix}-2`;
    const firstScope = await openShownAsk(first);
    await openShownAsk(second);
    await Promise.all(Array.from({ length: 5 }, () => homes.refresh(client, 'U0ALICE')));
    expect(fake.callsTo('views.publish').length).toBeLessThanOrEqual(2);
    expect(listed()).toEqual([shortAskId(first), shortAskId(second)].sort());

    // The first ask resolves while refreshes run: whichever publishes last shows it gone.
    const racing = Array.from({ length: 3 }, () => homes.refresh(client, 'U0ALICE'));
    await store.answerQuestion(firstScope, first, 0, answer('U0ALICE'));
    racing.push(homes.refresh(client, 'U0ALICE'));
    await Promise.all(racing);
    expect(listed()).toEqual([shortAskId(second)]);
    expect(fake.calls.filter((call) => call.response.ok !== true)).toEqual([]);
  });
});
