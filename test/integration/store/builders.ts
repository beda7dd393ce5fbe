import type { Redis } from 'ioredis';
import { newTurnRecord } from '../../../src/agent/new-turn-record.js';
import type { TurnRecord } from '../../../src/agent/turn-record.js';
import type { QuestionResolution } from '../../../src/ask/types.js';
import type { AnswererPolicy, AskDefinition } from '../../../src/asks/types.js';
import { RedisTurnStore, type RedisTurnStoreOptions } from '../../../src/store/redis-turn-store.js';
import { testRedisClient, uniquePrefix } from '../../support/redis.js';

/** A store on a fresh client with a unique key prefix. Call `close()` in `afterAll`/`afterEach`. */
export function storeForTest(
  label: string,
  options: Omit<RedisTurnStoreOptions, 'prefix'> = {},
): { redis: Redis; store: RedisTurnStore; prefix: string; close: () => Promise<void> } {
  const redis = testRedisClient();
  const prefix = uniquePrefix(label);
  const store = new RedisTurnStore(redis, { ...options, prefix });
  return {
    redis,
    store,
    prefix,
    close: async () => {
      await redis.quit();
    },
  };
}

/** A running version-2 turn. */
export function makeTurn(turnId: string, overrides: Partial<TurnRecord> = {}): TurnRecord {
  return {
    ...newTurnRecord({
      turnId,
      conversation: { surface: 'slack', channel: 'C1', threadTs: '1700000000.000100' },
      requestedBy: 'U_REQ',
      messages: [{ role: 'user', content: [{ type: 'text', text: 'deploy?' }] }],
      at: '2024-01-01T00:00:00.000Z',
    }),
    ...overrides,
  };
}

/** An ask with `questionCount` choice questions (first option recommended). */
export function makeAsk(
  turnId: string,
  askId: string,
  options: {
    questionCount?: number;
    answerers?: AnswererPolicy;
    timeoutMs?: number;
    createdAt?: string;
  } = {},
): AskDefinition {
  const questionCount = options.questionCount ?? 1;
  return {
    version: 2,
    askId,
    scope: turnId,
    waiter: { kind: 'turn', turnId: turnId, toolCallId: `call-${askId}` },
    ordinal: 0,
    questions: Array.from({ length: questionCount }, (_, i) => ({
      header: `H${i}`,
      question: `Question ${i}?`,
      kind: 'choice' as const,
      multiSelect: false,
      purpose: null,
      options: [
        { label: 'A', description: null, recommended: true },
        { label: 'B', description: null, recommended: false },
      ],
    })),
    conversation: { surface: 'slack', channel: 'C1', threadTs: '1700000000.000100' },
    requestedBy: 'U_REQ',
    answerers: options.answerers ?? { mode: 'anyone' },
    timeoutMs: options.timeoutMs ?? 1_800_000,
    policy: 'recommended-or-first',
    createdAt: options.createdAt ?? new Date().toISOString(),
  };
}

/** A person's answer. */
export function answer(userId: string, label = 'A'): QuestionResolution {
  return {
    status: 'answered',
    selected: [label],
    other: null,
    answeredBy: userId,
    answeredAt: '2024-01-01T00:01:00.000Z',
    source: 'button',
    assumption: null,
  };
}

/** The timeout's assumed resolution (recommended option). */
export function assumed(label = 'A'): QuestionResolution {
  return {
    status: 'assumed',
    selected: [label],
    other: null,
    answeredBy: null,
    answeredAt: '2024-01-01T00:30:00.000Z',
    source: 'timeout',
    assumption: 'recommended',
  };
}

/** Creates a turn and pauses it on a new ask; returns the ask definition. */
export async function pausedAsk(
  store: RedisTurnStore,
  turnId: string,
  askId: string,
  options: Parameters<typeof makeAsk>[2] = {},
): Promise<AskDefinition> {
  const turn = makeTurn(turnId);
  if (!(await store.createTurn(turn))) throw new Error(`turn ${turnId} exists`);
  const ask = makeAsk(turnId, askId, options);
  const result = await store.pauseTurn(
    { ...turn, status: 'paused', pendingAskId: askId, askCount: 1 },
    1,
    ask,
  );
  if (!result.ok) throw new Error(`pause failed: ${result.reason}`);
  return ask;
}
