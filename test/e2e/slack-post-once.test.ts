import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../../src/asks/logger.js';
import { singleSlackClient } from '../../src/slack/slack-clients.js';
import { SlackSurface } from '../../src/slack/slack-surface.js';
import { createWebClient } from '../../src/slack/web-client.js';
import { RedisSlackMarks } from '../../src/store/redis-slack-marks.js';
import { type FakeSlack, startFakeSlack } from '../support/fake-slack/index.js';
import { testRedisClient, uniquePrefix } from '../support/redis.js';

const CONVERSATION = { surface: 'slack' as const, channel: 'C0OPS', threadTs: '1780000000.000100' };

let fake: FakeSlack | undefined;
const redis = testRedisClient();
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});
afterAll(async () => {
  await redis.quit();
});

function surfaceOn(slack: FakeSlack, prefix: string): SlackSurface {
  return new SlackSurface({
    clients: singleSlackClient(createWebClient(slack.botToken, slack.url)),
    marks: new RedisSlackMarks(redis, { prefix }),
    log: silentLogger,
    botUserId: slack.botUserId,
    readAsk: async () => null,
  });
}

/**
 * The engine may finish a turn from two jobs at once (the turn job that showed the ask and the resume
 * job, when the click lands right after the post): both call `postMessage` with the same key, and the
 * reply must still appear once.
 */
describe('SlackSurface posts once per key under concurrency', () => {
  it('two concurrent posts with the same key in one process make one chat.postMessage', async () => {
    fake = await startFakeSlack();
    fake.seedMessage({ channel: 'C0OPS', user: 'U0ALICE', text: 'parent', ts: CONVERSATION.threadTs });
    const surface = surfaceOn(fake, uniquePrefix('postonce'));
    await Promise.all([
      surface.postMessage(CONVERSATION, 'FINAL done', 'reply-t1', 'reply'),
      surface.postMessage(CONVERSATION, 'FINAL done', 'reply-t1', 'reply'),
    ]);
    expect(fake.callsTo('chat.postMessage')).toHaveLength(1);
  });

  // Regression: `beginPost` used to return nothing, so two processes posting the same key at once could not
  // tell who claimed it and both posted. Now the loser of the NX claim waits for the winner's ts.
  it('two processes (two surfaces sharing Redis) posting the same key at once make one chat.postMessage', async () => {
    fake = await startFakeSlack();
    fake.seedMessage({ channel: 'C0OPS', user: 'U0ALICE', text: 'parent', ts: CONVERSATION.threadTs });
    const prefix = uniquePrefix('postonce2');
    const a = surfaceOn(fake, prefix);
    const b = surfaceOn(fake, prefix);
    await Promise.all([
      a.postMessage(CONVERSATION, 'FINAL done', 'reply-t2', 'reply'),
      b.postMessage(CONVERSATION, 'FINAL done', 'reply-t2', 'reply'),
    ]);
    expect(fake.callsTo('chat.postMessage')).toHaveLength(1);
  });
});
