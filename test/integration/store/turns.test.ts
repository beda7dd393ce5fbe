import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import type { TurnRecord } from '../../../src/agent/turn-record.js';
import { StateError, SystemError } from '../../../src/errors.js';
import { RedisTurnStore } from '../../../src/store/redis-turn-store.js';
import { prose } from '../../support/prose.js';
import { isClusterRun, testRedisUrl } from '../../support/redis.js';
import { freePort } from '../../support/redis-server.js';
import { answer, makeAsk, makeTurn, pausedAsk, storeForTest } from './builders.js';

const RETENTION_MS = 3_600_000;
const ENDED_RETENTION_MS = 60_000;
const { redis, store, close } = storeForTest('turns', {
  retentionMs: RETENTION_MS,
  endedRetentionMs: ENDED_RETENTION_MS,
});
afterAll(close);

describe('createTurn / getTurn', () => {
  it('creates at rev 1 once and reads it back', async () => {
    const turn = makeTurn('create-1', { rev: 7 });
    expect(await store.createTurn(turn)).toBe(true);
    expect(await store.createTurn(turn)).toBe(false);
    expect(await store.getTurn('create-1')).toStrictEqual({ ...turn, rev: 1 });
  });

  it('returns null for an absent turn', async () => {
    expect(await store.getTurn('absent')).toBeNull();
  });

  it('sets the running TTL', async () => {
    await store.createTurn(makeTurn('create-ttl'));
    const ttl = await redis.pttl(store.keys.turn('create-ttl'));
    expect(ttl).toBeGreaterThan(RETENTION_MS - 5_000);
    expect(ttl).toBeLessThanOrEqual(RETENTION_MS);
  });
});

/** A history of `count` alternating user/assistant messages of about 500 characters each. */
function history(count: number): TurnRecord['messages'] {
  return Array.from({ length: count }, (_, index) =>
    index % 2 === 0
      ? { role: 'user' as const, content: `question ${index}: ${'x'.repeat(480)}` }
      : { role: 'assistant' as const, content: `answer ${index}: ${'y'.repeat(480)}` },
  );
}

/** Bytes of the arguments of every command to `key` while `work` runs (Redis MONITOR). */
async function bytesWrittenTo(key: string, work: () => Promise<unknown>): Promise<number> {
  const monitor = await new Redis(testRedisUrl()).monitor();
  let bytes = 0;
  monitor.on('monitor', (_time: string, args: string[]) => {
    if (args.includes(key)) bytes += args.reduce((sum, arg) => sum + Buffer.byteLength(arg), 0);
  });
  await new Promise((resolve) => setTimeout(resolve, 50));
  await work();
  await new Promise((resolve) => setTimeout(resolve, 100));
  monitor.disconnect();
  return bytes;
}

