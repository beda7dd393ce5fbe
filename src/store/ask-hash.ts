import type { QuestionResolution } from '../ask/types.js';
import type { AskDefinition, AskRecord, AskStatus } from '../asks/types.js';
import { StateError } from '../errors.js';
import { type DefinitionCache, type DefinitionEntry, deepFreeze } from './definition-cache.js';
import {
  deserializeAnswerOverride,
  deserializeAskDefinition,
  deserializeQuestionResolution,
  deserializeVotes,
  serializeAskDefinition,
} from './schemas.js';

/** A resolution this process wrote, with the exact JSON it sent (see {@link askRecordFromHash}). */
export interface WrittenResolution {
  /** Question index, 0-based. */
  index: number;
  json: string;
  resolution: QuestionResolution;
}

/**
 * Storage of one ask as a Redis hash. Fields:
 * - `def`: AskDefinition JSON, written once by `pauseTurn`; `dsum`: its {@link definitionDigest}.
 * - `status`: `open` | `resolved`.
 * - `r0`..`r2`: QuestionResolution JSON per question; absent while unresolved.
 * - `qcount`, `requestedBy`, `amode` (`anyone`|`requester`|`list`), `ausers` (`,U1,U2,`), `timeoutMs`,
 *   `createdAt` (epoch ms): copies of definition fields so the Lua scripts never decode JSON.
 * - `shownAt`, `deadline`, `resolvedAt`, `resumeQueuedAt`: epoch ms, absent until set.
 * - `messageRef`: surface reference of the shown message, absent until shown.
 * - `chg`: count of changes that resolve nothing (see `AskRecord.changes`), absent while 0.
 * - `extendedBy`: who last extended the deadline. `dusers`: delegates (`,U1,U2,`). `nudged`: follow-up points
 *   sent (`,r0,e,`).
 * - `v0`..`v2`: quorum votes per question (JSON object user id -> vote); `o0`..`o2`: late answers (JSON).
 */

/** The fields `pauseTurn` writes besides `def` and `status`, in the order of the script's ARGV[5..10]. */
export function askIndexFields(ask: AskDefinition): Array<string | number> {
  const userIds = ask.answerers.mode === 'list' ? ask.answerers.userIds : [];
  return [
    ask.questions.length,
    ask.requestedBy,
    ask.answerers.mode,
    `,${userIds.join(',')},`,
    ask.timeoutMs,
    Date.parse(ask.createdAt),
  ];
}

/** The JSON of `def`. */
export function askDefinitionJson(ask: AskDefinition): string {
  return serializeAskDefinition(ask);
}

/**
 * The fields `lua/answerQuestion-1.lua` replies with, in its order, for asks of at most `maxQuestions`
 * questions (keep the two lists the same).
 */
export function answerReplyFields(maxQuestions: number): string[] {
  const names = [
    'status',
    'qcount',
    'amode',
    'requestedBy',
    'ausers',
    'dusers',
    'dsum',
    'shownAt',
    'deadline',
    'messageRef',
    'resumeQueuedAt',
    'chg',
    'resolvedAt',
    'extendedBy',
    'nudged',
  ];
  for (let i = 0; i < maxQuestions; i++) names.push(`r${i}`, `v${i}`, `o${i}`);
  return names;
}

const REPLY_FIELDS = new Map<number, string[]>();

/**
 * Turns the values of an `answerQuestion` reply (after the code: `def` or nil, then the values of
 * {@link answerReplyFields}) into the ask hash fields they hold.
 */
export function hashFromAnswerReply(
  values: readonly unknown[],
  maxQuestions: number,
): Record<string, string> {
  let names = REPLY_FIELDS.get(maxQuestions);
  if (!names) {
    names = answerReplyFields(maxQuestions);
    REPLY_FIELDS.set(maxQuestions, names);
  }
  const hash: Record<string, string> = {};
  const fields = Array.isArray(values[1]) ? (values[1] as unknown[]) : [];
  for (let i = 0; i < names.length; i++) {
    const value = fields[i];
    if (value !== null && value !== undefined) hash[names[i] as string] = String(value);
  }
  const def = values[0];
  if (typeof def === 'string') hash.def = def;
  return hash;
}

