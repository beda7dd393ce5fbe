import type { Redis } from 'ioredis';
import type { TurnRecord, TurnStatus } from '../agent/turn-record.js';
import type {
  CommitResult,
  ThreadQueue,
  ToolCallLog,
  ToolCallRun,
  TurnLeases,
  TurnStore,
} from '../agent/turn-store.js';
import { ASK_LIMITS, type QuestionResolution } from '../ask/types.js';
import type { AnswerOptions, AskChange, AskStore } from '../asks/ask-store.js';
import {
  type AnswerOverride,
  type AskDefinition,
  type AskRecord,
  type AskTransitionResult,
  type AskTransitionStatus,
  canceledResolution,
  voteKey,
} from '../asks/types.js';
import { HoldpointError, SystemError } from '../errors.js';
import { flushWrites } from '../ops/coalescing-redis.js';
import {
  askDefinitionJson,
  askIndexFields,
  askRecordFromHash,
  hashFromAnswerReply,
  hashFromReply,
} from './ask-hash.js';
import { RESOLVED_SCORE_BASE, resolvedScore } from './ask-index.js';
import { type DefinitionCache, definitionCache, definitionDigest } from './definition-cache.js';
import { type AskRef, askIndexMember, DEFAULT_KEY_PREFIX, parseAskIndexMember, StoreKeys } from './keys.js';
import { defineStoreScripts, type ScriptCall, type ScriptName } from './lua/index.js';
import { MessagePositions } from './message-positions.js';
import { deserializeTurnHash, serializeTurnChunk, serializeTurnHead } from './schemas.js';
import { askTransitionStatusOf, SCRIPT_CODE, unknownCode } from './script-codes.js';

/** 7 days in ms. */
const DEFAULT_RETENTION_MS = 7 * 24 * 60 * 60 * 1000;
/** 24 hours in ms. */
const DEFAULT_ENDED_RETENTION_MS = 24 * 60 * 60 * 1000;

/** Options of {@link RedisTurnStore}. */
export interface RedisTurnStoreOptions {
  /**
   * Prefix of every key (see {@link StoreKeys}).
   * @defaultValue `hp`
   */
  prefix?: string;
  /**
   * How long per-turn keys live past the moment that matters while a turn is alive (ms): a running turn's key
   * lives at least `now + retentionMs` after each commit; a paused turn and its ask live at least until
   * `deadline + retentionMs` (`now + timeoutMs + retentionMs` until the ask is shown). TTLs of live turns are
   * only ever raised, so no key expires before an ask deadline. Also the TTL of thread holder/inbox keys.
   * @defaultValue 7 days (604,800,000 ms)
   */
  retentionMs?: number;
  /**
   * How long a turn key lives after the turn ended (ms): a commit with status `completed` or `failed` sets
   * the TTL to this. Ask keys keep their own TTL (`deadline + retentionMs`).
   * @defaultValue 24 hours (86,400,000 ms)
   */
  endedRetentionMs?: number;
  /**
   * Called when a write that nobody waits for fails: the index move after an answer completed an ask (see
   * {@link RedisTurnStore.answerQuestion}). The composition root logs it; the sweep repairs the index.
   * @defaultValue ignore
   */
  onBackgroundError?: (error: unknown, operation: string) => void;
  /**
   * Parsed ask definitions by key (see {@link DefinitionCache}).
   * @defaultValue the process-wide {@link definitionCache}, shared by every store of the process
   */
  definitions?: DefinitionCache;
}

const ENDED: ReadonlySet<TurnStatus> = new Set<TurnStatus>(['completed', 'failed']);

function scriptReply(reply: unknown, key: string): { code: number; rest: unknown[] } {
  if (typeof reply === 'number') return { code: reply, rest: [] };
  if (Array.isArray(reply) && typeof reply[0] === 'number') return { code: reply[0], rest: reply.slice(1) };
  throw unknownCode(JSON.stringify(reply), key);
}

/**
 * {@link TurnStore} on Redis (ioredis 5, standalone or Cluster: every script touches keys of one hash tag).
 *
 * Atomicity: every ask transition, the turn CAS, pause, show and the thread admission are one Lua script
 * each (`src/store/lua/`). The global ask index (`asks`, bands in `ask-index.ts`) is advisory, for the sweep
 * and the `asks_open` gauge: it is updated by single-key commands next to the scripts and is a superset of
 * the truth (an ask is indexed before `pauseTurn` writes it, and stays until its turn consumed it); the ask
 * hash is the truth.
 *
 * Errors: Redis failures are rethrown as {@link SystemError} `redis_failed`; unreadable records as
 * {@link import('../errors.js').StateError} (see `schemas.ts`). Lost races are statuses, never errors.
 */