describe('append-only turn state: a commit writes only what changed', () => {
  it.skipIf(isClusterRun())('a step adds its messages; the 20 KB history is not written again', async () => {
    // Random text, which deflating cannot shrink: rewriting the history would show as over 20 KB written.
    const messages = Array.from({ length: 40 }, (_, index) => ({
      role: index % 2 === 0 ? ('user' as const) : ('assistant' as const),
      content: randomBytes(360).toString('base64'),
    }));
    const turn = makeTurn('append-1', { messages });
    await store.createTurn(turn);
    const key = store.keys.turn('append-1');
    // A first step (which also loads the script into Redis, so that the measured call is an EVALSHA).
    const first = (await store.getTurn('append-1')) as TurnRecord;
    const warm = { ...first, messages: [...first.messages, { role: 'user' as const, content: 'warm' }] };
    expect((await store.commitTurn(warm, first.rev)).ok).toBe(true);
    const read = (await store.getTurn('append-1')) as TurnRecord;
    const step = { role: 'assistant' as const, content: 'one more step' };
    const next = { ...read, messages: [...read.messages, step], stepCount: 1 };
    const historyBytes = read.messages.reduce((sum, message) => sum + JSON.stringify(message).length, 0);
    const written = await bytesWrittenTo(key, () => store.commitTurn(next, read.rev));
    // The head (ids, counts, outbox) and one message, not the ~20 KB of history.
    expect(historyBytes).toBeGreaterThan(20_000);
    expect(written).toBeGreaterThan(0);
    expect(written).toBeLessThan(2_000);
    expect(await store.getTurn('append-1')).toStrictEqual({ ...next, rev: read.rev + 1 });
  });

  const extra = { role: 'assistant' as const, content: 'extra' };

  it('writes from the first changed message: a replaced last message, a shorter list, a list rebuilt elsewhere', async () => {
    const turn = makeTurn('append-2', { messages: history(6) });
    await store.createTurn(turn);
    let current = (await store.getTurn('append-2')) as TurnRecord;
    // The last message replaced (as a tool message gains a result), one added.
    const replaced = [...current.messages.slice(0, 5), { role: 'user' as const, content: 'changed' }, extra];
    expect((await store.commitTurn({ ...current, messages: replaced }, current.rev)).ok).toBe(true);
    current = (await store.getTurn('append-2')) as TurnRecord;
    expect(current.messages).toStrictEqual(replaced);
    // Shorter: the fields past the end are gone.
    const shorter = current.messages.slice(0, 2);
    expect((await store.commitTurn({ ...current, messages: shorter }, current.rev)).ok).toBe(true);
    current = (await store.getTurn('append-2')) as TurnRecord;
    expect(current.messages).toStrictEqual(shorter);
    // Chunks past the kept ones are gone: the history's chunk was cut, so it was written again, whole.
    expect(await redis.hget(store.keys.turn('append-2'), 'mcount')).toBe('2');
    expect(await redis.hget(store.keys.turn('append-2'), 'ccount')).toBe('1');
    expect(await redis.hexists(store.keys.turn('append-2'), 'c1')).toBe(0);
    // Equal messages that this store never saw (another process rebuilt them) are written whole.
    const other = new RedisTurnStore(redis, { prefix: store.keys.prefix });
    const copies = structuredClone(current.messages);
    expect((await other.commitTurn({ ...current, messages: [...copies, extra] }, current.rev)).ok).toBe(true);
    expect((await store.getTurn('append-2'))?.messages).toStrictEqual([...copies, extra]);
  });

  it('one chunk per commit: the fields grow with the steps, not with the messages', async () => {
    const turn = makeTurn('append-4', { messages: history(40) });
    await store.createTurn(turn);
    let current = (await store.getTurn('append-4')) as TurnRecord;
    for (let step = 0; step < 3; step += 1) {
      const messages = [...current.messages, extra, { role: 'user' as const, content: `more ${step}` }];
      expect((await store.commitTurn({ ...current, messages }, current.rev)).ok).toBe(true);
      current = (await store.getTurn('append-4')) as TurnRecord;
    }
    const key = store.keys.turn('append-4');
    expect(await redis.hget(key, 'ccount')).toBe('4');
    expect(current.messages).toHaveLength(46);
    // rev, head, ccount, mcount and the four chunks.
    expect(await redis.hlen(key)).toBe(8);
  });

  it('a large chunk is stored deflated: the turn key takes less memory than the history, and reads back equal', async () => {
    // Conversation-like text, which deflates about as English does (repeated letters would flatter it).
    const messages = Array.from({ length: 40 }, (_, index) =>
      index % 2 === 0
        ? { role: 'user' as const, content: prose(500, index) }
        : { role: 'assistant' as const, content: prose(500, index) },
    );
    const turn = makeTurn('deflate-1', { messages });
    await store.createTurn(turn);
    const key = store.keys.turn('deflate-1');
    const historyBytes = Buffer.byteLength(JSON.stringify(turn.messages));
    const stored = (await redis.hgetBuffer(key, 'c0')) as Buffer;
    expect(stored[0]).toBe(0x78);
    expect(Number(await redis.memory('USAGE', key, 'SAMPLES', '0'))).toBeLessThan(historyBytes / 2);
    expect(await store.getTurn('deflate-1')).toStrictEqual({ ...turn, rev: 1 });
    // A short step stays JSON beside it.
    const read = (await store.getTurn('deflate-1')) as TurnRecord;
    const next = { ...read, messages: [...read.messages, extra] };
    expect((await store.commitTurn(next, read.rev)).ok).toBe(true);
    expect(await redis.hget(key, 'c1')).toBe(JSON.stringify([extra]));
    expect(await store.getTurn('deflate-1')).toStrictEqual({ ...next, rev: 2 });
  });

  it('a chunk stored as JSON text (before chunks were deflated) is read as it is', async () => {
    const turn = makeTurn('deflate-2', { messages: history(4) });
    const key = store.keys.turn('deflate-2');
    const { messages, ...head } = { ...turn, rev: 1 };
    await redis.hset(
      key,
      'rev',
      '1',
      'head',
      JSON.stringify(head),
      'ccount',
      '1',
      'mcount',
      '4',
      'c0',
      JSON.stringify(messages),
    );
    expect(await store.getTurn('deflate-2')).toStrictEqual({ ...turn, rev: 1 });
  });

  it('a damaged deflated chunk is a corrupt record naming the key, not a crash', async () => {
    await store.createTurn(makeTurn('deflate-3', { messages: history(40) }));
    const key = store.keys.turn('deflate-3');
    const stored = (await redis.hgetBuffer(key, 'c0')) as Buffer;
    await redis.hset(key, 'c0', stored.subarray(0, stored.length - 20));
    const error = await store.getTurn('deflate-3').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(StateError);
    expect(error).toMatchObject({ code: 'state_corrupt_record' });
    expect((error as Error).message).toContain(key);
  });

  it('a turn stored whole (field data, before this layout) is read, then rewritten one message per field', async () => {
    const turn = { ...makeTurn('append-3', { messages: history(4) }), rev: 3 };
    const key = store.keys.turn('append-3');
    await redis.hset(key, 'rev', '3', 'data', JSON.stringify(turn));
    const read = (await store.getTurn('append-3')) as TurnRecord;
    expect(read).toStrictEqual(turn);
    const next = { ...read, messages: [...read.messages, extra] };
    expect((await store.commitTurn(next, 3)).ok).toBe(true);
    expect(await redis.hexists(key, 'data')).toBe(0);
    expect(await redis.hget(key, 'mcount')).toBe('5');
    expect(await redis.hget(key, 'ccount')).toBe('1');
    expect(await store.getTurn('append-3')).toStrictEqual({ ...next, rev: 4 });
  });
});

