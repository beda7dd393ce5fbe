import { afterAll, describe, expect, it, vi } from 'vitest';
import type { QuestionResolution } from '../../../src/ask/types.js';
import { standaloneScope } from '../../../src/asks/types.js';
import { StateError } from '../../../src/errors.js';
import { askIndexBand, resolvedScore } from '../../../src/store/ask-index.js';
import { DefinitionCache, definitionDigest } from '../../../src/store/definition-cache.js';
import { storeScripts } from '../../../src/store/lua/index.js';
import { RedisTurnStore } from '../../../src/store/redis-turn-store.js';
import { answer, assumed, makeAsk, pausedAsk, storeForTest } from './builders.js';

const { redis, store, prefix, close } = storeForTest('asks');
afterAll(close);

/** Where the ask index puts a member (`null`: not indexed). */
async function band(member: string): Promise<ReturnType<typeof askIndexBand> | null> {
  const score = await redis.zscore(store.keys.askIndex(), member);
  return score === null ? null : askIndexBand(Number(score));
}

/**
 * Runs `transition` on ask `a` of turn `<id>-a` from a process whose definition cache (capacity 2) held that
 * ask's definition when the call went out, while a cold read of `<id>-c` evicts it. Returns the result,
 * and the definition the ask was written with.
 */
async function withEntryEvictedInFlight<T>(
  id: string,
  transition: (proc: RedisTurnStore, turnId: string) => Promise<T>,
): Promise<{ result: T; written: Awaited<ReturnType<typeof pausedAsk>> }> {
  // Capacity 2: the entry of A is the oldest, and the read of C evicts it while the call for A is in flight.
  const proc = new RedisTurnStore(redis, { prefix, definitions: new DefinitionCache(2) });
  const written = await pausedAsk(store, `${id}-a`, 'a');
  await pausedAsk(store, `${id}-b`, 'a');
  await pausedAsk(store, `${id}-c`, 'a');
  await proc.getAsk(`${id}-a`, 'a');
  await proc.getAsk(`${id}-b`, 'a');
  const [read, result] = await Promise.all([proc.getAsk(`${id}-c`, 'a'), transition(proc, `${id}-a`)]);
  expect(read?.askId).toBe('a');
  return { result, written };
}

