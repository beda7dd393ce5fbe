/**
 * Issue 10, item 6: the ask message converges on the stored state whatever order updates land in.
 * Two people answer the two questions of one ask at the same moment while the fake Slack's `chat.update`
 * takes a random 0-25 ms (so two updates can land in either order, as at Slack): in every one of 100
 * races the message ends showing both answers and no live control.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { askRevision } from '../../src/asks/ask-revision.js';
import { StoreKeys } from '../../src/store/keys.js';
import { waitFor } from '../support/engine-harness.js';
import { testRedisUrl } from '../support/redis.js';
import { askingModel } from '../support/scripted-model.js';
import {
  askRefOf,
  clickRequest,
  mentionAndWaitForAsk,
  type PostedAsk,
  type SlackHarness,
  startSlackHarness,
} from '../support/slack-harness.js';

const TWO_QUESTIONS = {
  questions: [
    {
      header: 'Region',
      question: 'Which region?',
      options: [{ label: 'us-east-1' }, { label: 'eu-west-1' }],
    },
    { header: 'Size', question: 'How many replicas?', options: [{ label: 'Two' }, { label: 'Four' }] },
  ],
};

const RACES = 100;
const AT_ONCE = 10;

let harness: SlackHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

/** The action_ids of every interactive element still in the message's blocks. */
function liveControls(blocks: unknown): string[] {
  const ids: string[] = [];
  for (const block of (blocks ?? []) as Array<{
    elements?: Array<{ action_id?: string }>;
    accessory?: { action_id?: string };
  }>) {
    for (const element of [...(block.elements ?? []), ...(block.accessory ? [block.accessory] : [])]) {
      if (element.action_id) ids.push(element.action_id);
    }
  }
  return ids;
}

async function race(h: SlackHarness, index: number): Promise<{ ask: PostedAsk; text: string }> {
  const threadTs = `${1780001000 + index * 10}.000100`;
  const ask = await mentionAndWaitForAsk(h, { eventId: `EvRace${index}`, threadTs });
  const [first, second] = await Promise.all([
    h.send(clickRequest(h, ask, 'U0BOB', 'hp.option.0.1')),
    h.send(clickRequest(h, ask, 'U0CAROL', 'hp.option.1.1')),
  ]);
  expect([first.status, second.status]).toEqual([200, 200]);
  const ref = askRefOf(ask);
  const keys = new StoreKeys(h.storePrefix);
  // Settled: the ask is resolved, its final revision is recorded as drawn, and no Slack call is in flight.
  await waitFor(
    async () => {
      const stored = await h.store.getAsk(ref.turnId, ref.askId);
      if (stored?.status !== 'resolved') return false;
      const drawn = Number(await h.redis.get(keys.slackDrawn(ref.askId)));
      return drawn === askRevision(stored) && h.fake.inFlight() === 0;
    },
    15_000,
    `race ${index} settled`,
  );
  const message = h.fake.message(ask.channel, ask.ts);
  return { ask, text: JSON.stringify(message?.blocks ?? []) + (message ? '' : 'missing') };
}

describe('Slack end to end: concurrent answers to two questions of one ask', () => {
  it(`the message ends showing both answers, in ${RACES} races with chat.update landing in random order`, async () => {
    harness = await startSlackHarness({
      redisUrl: testRedisUrl(),
      model: askingModel(TWO_QUESTIONS),
      fake: { latencyMs: (method) => (method === 'chat.update' ? Math.floor(Math.random() * 25) : 0) },
    });
    const h = harness;
    const failures: string[] = [];
    for (let batch = 0; batch < RACES / AT_ONCE; batch++) {
      const results = await Promise.all(
        Array.from({ length: AT_ONCE }, (_, i) => race(h, batch * AT_ONCE + i)),
      );
      for (const { ask, text } of results) {
        const message = h.fake.message(ask.channel, ask.ts);
        const controls = liveControls(message?.blocks);
        const shows = (label: string) => text.includes(label);
        if (
          !shows('eu-west-1') ||
          !shows('Four') ||
          !text.includes('U0BOB') ||
          !text.includes('U0CAROL') ||
          controls.length > 0
        )
          failures.push(`${ask.ts}: controls ${controls.join(',')} blocks ${text.slice(0, 300)}`);
      }
    }
    expect(failures).toEqual([]);
    expect(h.fake.callsTo('chat.update').length).toBeGreaterThanOrEqual(RACES);
  });
});