export class RedisTurnStore implements TurnStore, TurnLeases, ThreadQueue, AskStore, ToolCallLog {
  readonly keys: StoreKeys;
  readonly #redis: Redis;
  readonly #scripts: Readonly<Record<ScriptName, ScriptCall>>;
  readonly #retentionMs: number;
  readonly #endedRetentionMs: number;
  readonly #onBackgroundError: (error: unknown, operation: string) => void;
  readonly #definitions: DefinitionCache;
  /** Whether the client is an ioredis `Cluster` (see #moveToUnresumed). */
  readonly #isCluster: boolean;
  /** Which message objects are stored where, so that a commit writes only new messages. */
  readonly #positions = new MessagePositions();
  /** Index moves waiting for the next flush (see #moveToUnresumed). */
  #indexBatch: Map<string, number> | null = null;

  /**
   * @param redis a connected ioredis client; the store defines its scripts on it (`defineCommand`).
   * @param options see {@link RedisTurnStoreOptions}
   */
  constructor(redis: Redis, options: RedisTurnStoreOptions = {}) {
    this.#redis = redis;
    this.#isCluster = (redis as { isCluster?: boolean }).isCluster === true;
    this.keys = new StoreKeys(options.prefix ?? DEFAULT_KEY_PREFIX);
    this.#retentionMs = options.retentionMs ?? DEFAULT_RETENTION_MS;
    this.#endedRetentionMs = options.endedRetentionMs ?? DEFAULT_ENDED_RETENTION_MS;
    this.#onBackgroundError = options.onBackgroundError ?? (() => {});
    this.#definitions = options.definitions ?? definitionCache;
    this.#scripts = defineStoreScripts(redis);
  }