describe('answerQuestion', () => {
  it('records, then completes, then reports already-resolved and closed', async () => {
    await pausedAsk(store, 'ans-1', 'a', { questionCount: 2 });
    const first = await store.answerQuestion('ans-1', 'a', 0, answer('U1', 'B'));
    expect(first.status).toBe('recorded');
    expect(first.ask?.status).toBe('open');
    expect(first.ask?.resolutions).toStrictEqual([answer('U1', 'B'), null]);

    const again = await store.answerQuestion('ans-1', 'a', 0, answer('U2', 'A'));
    expect(again.status).toBe('already-resolved');
    expect(again.ask?.resolutions[0]).toStrictEqual(answer('U1', 'B'));

    const last = await store.answerQuestion('ans-1', 'a', 1, answer('U2', 'A'));
    expect(last.status).toBe('completed');
    expect(last.ask?.status).toBe('resolved');
    expect(last.ask?.resolutions).toStrictEqual([answer('U1', 'B'), answer('U2', 'A')]);

    const late = await store.answerQuestion('ans-1', 'a', 1, answer('U3', 'B'));
    expect(late.status).toBe('closed');
    expect(late.ask?.resolutions[1]).toStrictEqual(answer('U2', 'A'));
  });

  it('moves a completed ask to the resolved band of the index, scored by its resolvedAt', async () => {
    await pausedAsk(store, 'ans-index', 'a');
    expect(await band('ans-index|a')).toBe('unshown');
    await store.answerQuestion('ans-index', 'a', 0, answer('U1'));
    const resolvedAt = Number(await redis.hget(store.keys.ask('ans-index', 'a'), 'resolvedAt'));
    expect(resolvedAt).toBeGreaterThan(0);
    expect(Number(await redis.zscore(store.keys.askIndex(), 'ans-index|a'))).toBe(resolvedScore(resolvedAt));
    expect(await store.listUnresumedAsks(10_000)).toContainEqual({ turnId: 'ans-index', askId: 'a' });
  });

  it('does not re-add an ask to the index when its turn consumed it before the completion got there', async () => {
    await pausedAsk(store, 'ans-consumed', 'a');
    // The turn consumed the ask (ZREM) before this completion's ZADD arrives (a slow link, a replayed queue).
    await store.unindexAsk('ans-consumed', 'a');
    expect((await store.answerQuestion('ans-consumed', 'a', 0, answer('U1'))).status).toBe('completed');
    await redis.ping();
    expect(await band('ans-consumed|a')).toBeNull();
  });

  it('reports a failed index move to onBackgroundError; the answer itself stands', async () => {
    const errors: Array<{ error: unknown; operation: string }> = [];
    const failing = storeForTest('asks-index-error', {
      onBackgroundError: (error, operation) => errors.push({ error, operation }),
    });
    try {
      await pausedAsk(failing.store, 'ans-index-error', 'a');
      await failing.redis.del(failing.store.keys.askIndex());
      await failing.redis.set(failing.store.keys.askIndex(), 'not a zset');
      const result = await failing.store.answerQuestion('ans-index-error', 'a', 0, answer('U1'));
      expect(result.status).toBe('completed');
      await expect.poll(() => errors.length).toBe(1);
      expect(errors[0]?.operation).toBe('moveToUnresumed');
      expect(String(errors[0]?.error)).toMatch(/WRONGTYPE/);
    } finally {
      await failing.close();
    }
  });

  it('reports not-found with a null ask', async () => {
    expect(await store.answerQuestion('nope', 'a', 0, answer('U1'))).toStrictEqual({
      status: 'not-found',
      ask: null,
    });
  });

  it.each([-1, 1, 0.5])(
    'throws StateError state_invalid_argument for question index %s of a 1-question ask',
    async (index) => {
      await pausedAsk(store, `ans-index-${index}`, 'a');
      const error = await store
        .answerQuestion(`ans-index-${index}`, 'a', index, answer('U1'))
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(StateError);
      expect(error).toMatchObject({ code: 'state_invalid_argument' });
      expect((await store.getAsk(`ans-index-${index}`, 'a'))?.resolutions).toStrictEqual([null]);
    },
  );

  const policies: Array<{
    name: string;
    answerers:
      | { mode: 'anyone' }
      | { mode: 'requester' }
      | { mode: 'list'; userIds: string[]; groupIds: string[] };
    userId: string;
    inAllowedGroup?: boolean;
    expected: 'completed' | 'forbidden';
  }> = [
    {
      name: 'anyone lets a stranger answer',
      answerers: { mode: 'anyone' },
      userId: 'U_X',
      expected: 'completed',
    },
    {
      name: 'requester lets the requester answer',
      answerers: { mode: 'requester' },
      userId: 'U_REQ',
      expected: 'completed',
    },
    {
      name: 'requester refuses another person',
      answerers: { mode: 'requester' },
      userId: 'U_X',
      expected: 'forbidden',
    },
    {
      name: 'list lets a listed user answer',
      answerers: { mode: 'list', userIds: ['U_A', 'U_B'], groupIds: [] },
      userId: 'U_B',
      expected: 'completed',
    },
    {
      name: 'list refuses an unlisted user',
      answerers: { mode: 'list', userIds: ['U_A', 'U_B'], groupIds: ['S1'] },
      userId: 'U_C',
      expected: 'forbidden',
    },
    {
      name: 'list refuses a prefix of a listed id',
      answerers: { mode: 'list', userIds: ['U_AB'], groupIds: [] },
      userId: 'U_A',
      expected: 'forbidden',
    },
    {
      name: 'list lets a member of an allowed group answer',
      answerers: { mode: 'list', userIds: ['U_A'], groupIds: ['S1'] },
      userId: 'U_C',
      inAllowedGroup: true,
      expected: 'completed',
    },
    {
      name: 'list refuses an empty user id',
      answerers: { mode: 'list', userIds: [], groupIds: [] },
      userId: '',
      expected: 'forbidden',
    },
  ];
  it.each(policies)(
    'answerer policy: $name',
    async ({ name, answerers, userId, inAllowedGroup, expected }) => {
      const turnId = `policy-${name.replaceAll(' ', '-')}`;
      await pausedAsk(store, turnId, 'a', { answerers });
      const result = await store.answerQuestion(turnId, 'a', 0, answer(userId), {
        inAllowedGroup: inAllowedGroup ?? false,
      });
      expect(result.status).toBe(expected);
      expect(result.ask?.resolutions).toStrictEqual(expected === 'forbidden' ? [null] : [answer(userId)]);
    },
  );
});

