import type { ModelMessage } from 'ai';
import { z } from 'zod';
import { type OutboxEntry, TURN_RECORD_VERSION, type TurnRecord } from '../agent/turn-record.js';
import type { AskOption, AskQuestion, QuestionResolution } from '../ask/types.js';
import type { ConversationRef } from '../asks/conversation.js';
import {
  type AnswererPolicy,
  type AnswerOverride,
  ASK_RECORD_VERSION,
  type AskDefinition,
  type Waiter,
} from '../asks/types.js';
import { StateError } from '../errors.js';
import { packChunk, unpackChunk } from './chunk-codec.js';

/**
 * Versioned persisted records: zod schemas that check every record on read, historical readers, and
 * upgrades to the current version (openai-agents-js `runState.ts` style).
 *
 * - TurnRecord: version 2 is written; version 1 is still read and upgraded ({@link upgradeTurnRecordV1}).
 * - AskDefinition: version 2 is written; version 1 is still read and upgraded ({@link upgradeAskDefinitionV1}).
 * Any other version throws {@link StateError} `state_unknown_version`; a record that fails its schema throws
 * `state_invalid_record`; text that is not JSON throws `state_corrupt_record`. Never a crash deeper down.
 */

const isoDate = z.iso.datetime({ offset: true });

const MESSAGE_ROLES = new Set(['system', 'user', 'assistant', 'tool']);

/**
 * Structural check of an AI SDK `ModelMessage`: an object with a known `role` and a `content` that is a
 * string or an array of objects with a string `type`. Parts are kept as stored (no stripping), so provider
 * metadata (`providerOptions`, e.g. Anthropic thinking signatures) and tool-call ids round-trip unchanged.
 */
function isModelMessageShape(value: unknown): value is ModelMessage {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const { role, content } = value as { role?: unknown; content?: unknown };
  if (typeof role !== 'string' || !MESSAGE_ROLES.has(role)) return false;
  if (typeof content === 'string') return role !== 'tool';
  if (!Array.isArray(content)) return false;
  return content.every(
    (part: unknown) =>
      typeof part === 'object' && part !== null && typeof (part as { type?: unknown }).type === 'string',
  );
}

const modelMessageSchema = z.custom<ModelMessage>(isModelMessageShape, {
  message: 'not an AI SDK ModelMessage (role + string or array content of typed parts)',
});

const conversationSchema: z.ZodType<ConversationRef> = z.object({
  surface: z.string().min(1),
  channel: z.string().min(1),
  // Empty for a program's ask posted as a new message rather than in a thread.
  threadTs: z.string(),
  teamId: z.string().optional(),
  workspace: z.string().optional(),
});

const outboxEntrySchema: z.ZodType<OutboxEntry> = z.object({
  key: z.string().min(1),
  kind: z.enum(['reply', 'error']),
  text: z.string(),
  state: z.enum(['pending', 'posted']),
});

const turnFields = {
  turnId: z.string().min(1),
  rev: z.number().int().nonnegative(),
  conversation: conversationSchema,
  requestedBy: z.string(),
  messages: z.array(modelMessageSchema),
  pendingAskId: z.string().min(1).nullable(),
  stepCount: z.number().int().nonnegative(),
  invalidAskCount: z.number().int().nonnegative(),
  createdAt: isoDate,
  updatedAt: isoDate,
};

/** Current TurnRecord (version 2). */
export const turnRecordSchema: z.ZodType<TurnRecord> = z.object({
  version: z.literal(TURN_RECORD_VERSION),
  ...turnFields,
  status: z.enum(['running', 'paused', 'completed', 'failed']),
  askCount: z.number().int().nonnegative(),
  outbox: z.array(outboxEntrySchema),
  triggerTs: z.string().min(1).optional(),
});

/**
 * The head of a turn stored one message per field (hash field `head`): a version-2 TurnRecord without
 * `messages`. Checked on every read; it is small (ids, counts, the outbox), whatever the history's length.
 */
const { messages: _messageList, ...turnHeadFields } = turnFields;
const turnHeadSchema = z.object({
  version: z.literal(TURN_RECORD_VERSION),
  ...turnHeadFields,
  status: z.enum(['running', 'paused', 'completed', 'failed']),
  askCount: z.number().int().nonnegative(),
  outbox: z.array(outboxEntrySchema),
  triggerTs: z.string().min(1).optional(),
});

/**
 * TurnRecord version 1 (historical, read only): like version 2 without `outbox` and `askCount`, and with
 * status `waiting` where version 2 says `paused`.
 */
export const turnRecordV1Schema = z.object({
  version: z.literal(1),
  ...turnFields,
  status: z.enum(['running', 'waiting', 'completed', 'failed']),
});

