import { StateError } from '../errors.js';
import {
  deserializeAskDefinition,
  deserializeQuestionResolution,
  serializeAskDefinition,
} from './schemas.js';
import type { AskDefinition, AskRecord, AskStatus } from './types.js';

/**
 * Storage of one ask as a Redis hash. Fields:
 * - `def`: AskDefinition JSON, written once by `pauseTurn`.
 * - `status`: `open` | `resolved`.
 * - `r0`..`r2`: QuestionResolution JSON per question; absent while unresolved.
 * - `qcount`, `requestedBy`, `amode` (`anyone`|`requester`|`list`), `ausers` (`,U1,U2,`), `timeoutMs`,
 *   `createdAt` (epoch ms): copies of definition fields so the Lua scripts never decode JSON.
 * - `shownAt`, `deadline`, `resolvedAt`, `resumeQueuedAt`: epoch ms, absent until set.
 * - `messageRef`: surface reference of the shown message, absent until shown.
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

/** Turns a flat `HGETALL` reply (`[field, value, ...]`) into an object. */
export function hashFromReply(reply: unknown): Record<string, string> {
  const hash: Record<string, string> = {};
  if (!Array.isArray(reply)) return hash;
  for (let i = 0; i + 1 < reply.length; i += 2) {
    hash[String(reply[i])] = String(reply[i + 1]);
  }
  return hash;
}

/** Parsed definitions by their stored JSON (a definition is written once and never changes). */
const definitionCache = new Map<string, AskDefinition>();
/** Entries kept; the oldest is dropped first. About 2-4 KB each. */
const DEFINITION_CACHE_SIZE = 1_000;

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

/**
 * Parses `def` once per distinct JSON text: the answer path reads the same definition on every click, and the
 * zod check is most of its CPU cost. Returned definitions are deeply frozen (shared between reads).
 */
function cachedDefinition(json: string, key: string): AskDefinition {
  const cached = definitionCache.get(json);
  if (cached) return cached;
  const definition = deepFreeze(deserializeAskDefinition(json, key));
  if (definitionCache.size >= DEFINITION_CACHE_SIZE) {
    const oldest = definitionCache.keys().next();
    if (!oldest.done) definitionCache.delete(oldest.value);
  }
  definitionCache.set(json, definition);
  return definition;
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
 * is deeply frozen and shared between reads of the same ask: copy before changing it.
 * @throws StateError `state_invalid_record` (missing `def`, bad status or number), and whatever
 *   {@link deserializeAskDefinition} / {@link deserializeQuestionResolution} throw.
 */
export function askRecordFromHash(hash: Record<string, string>, key: string): AskRecord {
  const def = hash.def;
  if (def === undefined) {
    throw new StateError('state_invalid_record', `Ask ${key} has no definition`, { fields: { key } });
  }
  const definition = cachedDefinition(def, key);
  const status = hash.status;
  if (status !== 'open' && status !== 'resolved') {
    throw new StateError('state_invalid_record', `Ask ${key} has an unknown status ${String(status)}`, {
      fields: { key, status },
    });
  }
  const resolutions = definition.questions.map((_, index) => {
    const raw = hash[`r${index}`];
    return raw === undefined ? null : deserializeQuestionResolution(raw, `${key} r${index}`);
  });
  return {
    ...definition,
    status: status satisfies AskStatus,
    resolutions,
    shownAt: optionalNumber(hash, 'shownAt', key),
    deadline: optionalNumber(hash, 'deadline', key),
    messageRef: hash.messageRef ?? null,
    resumeQueuedAt: optionalNumber(hash, 'resumeQueuedAt', key),
  };
}