describe('answerQuestion and the definition cache', () => {
  /** A store as another process has it: same Redis and prefix, its own (empty) definition cache. */
  function otherProcess(): { other: RedisTurnStore; definitions: DefinitionCache } {
    const definitions = new DefinitionCache();
    return { other: new RedisTurnStore(redis, { prefix, definitions }), definitions };
  }

  it('answers an ask this process never read: the reply carries the definition, which is then cached', async () => {
    const written = await pausedAsk(store, 'cache-cold', 'a', { questionCount: 2 });
    const { other, definitions } = otherProcess();
    const key = other.keys.ask('cache-cold', 'a');
    expect(definitions.entry(key)).toBeUndefined();

    const first = await other.answerQuestion('cache-cold', 'a', 0, answer('U1', 'B'));
    expect(first.status).toBe('recorded');
    expect(first.ask?.questions).toStrictEqual(written.questions);
    expect(definitions.entry(key)?.digest).toBe(await redis.hget(key, 'dsum'));

    const last = await other.answerQuestion('cache-cold', 'a', 1, answer('U2', 'A'));
    expect(last.status).toBe('completed');
    expect(last.ask?.questions).toStrictEqual(written.questions);
    expect(last.ask?.resolutions).toStrictEqual([answer('U1', 'B'), answer('U2', 'A')]);
  });

  it('does not use a cached definition of an earlier ask under the same key', async () => {
    const { other } = otherProcess();
    await pausedAsk(other, 'cache-reused', 'a', { questionCount: 1 });
    expect((await other.getAsk('cache-reused', 'a'))?.questions).toHaveLength(1);
    await redis.del(store.keys.turn('cache-reused'), store.keys.ask('cache-reused', 'a'));
    const second = await pausedAsk(store, 'cache-reused', 'a', { questionCount: 3 });

    const result = await other.answerQuestion('cache-reused', 'a', 0, answer('U1'));
    expect(result.status).toBe('recorded');
    expect(result.ask?.questions).toStrictEqual(second.questions);
    expect(result.ask?.resolutions).toStrictEqual([answer('U1'), null, null]);
  });

  it('answers with the definition it held when it sent the digest, even if the cache dropped it meanwhile', async () => {
    const { result: answered, written } = await withEntryEvictedInFlight('ev', (proc, turnId) =>
      proc.answerQuestion(turnId, 'a', 0, answer('U1')),
    );
    expect(answered.status).toBe('completed');
    expect(answered.ask?.questions).toStrictEqual(written.questions);
    expect(await band('ev-a|a')).toBe('resolved');
  });

  it('reads an ask written before definition digests existed (no dsum field), on every path', async () => {
    const written = await pausedAsk(store, 'cache-old', 'a', { questionCount: 2 });
    const key = store.keys.ask('cache-old', 'a');
    await redis.hdel(key, 'dsum');
    const { other, definitions } = otherProcess();

    expect((await other.getAsk('cache-old', 'a'))?.questions).toStrictEqual(written.questions);
    const first = await other.answerQuestion('cache-old', 'a', 0, answer('U1'));
    expect(first.ask?.questions).toStrictEqual(written.questions);
    const cached = await store.answerQuestion('cache-old', 'a', 1, answer('U2'));
    expect(cached.status).toBe('completed');
    expect(cached.ask?.questions).toStrictEqual(written.questions);
    expect(definitions.entry(key)).toBeUndefined();
  });

  it('stores the digest of the definition it wrote', async () => {
    await pausedAsk(store, 'cache-digest', 'a');
    const key = store.keys.ask('cache-digest', 'a');
    const def = await redis.hget(key, 'def');
    expect(def).not.toBeNull();
    expect(await redis.hget(key, 'dsum')).toBe(definitionDigest(def ?? ''));
  });
});

describe('getAsk', () => {
  it('returns null for an absent ask', async () => {
    expect(await store.getAsk('nope', 'a')).toBeNull();
  });

  it('shares the parsed definition between reads, deeply frozen so that no caller can change it for others', async () => {
    await pausedAsk(store, 'get-frozen', 'a');
    const first = await store.getAsk('get-frozen', 'a');
    const second = await store.getAsk('get-frozen', 'a');
    expect(second).toStrictEqual(first);
    expect(Object.isFrozen(first?.questions[0]?.options)).toBe(true);
    expect(() =>
      first?.questions[0]?.options?.push({ label: 'C', description: null, recommended: false }),
    ).toThrow(TypeError);
  });
});