/** A version-1 TurnRecord as stored. */
export type TurnRecordV1 = z.infer<typeof turnRecordV1Schema>;

/** Number of `ask_question` tool calls in the assistant messages of a conversation. */
function countAskQuestionCalls(messages: readonly ModelMessage[]): number {
  let count = 0;
  for (const message of messages) {
    if (message.role !== 'assistant' || typeof message.content === 'string') continue;
    for (const part of message.content) {
      if (part.type === 'tool-call' && part.toolName === 'ask_question') count += 1;
    }
  }
  return count;
}

/**
 * Upgrades a version-1 turn to version 2: `waiting` becomes `paused`, `outbox` starts empty (version 1
 * posted its replies directly), and `askCount` is the number of `ask_question` tool calls in the history
 * (so the next ask's ordinal, and the job ids derived from it, do not collide with earlier asks).
 */
export function upgradeTurnRecordV1(v1: TurnRecordV1): TurnRecord {
  const { version: _version, status, ...rest } = v1;
  return {
    version: TURN_RECORD_VERSION,
    ...rest,
    status: status === 'waiting' ? 'paused' : status,
    askCount: countAskQuestionCalls(v1.messages),
    outbox: [],
  };
}

const askOptionSchema: z.ZodType<AskOption> = z.object({
  label: z.string().min(1),
  description: z.string().nullable(),
  recommended: z.boolean(),
});

const askQuestionSchema: z.ZodType<AskQuestion> = z.object({
  header: z.string().nullable(),
  question: z.string().min(1),
  kind: z.enum(['choice', 'free_text']),
  multiSelect: z.boolean(),
  purpose: z.string().nullable(),
  options: z.array(askOptionSchema).nullable(),
});

const answererPolicySchema: z.ZodType<AnswererPolicy> = z.discriminatedUnion('mode', [
  z.object({ mode: z.literal('anyone') }),
  z.object({ mode: z.literal('requester') }),
  z.object({ mode: z.literal('list'), userIds: z.array(z.string()), groupIds: z.array(z.string()) }),
]);

const askDefinitionFields = {
  askId: z.string().min(1),
  ordinal: z.number().int().nonnegative(),
  questions: z.array(askQuestionSchema).min(1).max(3),
  conversation: conversationSchema,
  requestedBy: z.string(),
  answerers: answererPolicySchema,
  timeoutMs: z.number().int().positive(),
  policy: z.enum(['recommended-or-first', 'recommended-only', 'no-answer']),
  createdAt: isoDate,
};

const waiterSchema: z.ZodType<Waiter> = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('turn'), turnId: z.string().min(1), toolCallId: z.string().min(1) }),
  z.object({
    kind: z.literal('api'),
    clientName: z.string().min(1),
    callbackUrl: z.string().url().optional(),
  }),
]);

/** Current AskDefinition (version 2): a scope and a waiter. */
export const askDefinitionSchema: z.ZodType<AskDefinition> = z.object({
  version: z.literal(ASK_RECORD_VERSION),
  scope: z.string().min(1),
  waiter: waiterSchema,
  ...askDefinitionFields,
  metadata: z.record(z.string(), z.unknown()).nullable().optional(),
  intro: z.string().max(2000).nullable().optional(),
  approval: z
    .object({
      calls: z
        .array(
          z.object({
            toolCallId: z.string().min(1),
            toolName: z.string().min(1),
            server: z.string().nullable(),
            tool: z.string().min(1),
            input: z.unknown(),
          }),
        )
        .min(1)
        .max(3),
      reason: z.string().nullable(),
    })
    .nullable()
    .optional(),
  followUp: z
    .object({
      reminders: z
        .array(
          z.discriminatedUnion('kind', [
            z.object({ kind: z.literal('fraction'), fraction: z.number().gt(0).lt(1) }),
            z.object({ kind: z.literal('after'), ms: z.number().int().positive() }),
          ]),
        )
        .max(10),
      escalation: z
        .object({
          afterMs: z.number().int().positive(),
          userIds: z.array(z.string()),
          groupIds: z.array(z.string()),
        })
        .nullable(),
      extendByMs: z.array(z.number().int().positive()).max(5),
      maxDeadlineMs: z.number().int().nonnegative(),
      overrideWindowMs: z.number().int().nonnegative(),
      quorum: z.number().int().min(1).max(20),
    })
    .nullable()
    .optional(),
});

/** AskDefinition version 1, as written until the ask became its own entity: always a turn's ask. */
export const askDefinitionV1Schema = z.object({
  version: z.literal(1),
  turnId: z.string().min(1),
  toolCallId: z.string().min(1),
  ...askDefinitionFields,
});