describe('commitTurn', () => {
  it('commits on the expected rev and refuses a stale one', async () => {
    const turn = makeTurn('commit-1');
    await store.createTurn(turn);
    expect(await store.commitTurn({ ...turn, stepCount: 1 }, 1)).toStrictEqual({ ok: true, rev: 2 });
    expect(await store.commitTurn({ ...turn, stepCount: 99 }, 1)).toStrictEqual({
      ok: false,
      reason: 'conflict',
      rev: 2,
    });
    expect(await store.getTurn('commit-1')).toStrictEqual({ ...turn, stepCount: 1, rev: 2 });
  });

  it('lets exactly one of 20 concurrent commits on the same rev win', async () => {
    const turn = makeTurn('commit-race');
    await store.createTurn(turn);
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => store.commitTurn({ ...turn, stepCount: i }, 1)),
    );
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    expect(results.filter((r) => !r.ok && r.reason === 'conflict')).toHaveLength(19);
  });

  it('reports not-found for an absent turn', async () => {
    expect(await store.commitTurn(makeTurn('commit-absent'), 1)).toStrictEqual({
      ok: false,
      reason: 'not-found',
      rev: null,
    });
  });

  it('shortens the TTL to the ended retention when the turn completes or fails', async () => {
    for (const status of ['completed', 'failed'] as const) {
      const turn = makeTurn(`commit-end-${status}`);
      await store.createTurn(turn);
      await store.commitTurn({ ...turn, status }, 1);
      const ttl = await redis.pttl(store.keys.turn(turn.turnId));
      expect(ttl).toBeGreaterThan(ENDED_RETENTION_MS - 5_000);
      expect(ttl).toBeLessThanOrEqual(ENDED_RETENTION_MS);
    }
  });

  it('never lowers the TTL of a live turn', async () => {
    const turn = makeTurn('commit-extend');
    await store.createTurn(turn);
    await redis.pexpire(store.keys.turn(turn.turnId), RETENTION_MS * 10);
    await store.commitTurn({ ...turn, stepCount: 1 }, 1);
    expect(await redis.pttl(store.keys.turn(turn.turnId))).toBeGreaterThan(RETENTION_MS * 9);
  });
});