describe('resolveOpenQuestions', () => {
  it('keeps earlier answers, fills the rest, completes once, then reports closed', async () => {
    await pausedAsk(store, 'res-1', 'a', { questionCount: 3 });
    await store.answerQuestion('res-1', 'a', 1, answer('U1', 'B'));
    const fallbacks = [assumed('A'), assumed('A'), assumed('B')];
    const result = await store.resolveOpenQuestions('res-1', 'a', fallbacks);
    expect(result.status).toBe('completed');
    expect(result.ask?.status).toBe('resolved');
    expect(result.ask?.resolutions).toStrictEqual([assumed('A'), answer('U1', 'B'), assumed('B')]);
    const again = await store.resolveOpenQuestions('res-1', 'a', fallbacks);
    expect(again.status).toBe('closed');
    expect(await band('res-1|a')).toBe('resolved');
  });

  it('resolves as not shown', async () => {
    await pausedAsk(store, 'res-ns', 'a');
    const notShown: QuestionResolution = { ...assumed('A'), source: 'not_shown' };
    const result = await store.resolveOpenQuestions('res-ns', 'a', [notShown]);
    expect(result.status).toBe('completed');
    expect(result.ask?.resolutions).toStrictEqual([notShown]);
  });

  it('throws state_invalid_argument and writes nothing with too few fallbacks', async () => {
    await pausedAsk(store, 'res-few', 'a', { questionCount: 2 });
    await expect(store.resolveOpenQuestions('res-few', 'a', [assumed()])).rejects.toMatchObject({
      code: 'state_invalid_argument',
    });
    expect((await store.getAsk('res-few', 'a'))?.status).toBe('open');
  });

  it('a process that read the ask gets the reply without the definition, and the resolutions it wrote as they are', async () => {
    const written = await pausedAsk(store, 'res-known', 'a', { questionCount: 2 });
    const definitions = new DefinitionCache();
    const reader = new RedisTurnStore(redis, { prefix, definitions });
    const read = await reader.getAsk('res-known', 'a');
    const fallbacks = [assumed('A'), assumed('B')];
    const result = await reader.resolveOpenQuestions('res-known', 'a', fallbacks);
    expect(result.status).toBe('completed');
    // The very definition object it cached when it read the ask: nothing parsed again.
    expect(result.ask?.questions).toBe(read?.questions);
    expect(result.ask?.resolutions).toStrictEqual(fallbacks);
    expect(result.ask?.resolutions[0]).toBe(fallbacks[0]);
    // A process that never read it gets the definition in the reply.
    const cold = await pausedAsk(store, 'res-cold', 'a', { questionCount: 2 });
    const other = new RedisTurnStore(redis, { prefix, definitions: new DefinitionCache() });
    const coldResult = await other.resolveOpenQuestions('res-cold', 'a', fallbacks);
    expect(coldResult.ask?.questions).toStrictEqual(cold.questions);
    expect(coldResult.ask?.questions).toStrictEqual(written.questions);
  });

  it('sends the digest of the definition it holds, and none for an ask it never read', async () => {
    await pausedAsk(store, 'res-sent', 'a');
    await pausedAsk(store, 'res-unsent', 'a');
    const reader = new RedisTurnStore(redis, { prefix, definitions: new DefinitionCache() });
    await reader.getAsk('res-sent', 'a');
    const sent = vi.spyOn(redis, 'sendCommand');
    try {
      await reader.resolveOpenQuestions('res-sent', 'a', [assumed('A')]);
      await reader.resolveOpenQuestions('res-unsent', 'a', [assumed('A')]);
      // EVALSHA's arguments: sha, key count, the ask key, now, onlyIfDue, the digest, the fallbacks.
      const digestSentFor = (key: string) =>
        sent.mock.calls
          .map(([command]) => command as unknown as { name: string; args: unknown[] })
          .find((command) => /^eval/.test(command.name) && command.args[2] === key)?.args[5];
      expect(digestSentFor(store.keys.ask('res-sent', 'a'))).toBe(
        await redis.hget(store.keys.ask('res-sent', 'a'), 'dsum'),
      );
      expect(digestSentFor(store.keys.ask('res-unsent', 'a'))).toBe('');
    } finally {
      sent.mockRestore();
    }
  });

  it('resolves with the definition it held when it sent the digest, even if the cache dropped it meanwhile', async () => {
    const { result: resolved, written } = await withEntryEvictedInFlight('rev', (proc, turnId) =>
      proc.resolveOpenQuestions(turnId, 'a', [assumed('A')]),
    );
    expect(resolved.status).toBe('completed');
    expect(resolved.ask?.questions).toStrictEqual(written.questions);
  });

  it('resolves an ask written before definition digests existed (no dsum field) with a warm cache', async () => {
    const written = await pausedAsk(store, 'res-old', 'a', { questionCount: 2 });
    await redis.hdel(store.keys.ask('res-old', 'a'), 'dsum');
    const reader = new RedisTurnStore(redis, { prefix, definitions: new DefinitionCache() });
    await reader.getAsk('res-old', 'a');
    const result = await reader.resolveOpenQuestions('res-old', 'a', [assumed('A'), assumed('B')]);
    expect(result.status).toBe('completed');
    expect(result.ask?.questions).toStrictEqual(written.questions);
  });

  it('the script leaves def out of its reply only when the caller sent the stored digest', async () => {
    await pausedAsk(store, 'res-digest', 'a');
    await pausedAsk(store, 'res-digest-2', 'a');
    const script = storeScripts().resolveOpenQuestions.lua;
    const fieldsOf = (reply: unknown) =>
      ((reply as [number, string[]])[1] ?? []).filter((_, i) => i % 2 === 0);
    const key = store.keys.ask('res-digest', 'a');
    const digest = (await redis.hget(key, 'dsum')) ?? '';
    const fallback = JSON.stringify(assumed('A'));
    const known = await redis.eval(script, 1, key, Date.now(), '0', digest, fallback);
    expect(fieldsOf(known)).toContain('status');
    expect(fieldsOf(known)).not.toContain('def');
    const key2 = store.keys.ask('res-digest-2', 'a');
    for (const sent of ['', 'another-digest'])
      expect(fieldsOf(await redis.eval(script, 1, key2, Date.now(), '0', sent, fallback))).toContain('def');
  });

  it('reports not-found', async () => {
    expect((await store.resolveOpenQuestions('nope', 'a', [assumed()])).status).toBe('not-found');
  });
});