  async createTurn(turn: TurnRecord): Promise<boolean> {
    const key = this.keys.turn(turn.turnId);
    const ttl = ENDED.has(turn.status) ? this.#endedRetentionMs : this.#retentionMs;
    const count = turn.messages.length;
    const chunk = count > 0 ? [serializeTurnChunk(turn.messages, key), String(count)] : [];
    const reply = await this.#call('createTurn', key, () =>
      this.#scripts.createTurn(key, serializeTurnHead({ ...turn, rev: 1 }), ttl, ...chunk),
    );
    const { code } = scriptReply(reply, key);
    if (code === SCRIPT_CODE.ok) {
      this.#positions.remember(key, turn.messages, count > 0 ? [count] : []);
      return true;
    }
    if (code === SCRIPT_CODE.exists) return false;
    throw unknownCode(code, key);
  }

  /**
   * Reads a turn with one HGETALL: its head (checked) and its message chunks (parsed only), or a turn stored
   * whole by an earlier version.
   */
  async getTurn(turnId: string): Promise<TurnRecord | null> {
    const key = this.keys.turn(turnId);
    const fields = await this.#call('getTurn', key, () => this.#redis.hgetallBuffer(key));
    const read = deserializeTurnHash(fields, key);
    if (!read) return null;
    // A turn stored whole is rewritten in chunks by its next commit (nothing is kept).
    if (read.chunkSizes) this.#positions.remember(key, read.turn.messages, read.chunkSizes);
    return read.turn;
  }

  /**
   * Compare-and-set on `rev` that writes the head and, as one new chunk, only the messages after the chunks
   * already stored unchanged (see `message-positions.ts`): a step writes its new messages, not the history.
   */
  async commitTurn(next: TurnRecord, expectedRev: number): Promise<CommitResult> {
    const key = this.keys.turn(next.turnId);
    const ended = ENDED.has(next.status);
    const delta = this.#positions.delta(key, next.messages);
    const added = next.messages.slice(delta.keptMessages);
    const reply = await this.#call('commitTurn', key, () =>
      this.#scripts.commitTurn(
        key,
        String(expectedRev),
        serializeTurnHead({ ...next, rev: expectedRev + 1 }),
        ended ? this.#endedRetentionMs : this.#retentionMs,
        ended ? 'set' : 'extend',
        String(delta.keepChunks),
        String(next.messages.length),
        ...(added.length > 0 ? [serializeTurnChunk(added, key)] : []),
      ),
    );
    const result = commitResultOf(reply, key);
    if (result.ok) this.#positions.rememberCommit(key, next.messages, delta);
    return result;
  }

  async pauseTurn(next: TurnRecord, expectedRev: number, ask: AskDefinition): Promise<CommitResult> {
    const turnKey = this.keys.turn(next.turnId);
    const askKey = this.keys.ask(next.turnId, ask.askId);
    const member = askIndexMember(next.turnId, ask.askId);
    const indexKey = this.keys.askIndex();
    const json = askDefinitionJson(ask);
    const digest = definitionDigest(json);
    // Index first: a crash after this line leaves a dangling member the sweep drops (not-found), never an
    // open ask the sweep cannot see. Score -createdAt: not shown yet (see listOverdueAsks). On one server the
    // script goes out right behind the ZADD on the same connection (Redis runs them in that order), so the
    // pause is one round trip; a Cluster client may send them to two nodes in any order, so it waits.
    const adding = this.#call('pauseTurn', indexKey, () =>
      this.#redis.zadd(indexKey, 'NX', -Date.parse(ask.createdAt), member),
    );
    if (this.#isCluster) await adding;
    const delta = this.#positions.delta(turnKey, next.messages);
    const fresh = next.messages.slice(delta.keptMessages);
    const pausing = this.#call('pauseTurn', turnKey, () =>
      this.#scripts.pauseTurn(
        turnKey,
        askKey,
        String(expectedRev),
        serializeTurnHead({ ...next, rev: expectedRev + 1 }),
        ask.timeoutMs + this.#retentionMs,
        json,
        ...askIndexFields(ask),
        digest,
        String(delta.keepChunks),
        String(next.messages.length),
        ...(fresh.length > 0 ? [serializeTurnChunk(fresh, turnKey)] : []),
      ),
    );
    const [indexed, paused] = await Promise.allSettled([adding, pausing]);
    if (paused.status === 'rejected') throw paused.reason;
    const result = commitResultOf(paused.value, turnKey);
    let added: number;
    if (indexed.status === 'fulfilled') added = indexed.value;
    else if (!result.ok) throw indexed.reason;
    // The ZADD alone failed and the pause stood: the open ask is indexed before anyone is told it paused
    // (markAskShown's ZADD XX would never add it). Thrown when Redis refuses it again.
    else
      added = await this.#call('pauseTurn', indexKey, () =>
        this.#redis.zadd(indexKey, 'NX', -Date.parse(ask.createdAt), member),
      );
    if (result.ok) {
      this.#positions.rememberCommit(turnKey, next.messages, delta);
      // The reads that follow (show, the click's read and answer) find the definition parsed: a copy, as the
      // cache freezes what it holds and the caller's definition shares the turn's and the config's objects.
      this.#definitions.set(askKey, digest, structuredClone(ask));
    }
    if (!result.ok && added === 1) {
      await this.#call('pauseTurn', indexKey, () => this.#redis.zrem(indexKey, member));
    }
    return result;
  }

  /** See {@link AskStore.openAsk}. Indexed first, like {@link pauseTurn}, so the sweep always sees it. */
  async openAsk(ask: AskDefinition): Promise<boolean> {
    const askKey = this.keys.ask(ask.scope, ask.askId);
    const member = askIndexMember(ask.scope, ask.askId);
    const indexKey = this.keys.askIndex();
    const json = askDefinitionJson(ask);
    const added = await this.#call('openAsk', indexKey, () =>
      this.#redis.zadd(indexKey, 'NX', -Date.parse(ask.createdAt), member),
    );
    const reply = await this.#call('openAsk', askKey, () =>
      this.#scripts.openAsk(
        askKey,
        ask.timeoutMs + this.#retentionMs,
        json,
        ...askIndexFields(ask),
        definitionDigest(json),
      ),
    );
    const { code } = scriptReply(reply, askKey);
    if (code === SCRIPT_CODE.ok) return true;
    if (code === SCRIPT_CODE.exists) {
      if (added === 1) await this.#call('openAsk', indexKey, () => this.#redis.zrem(indexKey, member));
      return false;
    }
    throw unknownCode(code, askKey);
  }

  async getAsk(turnId: string, askId: string): Promise<AskRecord | null> {
    const key = this.keys.ask(turnId, askId);
    const hash = await this.#call('getAsk', key, () => this.#redis.hgetall(key));
    return Object.keys(hash).length === 0 ? null : askRecordFromHash(hash, key, this.#definitions);
  }

  async markAskShown(
    turnId: string,
    askId: string,
    shownAt: number,
    messageRef: string | null,
  ): Promise<AskRecord | null> {
    const key = this.keys.ask(turnId, askId);
    const reply = await this.#call('markAskShown', key, () =>
      this.#scripts.markAskShown(
        this.keys.turn(turnId),
        key,
        shownAt,
        messageRef ?? '',
        messageRef === null ? '0' : '1',
        Date.now(),
        this.#retentionMs,
      ),
    );
    const { code, rest } = scriptReply(reply, key);
    if (code === SCRIPT_CODE.notFound) return null;
    if (code !== SCRIPT_CODE.ok && code !== SCRIPT_CODE.unchanged) throw unknownCode(code, key);
    const ask = askRecordFromHash(hashFromReply(rest[0]), key, this.#definitions);
    // Also when it was shown before (a retried show): that repairs a move an earlier call sent and lost.
    if (ask.status === 'open' && ask.deadline !== null) {
      const indexKey = this.keys.askIndex();
      const deadline = ask.deadline;
      // XX: never re-adds an ask its turn already consumed; GT: never takes a resolved ask back to open.
      await this.#indexWrite('markAskShown', () =>
        this.#redis.zadd(indexKey, 'XX', 'GT', deadline, askIndexMember(turnId, askId)),
      );
    }
    return ask;
  }

  /**
   * See {@link AskStore.answerQuestion}. The person checked against the answerer policy is
   * `resolution.answeredBy` (null counts as nobody: only the `anyone` policy accepts it).
   * @throws StateError `state_invalid_argument` when `questionIndex` is not an integer in `[0, questions)`.
   */
  async answerQuestion(
    turnId: string,
    askId: string,
    questionIndex: number,
    resolution: QuestionResolution,
    options: AnswerOptions = {},
  ): Promise<AskTransitionResult> {
    const key = this.keys.ask(turnId, askId);
    const now = Date.now();
    const json = JSON.stringify(resolution);
    // Kept for the reply: the script leaves def out when this digest matches, and the cache may drop the entry.
    const known = this.#definitions.entry(key);
    const reply = await this.#call('answerQuestion', key, () =>
      this.#scripts.answerQuestion(
        key,
        questionIndex,
        json,
        resolution.answeredBy ?? '',
        options.inAllowedGroup === true ? '1' : '0',
        now,
        known?.digest ?? '',
        ASK_LIMITS.maxQuestions,
        options.quorum ?? 1,
        voteKey(resolution),
        options.decisive === true ? '1' : '0',
      ),
    );
    return this.#transitionResult(reply, key, turnId, askId, now, (rest) => {
      const hash = hashFromAnswerReply(rest, ASK_LIMITS.maxQuestions);
      return askRecordFromHash(hash, key, this.#definitions, {
        written: [{ index: questionIndex, json, resolution }],
        known,
      });
    });
  }

  /**
   * See {@link AskStore.resolveOpenQuestions}. `fallbacks[i]` is used for question `i` when it is unresolved.
   * @throws StateError `state_invalid_argument` when there are fewer fallbacks than questions (nothing written).
   */
  async resolveOpenQuestions(
    turnId: string,
    askId: string,
    fallbacks: QuestionResolution[],
    options: { onlyIfDue?: boolean } = {},
  ): Promise<AskTransitionResult> {
    const key = this.keys.ask(turnId, askId);
    const now = Date.now();
    const written = fallbacks.map((resolution, index) => ({
      index,
      json: JSON.stringify(resolution),
      resolution,
    }));
    // As for answers: the script leaves def out when this digest matches (the timeout has just read the ask).
    const known = this.#definitions.entry(key);
    const reply = await this.#call('resolveOpenQuestions', key, () =>
      this.#scripts.resolveOpenQuestions(
        key,
        now,
        options.onlyIfDue === true ? '1' : '0',
        known?.digest ?? '',
        ...written.map((entry) => entry.json),
      ),
    );
    return this.#transitionResult(reply, key, turnId, askId, now, (rest) =>
      askRecordFromHash(hashFromReply(rest[0]), key, this.#definitions, { written, known }),
    );
  }

  /** See {@link AskStore.extendAsk}. The ask index follows the new deadline (one `ZADD GT` after the script). */
  async extendAsk(
    turnId: string,
    askId: string,
    input: { byUserId: string; addMs: number; latestDeadline: number; inAllowedGroup: boolean },
  ): Promise<AskChange<'extended' | 'closed' | 'forbidden' | 'at-limit'>> {
    const key = this.keys.ask(turnId, askId);
    const reply = await this.#call('extendAsk', key, () =>
      this.#scripts.extendAsk(
        key,
        this.keys.turn(turnId),
        Date.now(),
        input.addMs,
        input.latestDeadline,
        input.byUserId,
        input.inAllowedGroup ? '1' : '0',
        this.#retentionMs,
      ),
    );
    const change = this.#change(reply, key, {
      [SCRIPT_CODE.ok]: 'extended',
      [SCRIPT_CODE.closed]: 'closed',
      [SCRIPT_CODE.forbidden]: 'forbidden',
      [SCRIPT_CODE.atLimit]: 'at-limit',
    } as const);
    if (change.status === 'extended' && change.ask.deadline !== null) {
      const indexKey = this.keys.askIndex();
      const deadline = change.ask.deadline;
      await this.#call('extendAsk', indexKey, () =>
        this.#redis.zadd(indexKey, 'XX', 'GT', deadline, askIndexMember(turnId, askId)),
      );
    }
    return change;
  }

  async claimNudge(
    turnId: string,
    askId: string,
    pointId: string,
  ): Promise<AskChange<'claimed' | 'claimed-before' | 'closed'>> {
    const key = this.keys.ask(turnId, askId);
    const reply = await this.#call('claimNudge', key, () => this.#scripts.claimNudge(key, pointId));
    return this.#change(reply, key, {
      [SCRIPT_CODE.ok]: 'claimed',
      [SCRIPT_CODE.unchanged]: 'claimed-before',
      [SCRIPT_CODE.closed]: 'closed',
    } as const);
  }

  async addDelegate(
    turnId: string,
    askId: string,
    input: { byUserId: string; inAllowedGroup: boolean; delegateId: string },
  ): Promise<AskChange<'added' | 'unchanged' | 'closed' | 'forbidden'>> {
    const key = this.keys.ask(turnId, askId);
    const reply = await this.#call('addDelegate', key, () =>
      this.#scripts.addDelegate(key, input.byUserId, input.inAllowedGroup ? '1' : '0', input.delegateId),
    );
    return this.#change(reply, key, {
      [SCRIPT_CODE.ok]: 'added',
      [SCRIPT_CODE.unchanged]: 'unchanged',
      [SCRIPT_CODE.closed]: 'closed',
      [SCRIPT_CODE.forbidden]: 'forbidden',
    } as const);
  }

  async overrideAnswer(
    turnId: string,
    askId: string,
    questionIndex: number,
    override: AnswerOverride,
    options: { inAllowedGroup: boolean; windowMs: number },
  ): Promise<AskChange<'recorded' | 'closed' | 'not-assumed' | 'forbidden' | 'duplicate'>> {
    const key = this.keys.ask(turnId, askId);
    const reply = await this.#call('overrideAnswer', key, () =>
      this.#scripts.overrideAnswer(
        key,
        questionIndex,
        JSON.stringify(override),
        override.by,
        options.inAllowedGroup ? '1' : '0',
        Date.now(),
        options.windowMs,
      ),
    );
    return this.#change(reply, key, {
      [SCRIPT_CODE.ok]: 'recorded',
      [SCRIPT_CODE.closed]: 'closed',
      [SCRIPT_CODE.alreadyResolved]: 'not-assumed',
      [SCRIPT_CODE.forbidden]: 'forbidden',
      [SCRIPT_CODE.duplicate]: 'duplicate',
    } as const);
  }

  /**
   * The result of a change script replying `{ code, HGETALL }` (`{ -1 }` when not found), by `statuses`.
   * @throws StateError for a code `statuses` does not name, and for an unreadable ask
   */
  #change<S extends string>(
    reply: unknown,
    key: string,
    statuses: Readonly<Record<number, S>>,
  ): AskChange<S> {
    const { code, rest } = scriptReply(reply, key);
    if (code === SCRIPT_CODE.notFound) return { status: 'not-found', ask: null };
    const status = statuses[code];
    if (status === undefined) throw unknownCode(code, key);
    return { status, ask: askRecordFromHash(hashFromReply(rest[0]), key, this.#definitions) };
  }

  async cancelAsk(
    turnId: string,
    askId: string,
    byUserId: string,
    at: string,
    options: { uninstalled?: boolean } = {},
  ): Promise<AskTransitionResult> {
    const key = this.keys.ask(turnId, askId);
    const now = Date.now();
    const canceled = canceledResolution(options.uninstalled ? null : byUserId, at);
    const reply = await this.#call('cancelAsk', key, () =>
      this.#scripts.cancelAsk(key, byUserId, JSON.stringify(canceled), now, options.uninstalled ? '1' : ''),
    );
    return this.#transitionResult(reply, key, turnId, askId, now);
  }

  async markResumeQueued(turnId: string, askId: string, at: number): Promise<boolean> {
    const key = this.keys.ask(turnId, askId);
    const reply = await this.#call('markResumeQueued', key, () => this.#scripts.markResumeQueued(key, at));
    const { code } = scriptReply(reply, key);
    if (code === SCRIPT_CODE.ok) return true;
    if (code === SCRIPT_CODE.unchanged || code === SCRIPT_CODE.notFound) return false;
    throw unknownCode(code, key);
  }

  /**
   * One `ZRANGEBYSCORE` on the open index. Scores: an ask not yet shown has score `-createdAt`, a shown ask
   * its `deadline` (both epoch ms, so shown scores are positive and unshown scores negative). An ask is
   * overdue when `deadline <= now`, or when unshown and `createdAt <= now - unshownGraceMs`, that is
   * `-createdAt >= unshownGraceMs - now`: together the one range `[unshownGraceMs - now, now]`.
   * Order: unshown asks first (newest first), then shown asks by deadline. The index is advisory: the
   * caller re-checks each ask with a transition script.
   * @param now epoch ms
   * @param unshownGraceMs how long an ask may stay unshown, ms
   * @param limit maximum number of results
   */
  async listOverdueAsks(now: number, unshownGraceMs: number, limit: number): Promise<AskRef[]> {
    const key = this.keys.askIndex();
    const members = await this.#call('listOverdueAsks', key, () =>
      this.#redis.zrangebyscore(key, unshownGraceMs - now, now, 'LIMIT', 0, limit),
    );
    return refsOf(members);
  }

  /**
   * Shown, open asks from the ask index (its open band, scores `(0, RESOLVED_SCORE_BASE)`), latest deadline
   * first, at most `limit` (one `ZREVRANGEBYSCORE`). Advisory like the index: read each ask to know its state.
   * @param limit maximum number of results
   */
  async listShownOpenAsks(limit: number): Promise<AskRef[]> {
    const key = this.keys.askIndex();
    const members = await this.#call('listShownOpenAsks', key, () =>
      this.#redis.zrevrangebyscore(key, `(${RESOLVED_SCORE_BASE}`, '(0', 'LIMIT', 0, limit),
    );
    return refsOf(members);
  }

  /**
   * Open asks from the ask index, shown or not (scores below `RESOLVED_SCORE_BASE`), at most `limit` (one
   * `ZRANGEBYSCORE`). Advisory like the index: read each ask to know its state.
   */
  async listOpenAsks(limit: number): Promise<AskRef[]> {
    const key = this.keys.askIndex();
    const members = await this.#call('listOpenAsks', key, () =>
      this.#redis.zrangebyscore(key, '-inf', `(${RESOLVED_SCORE_BASE}`, 'LIMIT', 0, limit),
    );
    return refsOf(members);
  }

  /** Oldest resolution first: the resolved band of the ask index (see `ask-index.ts`). */
  async listUnresumedAsks(limit: number): Promise<AskRef[]> {
    const key = this.keys.askIndex();
    const members = await this.#call('listUnresumedAsks', key, () =>
      this.#redis.zrangebyscore(key, RESOLVED_SCORE_BASE, '+inf', 'LIMIT', 0, limit),
    );
    return refsOf(members);
  }

  async acquireTurnLease(turnId: string, token: string, ttlMs: number): Promise<boolean> {
    const key = this.keys.turnLease(turnId);
    const reply = await this.#call('acquireTurnLease', key, () =>
      this.#redis.set(key, token, 'PX', ttlMs, 'NX'),
    );
    return reply === 'OK';
  }

  async renewTurnLease(turnId: string, token: string, ttlMs: number): Promise<boolean> {
    const key = this.keys.turnLease(turnId);
    return (await this.#call('renewTurnLease', key, () => this.#scripts.renewLease(key, token, ttlMs))) === 1;
  }

  async releaseTurnLease(turnId: string, token: string): Promise<void> {
    const key = this.keys.turnLease(turnId);
    await this.#call('releaseTurnLease', key, () => this.#scripts.releaseLease(key, token));
  }

  async claimToolCall(
    turnId: string,
    toolCallId: string,
    ttlMs: number,
  ): Promise<{ claimed: true } | { claimed: false; run: ToolCallRun }> {
    const key = this.keys.toolCall(turnId, toolCallId);
    const claimed = await this.#call('claimToolCall', key, () =>
      this.#redis.set(key, JSON.stringify({ state: 'started' }), 'PX', ttlMs, 'NX'),
    );
    if (claimed === 'OK') return { claimed: true };
    const stored = await this.#call('claimToolCall', key, () => this.#redis.get(key));
    return { claimed: false, run: parseToolCallRun(stored) };
  }

  async finishToolCall(
    turnId: string,
    toolCallId: string,
    outcome: { output: string; isError: boolean },
    ttlMs: number,
  ): Promise<void> {
    const key = this.keys.toolCall(turnId, toolCallId);
    const value = JSON.stringify({ state: 'finished', ...outcome });
    await this.#call('finishToolCall', key, () => this.#redis.set(key, value, 'PX', ttlMs));
  }

  /** Number of asks in the open index (for the `asks_open` gauge); may count a few stale members until the sweep removes them. */
  async countOpenAsks(): Promise<number> {
    const key = this.keys.askIndex();
    return this.#call('countOpenAsks', key, () => this.#redis.zcount(key, '-inf', `(${RESOLVED_SCORE_BASE}`));
  }

  /**
   * See {@link AskStore.unindexAsk}. Sent, not awaited, on one server (see #indexWrite): a member left behind
   * by a failure is an ask the sweep finds consumed and removes again.
   */
  async unindexAsk(turnId: string, askId: string): Promise<void> {
    const member = askIndexMember(turnId, askId);
    const key = this.keys.askIndex();
    await this.#indexWrite('unindexAsk', () => this.#redis.zrem(key, member));
  }

  /** See {@link ThreadQueue.admitToThread}. Re-admitting the holder returns `start`; an item already queued is not queued twice. Holder and inbox keys live `retentionMs` after their last change. */
  async admitToThread(threadKey: string, turnId: string, item: string): Promise<'start' | 'queued'> {
    const holder = this.keys.threadHolder(threadKey);
    const reply = await this.#call('admitToThread', holder, () =>
      this.#scripts.admitToThread(holder, this.keys.threadInbox(threadKey), turnId, item, this.#retentionMs),
    );
    if (reply === SCRIPT_CODE.ok) return 'start';
    if (reply === SCRIPT_CODE.unchanged) return 'queued';
    throw unknownCode(reply, holder);
  }

  /** See {@link TurnStore.releaseThread}. Inbox items that are not JSON with a non-empty string `turnId` are dropped. */
  async releaseThread(threadKey: string, turnId: string): Promise<string | null> {
    const holder = this.keys.threadHolder(threadKey);
    const reply = await this.#call('releaseThread', holder, () =>
      this.#scripts.releaseThread(holder, this.keys.threadInbox(threadKey), turnId, this.#retentionMs),
    );
    return typeof reply === 'string' ? reply : null;
  }

  async threadHolder(threadKey: string): Promise<string | null> {
    const key = this.keys.threadHolder(threadKey);
    return this.#call('threadHolder', key, () => this.#redis.get(key));
  }

  /**
   * The result of an ask transition script: its status, the ask as the script left it (read from the reply
   * by `readAsk`; by default the reply carries the whole hash as its second element), and the index move
   * when the transition completed the ask.
   */
  async #transitionResult(
    reply: unknown,
    key: string,
    turnId: string,
    askId: string,
    resolvedAt: number,
    readAsk: (rest: unknown[], status: AskTransitionStatus) => AskRecord = (rest) =>
      askRecordFromHash(hashFromReply(rest[0]), key, this.#definitions),
  ): Promise<AskTransitionResult> {
    const { code, rest } = scriptReply(reply, key);
    const status = askTransitionStatusOf(code, key);
    if (status === 'not-found') return { status, ask: null };
    const ask = readAsk(rest, status);
    if (status === 'completed') {
      const member = askIndexMember(turnId, askId);
      // A cluster client may still be opening the connection to the index's node: only awaiting the ZADD
      // makes sure it reached Redis before the caller goes on (see #moveToUnresumed).
      // A failure is reported like the background move's: the answer itself stands.
      if (this.#isCluster)
        await this.#zaddResolved([[member, resolvedAt]]).catch((error: unknown) =>
          this.#onBackgroundError(error, 'moveToUnresumed'),
        );
      else this.#moveToUnresumed(member, resolvedAt);
    }
    return { status, ask };
  }

  /**
   * Moves a completed ask to the resolved band of the ask index without making the caller wait: the `ZADD` is
   * written to the socket (also by a client that groups writes, see `flushWrites`) in a microtask that runs
   * before the caller's `await` resumes, so it is on the wire (and ordered before any later command of this
   * client) when the caller goes on, and the answer costs one round trip. Completions in the same tick
   * (replies parsed from one read) share one `ZADD`; `XX`: an ask its turn already consumed (removed) is not
   * added back when this arrives late. If Redis executed the transition but never gets the `ZADD` (the host
   * died within that round trip), the ask stays in the open band and the sweep or the timeout job resumes it
   * at its deadline. Failures go to `onBackgroundError`. A Redis Cluster client does not keep that promise
   * (it may first open a connection to the index's node), so with one the store awaits the `ZADD` instead.
   */
  /** Moves asks to the resolved band of the index (`XX GT`: never adds back one already consumed). */
  #zaddResolved(members: ReadonlyArray<readonly [string, number]>): Promise<number> {
    const scored = members.flatMap(([name, at]) => [resolvedScore(at), name]);
    return this.#redis.zadd(this.keys.askIndex(), 'XX', 'GT', ...scored);
  }

  #moveToUnresumed(member: string, resolvedAt: number): void {
    if (this.#indexBatch) {
      this.#indexBatch.set(member, resolvedAt);
      return;
    }
    const members = new Map<string, number>([[member, resolvedAt]]);
    this.#indexBatch = members;
    queueMicrotask(() => {
      this.#indexBatch = null;
      this.#zaddResolved([...members]).catch((error: unknown) =>
        this.#onBackgroundError(error, 'moveToUnresumed'),
      );
      // Nobody awaits this ZADD: a client that groups writes must not keep it back past the caller's next step.
      flushWrites(this.#redis);
    });
  }

  /**
   * A write to the ask index that nobody needs the reply of: the move of a shown ask to its deadline, and the
   * removal of an ask its turn consumed. On one server it is sent now and not awaited: it is on the wire,
   * ordered before any later command of this client, when the caller goes on (as in #moveToUnresumed), and a
   * failure goes to `onBackgroundError`. What a lost write leaves is mended later: a shown ask left in the
   * unshown band is read by the sweep at each pass until the next show of it (a retried show sends the move
   * again) or its timeout resolves it, and a consumed ask left in the index is found resolved and removed by
   * the sweep. A reader on another client may see the index before the write: the worker's readers that
   * must not (the inbox refresh after a show) wait for a later reply of this client first. A Cluster client
   * does not keep that order, so with one the write is awaited, and a failure thrown.
   */
  async #indexWrite(operation: string, write: () => Promise<unknown>): Promise<void> {
    if (this.#isCluster) {
      await this.#call(operation, this.keys.askIndex(), write);
      return;
    }
    write().catch((error: unknown) => this.#onBackgroundError(error, operation));
    flushWrites(this.#redis);
  }

  async #call<T>(operation: string, key: string, run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (error) {
      if (error instanceof HoldpointError) throw error;
      throw new SystemError('redis_failed', `Redis failed during ${operation} (${key})`, {
        cause: error,
        fields: { operation, key },
      });
    }
  }
}