/** A version-1 definition as version 2: its turn is both its scope and its waiter. Pure. */
export function upgradeAskDefinitionV1(v1: z.infer<typeof askDefinitionV1Schema>): AskDefinition {
  const { version: _version, turnId, toolCallId, ...rest } = v1;
  return {
    version: ASK_RECORD_VERSION,
    scope: turnId,
    waiter: { kind: 'turn', turnId, toolCallId },
    ...rest,
  };
}

/** One stored question resolution. */
export const questionResolutionSchema: z.ZodType<QuestionResolution> = z.object({
  status: z.enum(['answered', 'assumed', 'canceled']),
  selected: z.array(z.string()),
  other: z.string().nullable(),
  answeredBy: z.string().nullable(),
  answeredAt: isoDate,
  source: z.enum(['button', 'modal', 'thread_reply', 'timeout', 'not_shown', 'cancel']),
  assumption: z.enum(['recommended', 'first_option', 'no_answer']).nullable(),
  voters: z.array(z.string()).optional(),
  votes: z
    .array(z.object({ by: z.string(), selected: z.array(z.string()), other: z.string().nullable() }))
    .optional(),
});

function parseJson(text: string, what: string, key: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new StateError('state_corrupt_record', `${what} at ${key} is not valid JSON`, {
      cause: error,
      fields: { key },
    });
  }
}

function versionOf(value: unknown): unknown {
  return typeof value === 'object' && value !== null ? (value as { version?: unknown }).version : undefined;
}

function checked<T>(schema: z.ZodType<T>, value: unknown, what: string, key: string): T {
  const result = schema.safeParse(value);
  if (!result.success) {
    throw new StateError(
      'state_invalid_record',
      `${what} at ${key} fails its schema: ${z.prettifyError(result.error)}`,
      {
        cause: result.error,
        fields: { key },
      },
    );
  }
  return result.data;
}

function unknownVersion(what: string, version: unknown, key: string, known: string): StateError {
  return new StateError(
    'state_unknown_version',
    `${what} at ${key} has schema version ${JSON.stringify(version) ?? 'undefined'}; this build reads ${known}`,
    { fields: { key, version } },
  );
}

/** Serializes a turn for storage (JSON; dates are already ISO strings). */
export function serializeTurnRecord(turn: TurnRecord): string {
  return JSON.stringify(turn);
}

/** A turn's head for hash field `head`: the record without `messages` (stored one per field). */
export function serializeTurnHead(turn: TurnRecord): string {
  const { messages: _messages, ...head } = turn;
  return JSON.stringify(head);
}

/**
 * Messages for one chunk field `c<i>` of a turn hash: a JSON array, deflated from 1,024 bytes (UTF-8) on
 * (see `chunk-codec.ts`).
 * @throws StateError `state_invalid_record` when one is not a ModelMessage (never stored, so a read need not check it deeply)
 */
export function serializeTurnChunk(messages: readonly ModelMessage[], key: string): string | Buffer {
  for (const message of messages) {
    if (!isModelMessageShape(message))
      throw new StateError(
        'state_invalid_record',
        `Turn record for ${key} holds a message that is not a ModelMessage`,
        {
          fields: { key },
        },
      );
  }
  return packChunk(JSON.stringify(messages));
}

/**
 * Reads a turn hash as HGETALL returns it with values as bytes: the chunked layout (`head`, `ccount`,
 * `mcount`, chunks `c0`…, each a JSON array of messages, deflated or not: see `chunk-codec.ts`) with the head
 * checked and the messages only parsed (each was checked when it was written), or a turn stored whole in
 * field `data` (versions 1 and 2, see {@link deserializeTurnRecord}; `chunkSizes` null). Null for an empty
 * hash (no such turn).
 * @throws StateError `state_corrupt_record` (also for a chunk that does not inflate), `state_unknown_version`, `state_invalid_record`
 */