describe('cancelAsk', () => {
  const at = '2024-01-01T00:05:00.000Z';
  const canceled: QuestionResolution = {
    status: 'canceled',
    selected: [],
    other: null,
    answeredBy: 'U_REQ',
    answeredAt: at,
    source: 'cancel',
    assumption: null,
  };

  it('refuses anyone but the requester', async () => {
    await pausedAsk(store, 'cancel-1', 'a');
    const result = await store.cancelAsk('cancel-1', 'a', 'U_X', at);
    expect(result.status).toBe('forbidden');
    expect(result.ask?.status).toBe('open');
  });

  it('lets the requester cancel: unresolved slots canceled, answers kept; then closed', async () => {
    await pausedAsk(store, 'cancel-2', 'a', { questionCount: 2 });
    await store.answerQuestion('cancel-2', 'a', 0, answer('U1'));
    const result = await store.cancelAsk('cancel-2', 'a', 'U_REQ', at);
    expect(result.status).toBe('completed');
    expect(result.ask?.resolutions).toStrictEqual([answer('U1'), canceled]);
    expect((await store.cancelAsk('cancel-2', 'a', 'U_REQ', at)).status).toBe('closed');
  });

  it('reports not-found', async () => {
    expect((await store.cancelAsk('nope', 'a', 'U_REQ', at)).status).toBe('not-found');
  });

  it('an uninstall cancels without a requester and names nobody; listOpenAsks lists it before, not after', async () => {
    await pausedAsk(store, 'cancel-3', 'a');
    expect(await store.listOpenAsks(1000)).toContainEqual({ turnId: 'cancel-3', askId: 'a' });
    const result = await store.cancelAsk('cancel-3', 'a', '', at, { uninstalled: true });
    expect(result.status).toBe('completed');
    expect(result.ask?.resolutions).toStrictEqual([{ ...canceled, answeredBy: null }]);
    expect(await store.listOpenAsks(1000)).not.toContainEqual({ turnId: 'cancel-3', askId: 'a' });
  });
});

