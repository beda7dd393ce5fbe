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
 * - `d0`..`d<n-1>`, `dn`: AskDefinition JSON in `dn` parts of at most {@link DEFINITION_PART_BYTES} bytes,
 *   written once by `pauseTurn` or `openAsk` (asks stored before the parts hold it whole in `def`); `dsum`:
 *   the {@link definitionDigest} of the whole JSON.
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

/** The AskDefinition JSON of an ask (its digest is taken of this text; it is stored in parts). */
export function askDefinitionJson(ask: AskDefinition): string {
  return serializeAskDefinition(ask);
}

/**
 * Longest part of a stored definition, in bytes: Redis keeps a hash as a compact listpack while every value
 * is at most `hash-max-listpack-value` bytes (64 by default, see redis.conf), and as a hash table (about 60 B
 * more per field) as soon as one is longer. With its definition in parts, an open ask is a listpack: about
 * 600 B less per ask (bench line 5c).
 */
export const DEFINITION_PART_BYTES = 64;

/**
 * Most parts a definition is cut into: 64 (4 KB of JSON). With the ask's other fields that stays within
 * `hash-max-listpack-entries` (128 in redis.conf); a longer definition (an approval of a large tool input)
 * would make the hash a hash table anyway, where each part costs its own field overhead, so it is stored in
 * one field. It also bounds the fields the scripts pass to one `HSET` (Lua's `unpack` limit is about 8,000).
 */
export const MAX_DEFINITION_PARTS = 64;

/**
 * `json` cut into parts of at most {@link DEFINITION_PART_BYTES} bytes, never inside a UTF-8 sequence (so each
 * part is text of its own), joined by newlines: the form `pauseTurn` and `openAsk` take, which they split
 * into fields `d0`, `d1`, … and `dn` (the count). JSON text never holds a raw newline. A definition longer
 * than {@link MAX_DEFINITION_PARTS} parts is one part. Pure.
 * @throws RangeError when `json` holds a newline (it is not JSON.stringify output).
 */
export function definitionPartsArg(json: string): string {
  if (json.includes('\n')) throw new RangeError('a definition JSON text holds no raw newline');
  const bytes = Buffer.from(json, 'utf8');
  // Parts are at least DEFINITION_PART_BYTES - 3 bytes (a part backs up at most to a 4-byte character's start).
  if (bytes.length > MAX_DEFINITION_PARTS * (DEFINITION_PART_BYTES - 3)) return json;
  const parts: string[] = [];
  for (let start = 0; start < bytes.length; ) {
    let end = Math.min(start + DEFINITION_PART_BYTES, bytes.length);
    // Back up to the start of a character: a continuation byte is 10xxxxxx.
    while (end < bytes.length && end > start && ((bytes[end] as number) & 0xc0) === 0x80) end--;
    parts.push(bytes.toString('utf8', start, end));
    start = end;
  }
  return parts.join('\n');
}

/**
 * The definition JSON an ask hash holds: field `def` (asks stored before the parts), else parts `d0` … `d<dn-1>`
 * joined; undefined when there is none or a part is missing.
 */
export function definitionJsonOf(hash: Readonly<Record<string, string>>): string | undefined {
  if (hash.def !== undefined) return hash.def;
  const count = Number(hash.dn);
  if (!Number.isInteger(count) || count <= 0) return undefined;
  let json = '';
  for (let i = 0; i < count; i++) {
    const part = hash[`d${i}`];
    if (part === undefined) return undefined;
    json += part;
  }
  return json;
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
  const def = definitionJsonOf(hash);
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
 * is deeply frozen and shared between reads of the same ask: copy before changing it. `written` is a
 * resolution this process just stored: when the hash holds exactly its JSON it is used as is, not parsed.
 * `known` is the cache entry whose digest the caller sent (the reply leaves `def` out when it matched).
 * @throws StateError `state_invalid_record` (missing `def`, bad status or number), and whatever
 *   {@link deserializeAskDefinition} / {@link deserializeQuestionResolution} throw.
 */
export function askRecordFromHash(
  hash: Record<string, string>,
  key: string,
  definitions: DefinitionCache,
  options: { written?: WrittenResolution; known?: Readonly<DefinitionEntry> | undefined } = {},
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
    if (written?.index === index && written.json === raw) return written.resolution;
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