/** Turns a flat `HGETALL` reply (`[field, value, ...]`) into an object. */
export function hashFromReply(reply: unknown): Record<string, string> {
  const hash: Record<string, string> = {};
  if (!Array.isArray(reply)) return hash;
  for (let i = 0; i + 1 < reply.length; i += 2) {
    hash[String(reply[i])] = String(reply[i + 1]);
  }
  return hash;
}

/**
 * The definition of an ask hash: from `definitions` when the hash's digest (`dsum`) matches the
 * cached one (then `def` is neither needed nor parsed), else parsed from `def` and cached under its digest.
 * Asks written before digests existed (no `dsum`) are parsed on every read.
 */
function definitionOf(
  hash: Record<string, string>,
  key: string,
  definitions: DefinitionCache,
  known: Readonly<DefinitionEntry> | undefined,
): AskDefinition {
  const digest = hash.dsum;
  if (known !== undefined && digest === known.digest) return known.definition;
  const cached = definitions.get(key, digest);
  if (cached) return cached;
  const def = hash.def;
  if (def === undefined) {
    throw new StateError('state_invalid_record', `Ask ${key} has no definition`, { fields: { key } });
  }
  const definition = deserializeAskDefinition(def, key);
  return digest === undefined ? deepFreeze(definition) : definitions.set(key, digest, definition);
}

function optionalNumber(hash: Record<string, string>, field: string, key: string): number | null {
  const raw = hash[field];
  if (raw === undefined) return null;
  const value = Number(raw);
  if (!Number.isFinite(value)) {
    throw new StateError('state_invalid_record', `Ask ${key}: field ${field} is not a number: ${raw}`, {
      fields: { key, field },
    });
  }
  return value;
}

/**
 * Reads an ask hash into an {@link AskRecord}. The definition part (`questions`, `answerers`, `conversation`)
 * is deeply frozen and shared between reads of the same ask: copy before changing it. `written` are
 * resolutions this process just stored: where the hash holds exactly one's JSON it is used as is, not parsed.
 * `known` is the cache entry whose digest the caller sent (the reply leaves `def` out when it matched).
 * @throws StateError `state_invalid_record` (missing `def`, bad status or number), and whatever
 *   {@link deserializeAskDefinition} / {@link deserializeQuestionResolution} throw.
 */
export function askRecordFromHash(
  hash: Record<string, string>,
  key: string,
  definitions: DefinitionCache,
  options: {
    written?: readonly WrittenResolution[];
    known?: Readonly<DefinitionEntry> | undefined;
  } = {},
): AskRecord {
  const { written, known } = options;
  const definition = definitionOf(hash, key, definitions, known);
  const status = hash.status;
  if (status !== 'open' && status !== 'resolved') {
    throw new StateError('state_invalid_record', `Ask ${key} has an unknown status ${String(status)}`, {
      fields: { key, status },
    });
  }
  const resolutions = definition.questions.map((_, index) => {
    const raw = hash[`r${index}`];
    if (raw === undefined) return null;
    const mine = written?.find((entry) => entry.index === index);
    if (mine !== undefined && mine.json === raw) return mine.resolution;
    return deserializeQuestionResolution(raw, `${key} r${index}`);
  });
  return {
    ...definition,
    status: status satisfies AskStatus,
    resolutions,
    shownAt: optionalNumber(hash, 'shownAt', key),
    deadline: optionalNumber(hash, 'deadline', key),
    messageRef: hash.messageRef ?? null,
    resumeQueuedAt: optionalNumber(hash, 'resumeQueuedAt', key),
    changes: optionalNumber(hash, 'chg', key) ?? 0,
    resolvedAt: optionalNumber(hash, 'resolvedAt', key),
    extendedBy: hash.extendedBy ?? null,
    delegates: listField(hash.dusers),
    nudged: listField(hash.nudged),
    votes: definition.questions.map((_, index) => {
      const raw = hash[`v${index}`];
      return raw === undefined ? {} : deserializeVotes(raw, `${key} v${index}`);
    }),
    overrides: definition.questions.map((_, index) => {
      const raw = hash[`o${index}`];
      return raw === undefined ? null : deserializeAnswerOverride(raw, `${key} o${index}`);
    }),
  };
}

/** A `,a,b,` list field as its items (absent or `,,`: none). */
function listField(raw: string | undefined): string[] {
  if (raw === undefined) return [];
  return raw.split(',').filter((item) => item.length > 0);
}