describe('markAskShown', () => {
  it('sets shownAt, deadline and messageRef once (first call wins)', async () => {
    const ask = await pausedAsk(store, 'shown-1', 'a', { timeoutMs: 60_000 });
    const ref = JSON.stringify({ channel: 'C1', ts: '1700000001.000200' });
    const first = await store.markAskShown('shown-1', 'a', 1_700_000_000_000, ref);
    expect(first).toMatchObject({ shownAt: 1_700_000_000_000, deadline: 1_700_000_060_000, messageRef: ref });
    expect(first?.questions).toStrictEqual(ask.questions);
    const second = await store.markAskShown('shown-1', 'a', 1_700_000_999_999, 'other');
    expect(second).toMatchObject({
      shownAt: 1_700_000_000_000,
      deadline: 1_700_000_060_000,
      messageRef: ref,
    });
    expect(await redis.zscore(store.keys.askIndex(), 'shown-1|a')).toBe('1700000060000');
  });

  it('keeps messageRef null when none is given', async () => {
    await pausedAsk(store, 'shown-null', 'a');
    expect((await store.markAskShown('shown-null', 'a', Date.now(), null))?.messageRef).toBeNull();
  });

  it('returns null for an absent ask', async () => {
    expect(await store.markAskShown('nope', 'a', Date.now(), null)).toBeNull();
  });

  it('does not take a resolved ask back to open, nor re-add a consumed one', async () => {
    await pausedAsk(store, 'shown-late', 'a');
    await store.resolveOpenQuestions('shown-late', 'a', [assumed()]);
    await store.markAskShown('shown-late', 'a', Date.now(), null);
    expect(await band('shown-late|a')).toBe('resolved');
    await store.unindexAsk('shown-late', 'a');
    await store.markAskShown('shown-late', 'a', Date.now(), null);
    expect(await band('shown-late|a')).toBeNull();
  });
});

describe('markResumeQueued', () => {
  it('is set by the first call only', async () => {
    await pausedAsk(store, 'resume-1', 'a');
    await store.answerQuestion('resume-1', 'a', 0, answer('U1'));
    const results = await Promise.all(
      [1, 2, 3, 4, 5].map((at) => store.markResumeQueued('resume-1', 'a', at)),
    );
    expect(results.filter(Boolean)).toHaveLength(1);
    const ask = await store.getAsk('resume-1', 'a');
    expect(ask?.resumeQueuedAt).toBe(results.indexOf(true) + 1);
  });

  it('is false for an absent ask', async () => {
    expect(await store.markResumeQueued('nope', 'a', 1)).toBe(false);
  });
});

describe('indexes', () => {
  it('lists overdue asks with one range: past deadlines and unshown asks past the grace', async () => {
    const local = storeForTest('overdue');
    try {
      const now = Date.now();
      const minute = 60_000;
      // Unshown, created 10 min ago: overdue with a 5-min grace.
      await pausedAsk(local.store, 'old-unshown', 'a', {
        createdAt: new Date(now - 10 * minute).toISOString(),
      });
      // Unshown, created 1 min ago: not yet.
      await pausedAsk(local.store, 'new-unshown', 'a', { createdAt: new Date(now - minute).toISOString() });
      // Shown, deadline 1 min ago: overdue.
      await pausedAsk(local.store, 'shown-past', 'a', { timeoutMs: minute });
      await local.store.markAskShown('shown-past', 'a', now - 2 * minute, null);
      // Shown, deadline exactly now: overdue (at or before now).
      await pausedAsk(local.store, 'shown-now', 'a', { timeoutMs: minute });
      await local.store.markAskShown('shown-now', 'a', now - minute, null);
      // Shown, deadline in 29 min: not yet.
      await pausedAsk(local.store, 'shown-future', 'a', { timeoutMs: 30 * minute });
      await local.store.markAskShown('shown-future', 'a', now - minute, null);
      // Resolved: not open any more.
      await pausedAsk(local.store, 'resolved', 'a', { createdAt: new Date(now - 10 * minute).toISOString() });
      await local.store.answerQuestion('resolved', 'a', 0, answer('U1'));

      const overdue = await local.store.listOverdueAsks(now, 5 * minute, 100);
      expect(overdue.map((r) => r.turnId).sort()).toStrictEqual(['old-unshown', 'shown-now', 'shown-past']);
      expect(await local.store.listOverdueAsks(now, 5 * minute, 1)).toHaveLength(1);
      expect(await local.store.listUnresumedAsks(10)).toStrictEqual([{ turnId: 'resolved', askId: 'a' }]);

      await local.store.unindexAsk('resolved', 'a');
      await local.store.unindexAsk('old-unshown', 'a');
      expect(await local.store.listUnresumedAsks(10)).toStrictEqual([]);
      expect(
        (await local.store.listOverdueAsks(now, 5 * minute, 100)).map((r) => r.turnId).sort(),
      ).toStrictEqual(['shown-now', 'shown-past']);
    } finally {
      await local.close();
    }
  });

  it('lists unresumed asks oldest resolution first', async () => {
    const local = storeForTest('unresumed');
    try {
      for (const turnId of ['u1', 'u2', 'u3']) {
        await pausedAsk(local.store, turnId, 'a');
        await local.store.answerQuestion(turnId, 'a', 0, answer('U1'));
        await new Promise((resolve) => setTimeout(resolve, 3));
      }
      expect((await local.store.listUnresumedAsks(2)).map((r) => r.turnId)).toStrictEqual(['u1', 'u2']);
    } finally {
      await local.close();
    }
  });

  it('counts unshown and shown open asks as open, resolved ones not, and drops consumed ones', async () => {
    const local = storeForTest('count-open');
    try {
      await pausedAsk(local.store, 'c-unshown', 'a');
      await pausedAsk(local.store, 'c-shown', 'a');
      await local.store.markAskShown('c-shown', 'a', Date.now(), null);
      await pausedAsk(local.store, 'c-resolved', 'a');
      await local.store.answerQuestion('c-resolved', 'a', 0, answer('U1'));
      expect(await local.store.countOpenAsks()).toBe(2);
      expect(await local.store.listUnresumedAsks(10)).toStrictEqual([{ turnId: 'c-resolved', askId: 'a' }]);
      expect(await local.store.listOverdueAsks(Date.now() + 3_600_000_000, 0, 10)).toHaveLength(2);
      await local.store.unindexAsk('c-resolved', 'a');
      expect(await local.store.listUnresumedAsks(10)).toStrictEqual([]);
      expect(await local.store.countOpenAsks()).toBe(2);
    } finally {
      await local.close();
    }
  });
});

