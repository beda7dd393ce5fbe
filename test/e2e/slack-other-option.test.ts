import { afterEach, describe, expect, it } from 'vitest';
import { waitFor } from '../support/engine-harness.js';
import { testRedisUrl } from '../support/redis.js';
import { lastToolResults, scriptedModel } from '../support/scripted-model.js';
import {
  finalReplies,
  mentionAndWaitForAsk,
  type SlackHarness,
  startSlackHarness,
  TEST_SIGNING_SECRET,
} from '../support/slack-harness.js';
import { eventRequest } from '../support/slack-payloads.js';

let harness: SlackHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

type Json = Record<string, unknown>;

function buttonTexts(blocks: unknown[]): string[] {
  return (blocks as Json[])
    .filter((block) => block.type === 'actions')
    .flatMap((block) => block.elements as Json[])
    .filter((element) => element.type === 'button' && element.action_id !== 'hp.cancel')
    .map((element) => String((element.text as Json).text));
}

describe('Slack end to end: the model writes its own "Other" (C24)', () => {
  it('drops the model\u2019s Other: two real options plus exactly one Other…, ours', async () => {
    const model = scriptedModel((prompt) => {
      if (lastToolResults(prompt).length === 0) {
        const input = {
          questions: [
            {
              header: 'DB',
              question: 'Which database?',
              options: [{ label: 'Postgres' }, { label: 'MySQL' }, { label: 'Other' }],
            },
          ],
        };
        return { text: 'Let me ask.', toolCalls: [{ name: 'ask_question', input }] };
      }
      return { text: 'FINAL done' };
    });
    harness = await startSlackHarness({ redisUrl: testRedisUrl(), model });
    const ask = await mentionAndWaitForAsk(harness, { eventId: 'EvOther1' });
    expect(buttonTexts(ask.blocks)).toEqual(['Postgres', 'MySQL', 'Other…']);
    const otherButtons = (ask.blocks as Json[])
      .filter((block) => block.type === 'actions')
      .flatMap((block) => block.elements as Json[])
      .filter((element) => String(element.action_id).startsWith('hp.other.'));
    expect(otherButtons).toHaveLength(1);
  });

  it('one real option plus the model\u2019s Other is rejected back to the model; nothing is posted', async () => {
    const model = scriptedModel((prompt) => {
      if (lastToolResults(prompt).length === 0) {
        const input = {
          questions: [
            {
              header: 'DB',
              question: 'Which database?',
              options: [{ label: 'Postgres' }, { label: 'Other' }],
            },
          ],
        };
        return { text: 'Let me ask.', toolCalls: [{ name: 'ask_question', input }] };
      }
      return { text: 'FINAL fine, Postgres' };
    });
    harness = await startSlackHarness({ redisUrl: testRedisUrl(), model });
    const h = harness;
    h.fake.seedMessage({ channel: 'C0OPS', user: 'U0ALICE', text: 'parent', ts: '1780000000.000100' });
    const mention = eventRequest(
      {
        text: '<@U0BOT> which db?',
        ts: '1780000000.000200',
        thread_ts: '1780000000.000100',
        user: 'U0ALICE',
        channel: 'C0OPS',
      },
      { eventId: 'EvOther2', secret: TEST_SIGNING_SECRET },
    );
    expect((await h.send(mention)).status).toBe(200);
    await waitFor(async () => finalReplies(h).length === 1, 15_000, 'the final reply');
    const error = lastToolResults(model.prompts[1] ?? []).find(
      (result) => result.toolName === 'ask_question',
    );
    expect(error?.isError).toBe(true);
    expect(error?.text).toContain('questions[0].options');
    expect(error?.text).toContain('an Other choice is added automatically');
    // No paused state either: the turn ended normally.
    const keys = await h.redis.keys(`${h.storePrefix}:*:ask:*`);
    expect(keys).toEqual([]);
    expect(h.fake.callsTo('chat.postMessage').filter((call) => Array.isArray(call.args.blocks))).toHaveLength(
      0,
    );
  });
});