export function deserializeTurnHash(
  fields: Record<string, Buffer>,
  key: string,
): { turn: TurnRecord; chunkSizes: number[] | null } | null {
  if (fields.head === undefined) {
    if (fields.data === undefined) return null;
    return { turn: deserializeTurnRecord(fields.data.toString(), key), chunkSizes: null };
  }
  const value = parseJson(fields.head.toString(), 'Turn record', key);
  const version = versionOf(value);
  if (version !== TURN_RECORD_VERSION) throw unknownVersion('Turn record', version, key, 'version 2');
  const head = checked(turnHeadSchema, value, 'Turn record', key);
  const chunks = Number(fields.ccount?.toString() ?? '0');
  const messages: ModelMessage[] = [];
  const chunkSizes: number[] = [];
  for (let index = 0; index < chunks; index += 1) {
    const stored = fields[`c${index}`];
    const chunk =
      stored === undefined ? undefined : parseJson(chunkText(stored, index, key), 'Turn messages', key);
    if (!Array.isArray(chunk) || !chunk.every(isModelMessageShape))
      throw new StateError(
        'state_corrupt_record',
        `Turn record at ${key} lacks message chunk ${index} of ${chunks}`,
        {
          fields: { key, index },
        },
      );
    messages.push(...chunk);
    chunkSizes.push(chunk.length);
  }
  const mcount = fields.mcount?.toString() ?? '0';
  if (messages.length !== Number(mcount))
    throw new StateError(
      'state_corrupt_record',
      `Turn record at ${key} holds ${messages.length} messages, not ${mcount}`,
      { fields: { key } },
    );
  return { turn: { ...head, messages }, chunkSizes };
}

/** The JSON of stored chunk `index` of the turn at `key`. @throws StateError `state_corrupt_record` */
function chunkText(stored: Buffer, index: number, key: string): string {
  try {
    return unpackChunk(stored);
  } catch (cause) {
    throw new StateError(
      'state_corrupt_record',
      `Turn record at ${key} has an unreadable message chunk ${index}: ${(cause as Error).message}`,
      { cause, fields: { key, index } },
    );
  }
}

/**
 * Reads a stored turn of any known version and returns it as the current version.
 * @param key the Redis key it came from (named in errors)
 * @throws StateError `state_corrupt_record`, `state_unknown_version`, `state_invalid_record`
 */
export function deserializeTurnRecord(json: string, key: string): TurnRecord {
  const value = parseJson(json, 'Turn record', key);
  const version = versionOf(value);
  if (version === TURN_RECORD_VERSION) return checked(turnRecordSchema, value, 'Turn record', key);
  if (version === 1) return upgradeTurnRecordV1(checked(turnRecordV1Schema, value, 'Turn record v1', key));
  throw unknownVersion('Turn record', version, key, 'versions 1 and 2');
}

/** Serializes an ask definition for storage (JSON). */
export function serializeAskDefinition(ask: AskDefinition): string {
  return JSON.stringify(ask);
}

/**
 * Reads a stored ask definition.
 * @throws StateError `state_corrupt_record`, `state_unknown_version`, `state_invalid_record`
 */
export function deserializeAskDefinition(json: string, key: string): AskDefinition {
  const value = parseJson(json, 'Ask definition', key);
  const version = versionOf(value);
  if (version === ASK_RECORD_VERSION) return checked(askDefinitionSchema, value, 'Ask definition', key);
  if (version === 1)
    return upgradeAskDefinitionV1(checked(askDefinitionV1Schema, value, 'Ask definition', key));
  throw unknownVersion('Ask definition', version, key, 'versions 1 and 2');
}

const answerOverrideSchema: z.ZodType<AnswerOverride> = z.object({
  selected: z.array(z.string()),
  other: z.string().nullable(),
  by: z.string().min(1),
  at: isoDate,
});

const votesSchema = z.array(z.tuple([z.string(), z.string()]));

/**
 * Reads one stored late answer (ask field `o<i>`).
 * @throws StateError `state_corrupt_record`, `state_invalid_record`
 */
export function deserializeAnswerOverride(json: string, key: string): AnswerOverride {
  return checked(answerOverrideSchema, parseJson(json, 'Answer override', key), 'Answer override', key);
}

/**
 * Reads one question's quorum votes (ask field `v<i>`: a JSON list of `[user id, vote]` in the order they
 * came, written by `lua/answerQuestion-1.lua`) as user id to vote, in that order. Lua's cjson writes an
 * empty list as `{}`; it reads as no votes.
 * @throws StateError `state_corrupt_record`, `state_invalid_record`
 */
export function deserializeVotes(json: string, key: string): Record<string, string> {
  const value = parseJson(json, 'Votes', key);
  if (typeof value === 'object' && value !== null && !Array.isArray(value) && Object.keys(value).length === 0)
    return {};
  const votes: Record<string, string> = {};
  for (const [user, vote] of checked(votesSchema, value, 'Votes', key)) votes[user] = vote;
  return votes;
}

/**
 * Reads one stored question resolution.
 * @throws StateError `state_corrupt_record`, `state_invalid_record`
 */
export function deserializeQuestionResolution(json: string, key: string): QuestionResolution {
  return checked(
    questionResolutionSchema,
    parseJson(json, 'Question resolution', key),
    'Question resolution',
    key,
  );
}
