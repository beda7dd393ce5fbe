import { afterEach, describe, expect, it } from 'vitest';
import { submitTurn } from '../../src/agent/thread-admission.js';
import { createHarness, type Harness, shownAsk, waitFor } from '../support/engine-harness.js';
import { testRedisUrl } from '../support/redis.js';
import { lastToolResults, scriptedModel } from '../support/scripted-model.js';

const ASK = {
  questions: [{ header: 'Go', question: 'Proceed?', options: [{ label: 'Yes' }, { label: 'No' }] }],
};

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

describe('one turn at a time per thread', () => {
  it('a message that arrives while a turn is paused waits, then runs after it, in order', async () => {
    const model = scriptedModel((prompt) => {
      const first = prompt.find((message) => message.role === 'user');
      const text =
        first?.role === 'user'
          ? first.content.map((part) => (part.type === 'text' ? part.text : '')).join('')
          : '';
      if (text.includes('first') && lastToolResults(prompt).length === 0)
        return { toolCalls: [{ name: 'ask_question', input: ASK }] };
      return { text: `reply to ${text.includes('first') ? 'first' : 'second'}` };
    });
    harness = createHarness({ redisUrl: testRedisUrl(), model });
    const h = harness;
    const first = h.turnStart('first message', { threadTs: '1780000000.000500' });
    const second = { ...h.turnStart('second message', { threadTs: '1780000000.000500' }) };
    expect(await submitTurn(h.deps, first)).toBe('start');
    const ask = await shownAsk(h, first.turnId);
    expect(await submitTurn(h.deps, second)).toBe('queued');

    // While the first turn waits on its ask, the second one has not started.
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(await h.store.getTurn(second.turnId)).toBeNull();
    expect(model.prompts).toHaveLength(1);

    await h.deps.asks.answer({
      turnId: first.turnId,
      askId: ask.askId,
      questionIndex: 0,
      resolution: {
        status: 'answered',
        selected: ['Yes'],
        other: null,
        answeredBy: 'U0BOB',
        answeredAt: new Date().toISOString(),
        source: 'button',
        assumption: null,
      },
    });
    const replies = await waitFor(
      async () => {
        const posts = (await h.surface.events()).filter((event) => event.type === 'postMessage');
        return posts.length === 2 ? posts : undefined;
      },
      15_000,
      'both replies',
    );
    expect(replies.map((event) => (event.type === 'postMessage' ? event.text : ''))).toEqual([
      'reply to first',
      'reply to second',
    ]);
    // The thread is given up after the last reply is posted: wait for that, then it is free.
    await waitFor(
      async () => (await h.store.threadHolder('memory-C0OPS-1780000000.000500')) === null,
      5000,
      'the thread given up',
    );
  });
});