function commitResultOf(reply: unknown, key: string): CommitResult {
  const { code, rest } = scriptReply(reply, key);
  const rev = typeof rest[0] === 'number' ? rest[0] : null;
  if (code === SCRIPT_CODE.ok && rev !== null) return { ok: true, rev };
  if (code === SCRIPT_CODE.notFound) return { ok: false, reason: 'not-found', rev: null };
  if (code === SCRIPT_CODE.conflict || code === SCRIPT_CODE.exists)
    return { ok: false, reason: 'conflict', rev };
  throw unknownCode(code, key);
}

function refsOf(members: string[]): AskRef[] {
  const refs: AskRef[] = [];
  for (const member of members) {
    const ref = parseAskIndexMember(member);
    if (ref) refs.push(ref);
  }
  return refs;
}

/** A stored tool-call run; an unreadable or vanished one counts as started (its outcome is unknown). */
function parseToolCallRun(stored: string | null): ToolCallRun {
  if (stored === null) return { state: 'started' };
  try {
    const value = JSON.parse(stored) as { state?: unknown; output?: unknown; isError?: unknown };
    if (value.state === 'finished' && typeof value.output === 'string')
      return { state: 'finished', output: value.output, isError: value.isError === true };
  } catch {
    // fall through
  }
  return { state: 'started' };
}