describe('openAsk (an ask of its own scope)', () => {
  const standalone = (askId: string) => ({
    ...makeAsk(standaloneScope(askId), askId, { questionCount: 2 }),
    waiter: { kind: 'api' as const, clientName: 'deploy-script' },
    requestedBy: 'deploy-script',
  });

  it('opens once under its own hash tag, indexed as not yet shown; the transitions work on it as on a turn ask', async () => {
    const definition = standalone('std-1');
    expect(await store.openAsk(definition)).toBe(true);
    expect(await store.openAsk({ ...definition, timeoutMs: 5 })).toBe(false);
    const key = store.keys.ask('ask-std-1', 'std-1');
    expect(key).toContain('{t:ask-std-1}');
    expect(await redis.pttl(key)).toBeGreaterThan(1_800_000);
    const opened = await store.getAsk('ask-std-1', 'std-1');
    expect(opened).toMatchObject({
      scope: 'ask-std-1',
      waiter: { kind: 'api', clientName: 'deploy-script' },
    });
    expect(opened?.status).toBe('open');
    expect(opened?.timeoutMs).toBe(1_800_000);
    expect(await band('ask-std-1|std-1')).toBe('unshown');

    await store.markAskShown('ask-std-1', 'std-1', Date.now(), 'msg');
    expect((await store.answerQuestion('ask-std-1', 'std-1', 0, answer('U1'))).status).toBe('recorded');
    expect((await store.resolveOpenQuestions('ask-std-1', 'std-1', [assumed(), assumed()])).status).toBe(
      'completed',
    );
    expect(await band('ask-std-1|std-1')).toBe('resolved');
    // Only the program that opened it (its requester) may cancel; it is resolved already here.
    expect(
      (await store.cancelAsk('ask-std-1', 'std-1', 'deploy-script', new Date().toISOString())).status,
    ).toBe('closed');
  });

  it('a cancel by the program that opened it resolves every open question as canceled', async () => {
    await store.openAsk(standalone('std-2'));
    expect(
      (await store.cancelAsk('ask-std-2', 'std-2', 'someone-else', new Date().toISOString())).status,
    ).toBe('forbidden');
    const canceled = await store.cancelAsk('ask-std-2', 'std-2', 'deploy-script', new Date().toISOString());
    expect(canceled.status).toBe('completed');
    expect(canceled.ask?.resolutions.map((r) => r?.status)).toEqual(['canceled', 'canceled']);
  });
});