describe('pauseTurn', () => {
  it('writes the turn, the open ask and the open index in one step', async () => {
    const ask = await pausedAsk(store, 'pause-1', 'ask-0', { questionCount: 2 });
    const turn = await store.getTurn('pause-1');
    expect(turn).toMatchObject({ rev: 2, status: 'paused', pendingAskId: 'ask-0' });
    expect(await store.getAsk('pause-1', 'ask-0')).toStrictEqual({
      ...ask,
      status: 'open',
      resolutions: [null, null],
      shownAt: null,
      deadline: null,
      messageRef: null,
      resumeQueuedAt: null,
      changes: 0,
      resolvedAt: null,
      extendedBy: null,
      delegates: [],
      nudged: [],
      votes: [{}, {}],
      overrides: [null, null],
    });
    expect(await redis.zscore(store.keys.askIndex(), 'pause-1|ask-0')).toBe(
      String(-Date.parse(ask.createdAt)),
    );
  });

  it('an index ZADD that fails alone never leaves a paused ask out of the index', async () => {
    // A client whose first ZADD gets an error reply while everything else goes through.
    let failures = 1;
    const flaky = new Proxy(redis, {
      get(target, property) {
        if (property === 'zadd')
          return (...args: Parameters<Redis['zadd']>) =>
            failures-- > 0 ? Promise.reject(new Error('injected ZADD failure')) : target.zadd(...args);
        const value: unknown = Reflect.get(target, property, target);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    const flakyStore = new RedisTurnStore(flaky, { prefix: store.keys.prefix });
    const turn = makeTurn('pause-flaky-index');
    await flakyStore.createTurn(turn);
    const ask = makeAsk('pause-flaky-index', 'ask-0');
    const paused = flakyStore.pauseTurn({ ...turn, status: 'paused', pendingAskId: 'ask-0' }, 1, ask);
    if (isClusterRun()) {
      // A Cluster client waits for the ZADD before it sends the pause: nothing is paused.
      await expect(paused).rejects.toThrow(SystemError);
      expect(await store.getTurn('pause-flaky-index')).toMatchObject({ rev: 1, status: 'running' });
      return;
    }
    // One server: the pause went out with the ZADD and stood, so the ZADD is sent again.
    expect(await paused).toStrictEqual({ ok: true, rev: 2 });
    expect(await redis.zscore(store.keys.askIndex(), 'pause-flaky-index|ask-0')).toBe(
      String(-Date.parse(ask.createdAt)),
    );
  });

  it('writes nothing when the turn rev is stale (no ask, no index member)', async () => {
    const turn = makeTurn('pause-conflict');
    await store.createTurn(turn);
    await store.commitTurn({ ...turn, stepCount: 1 }, 1);
    const result = await store.pauseTurn(
      { ...turn, status: 'paused' },
      1,
      makeAsk('pause-conflict', 'ask-0'),
    );
    expect(result).toStrictEqual({ ok: false, reason: 'conflict', rev: 2 });
    expect(await redis.exists(store.keys.ask('pause-conflict', 'ask-0'))).toBe(0);
    expect(await redis.zscore(store.keys.askIndex(), 'pause-conflict|ask-0')).toBeNull();
    expect(await store.getTurn('pause-conflict')).toMatchObject({ rev: 2, status: 'running' });
  });

  it('reports not-found for an absent turn and leaves no index member', async () => {
    const result = await store.pauseTurn(makeTurn('pause-absent'), 1, makeAsk('pause-absent', 'ask-0'));
    expect(result).toStrictEqual({ ok: false, reason: 'not-found', rev: null });
    expect(await redis.zscore(store.keys.askIndex(), 'pause-absent|ask-0')).toBeNull();
  });

  it('refuses to overwrite an existing ask (conflict) and keeps it indexed', async () => {
    await pausedAsk(store, 'pause-dup', 'ask-0');
    const turn = await store.getTurn('pause-dup');
    if (!turn) throw new Error('missing turn');
    const result = await store.pauseTurn(turn, 2, makeAsk('pause-dup', 'ask-0', { questionCount: 3 }));
    expect(result).toStrictEqual({ ok: false, reason: 'conflict', rev: 2 });
    expect((await store.getAsk('pause-dup', 'ask-0'))?.questions).toHaveLength(1);
    expect(await redis.zscore(store.keys.askIndex(), 'pause-dup|ask-0')).not.toBeNull();
  });

  it('gives turn and ask a TTL beyond the earliest possible deadline, then beyond the real deadline', async () => {
    const timeoutMs = 7_200_000;
    await pausedAsk(store, 'pause-ttl', 'ask-0', { timeoutMs });
    for (const key of [store.keys.turn('pause-ttl'), store.keys.ask('pause-ttl', 'ask-0')]) {
      expect(await redis.pttl(key)).toBeGreaterThan(timeoutMs + RETENTION_MS - 5_000);
    }
    const shownAt = Date.now() + 1_000;
    const shown = await store.markAskShown('pause-ttl', 'ask-0', shownAt, null);
    const deadline = shown?.deadline ?? 0;
    expect(deadline).toBe(shownAt + timeoutMs);
    for (const key of [store.keys.turn('pause-ttl'), store.keys.ask('pause-ttl', 'ask-0')]) {
      const ttl = await redis.pttl(key);
      expect(ttl).toBeGreaterThan(deadline - Date.now());
      expect(ttl).toBeGreaterThan(deadline + RETENTION_MS - Date.now() - 5_000);
    }
  });
});

describe('stored versions', () => {
  it('reads a version-1 turn stored in Redis as version 2', async () => {
    const fixture = readFileSync(new URL('../../fixtures/state/turn-v1.json', import.meta.url), 'utf8');
    const parsed = JSON.parse(fixture) as { turnId: string; rev: number };
    await redis.hset(store.keys.turn(parsed.turnId), 'rev', String(parsed.rev), 'data', fixture);
    const turn = await store.getTurn(parsed.turnId);
    expect(turn).toMatchObject({
      version: 2,
      status: 'paused',
      askCount: 1,
      outbox: [],
      pendingAskId: 'ask-0',
    });
    // It can be committed as version 2 on its stored rev.
    if (!turn) throw new Error('missing');
    expect(
      await store.commitTurn({ ...turn, status: 'running', pendingAskId: null }, parsed.rev),
    ).toStrictEqual({
      ok: true,
      rev: parsed.rev + 1,
    });
    expect((await store.getTurn(parsed.turnId))?.version).toBe(2);
  });

  it('refuses an unknown turn version with state_unknown_version naming version and key', async () => {
    const key = store.keys.turn('future');
    await redis.hset(key, 'rev', '1', 'data', JSON.stringify({ ...makeTurn('future'), version: 9 }));
    const error = await store.getTurn('future').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StateError);
    expect(error).toMatchObject({ code: 'state_unknown_version' });
    expect((error as Error).message).toContain('version 9');
    expect((error as Error).message).toContain(key);
  });

  it('refuses an ask with an unknown definition version', async () => {
    const key = store.keys.ask('future', 'ask-9');
    await redis.hset(
      key,
      'def',
      JSON.stringify({ ...makeAsk('future', 'ask-9'), version: 5 }),
      'status',
      'open',
    );
    await expect(store.getAsk('future', 'ask-9')).rejects.toMatchObject({ code: 'state_unknown_version' });
  });
});

describe('Redis failures', () => {
  it('become SystemError redis_failed naming the operation and key', async () => {
    const port = await freePort();
    const down = new Redis({ port, lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
    down.on('error', () => {});
    const broken = new RedisTurnStore(down, { prefix: 'down' });
    const error = await broken.getTurn('T1').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SystemError);
    expect(error).toMatchObject({
      code: 'redis_failed',
      fields: { operation: 'getTurn', key: 'down:{t:T1}:turn' },
    });
    const transition = await broken.answerQuestion('T1', 'a', 0, answer('U1')).catch((e: unknown) => e);
    expect(transition).toMatchObject({ code: 'redis_failed' });
    down.disconnect();
  });
});
