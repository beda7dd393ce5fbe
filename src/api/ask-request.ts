import { z } from 'zod';
import { decodeAskArguments } from '../ask/decode-ask-arguments.js';
import { formatAskError } from '../ask/format-ask-error.js';
import { type AskQuestion, TIMEOUT_POLICIES, type TimeoutPolicy } from '../ask/types.js';
import type { AnswererPolicy, AskFollowUp } from '../asks/types.js';
import { parseAnswerers } from '../config/answerers.js';
import { parseDuration } from '../config/durations.js';
import { ASK_TIMEOUT_BOUNDS } from '../config/env-schema.js';
import { webhookAddressAllowed } from './webhook-target.js';

/** Largest `metadata` accepted, in bytes of its JSON: it is stored with the ask and returned as given. */
export const METADATA_MAX_BYTES = 4096;

/** The body of `POST /v1/asks` after decoding. */
export interface AskRequest {
  /** Where to post: a channel (`C…`/`G…`), or a user whose DM the API opens (`U…`/`W…`). */
  target: { channel: string } | { user: string };
  /** Post as a reply in this thread; absent: a new message. */
  threadTs: string | null;
  questions: AskQuestion[];
  timeoutMs: number;
  policy: TimeoutPolicy;
  answerers: AnswererPolicy;
  metadata: Record<string, unknown> | null;
  /** Where the signed `ask.resolved` webhook goes (http or https), or null. */
  callbackUrl: string | null;
  /** A line shown above the questions, or null. */
  intro: string | null;
  /** Reminders, escalation, snooze, quorum and late answers: the configured ones, with the request's `quorum` and `escalation`. */
  followUp: AskFollowUp;
}

/** A refused request: a stable `code`, a precise `message` and the JSON path it is about. */
export interface ApiProblem {
  code: string;
  message: string;
  path: string;
}

/** What a request leaves out: the configured `ASK_TIMEOUT`, `ASK_TIMEOUT_POLICY` and `ASK_ANSWERERS`. */
export interface AskRequestDefaults {
  timeoutMs: number;
  policy: TimeoutPolicy;
  answerers: AnswererPolicy;
  followUp: AskFollowUp;
}

const CHANNEL_ID = 'expected a channel id (C…, G… or D…)';
const USER_ID = 'expected a user id (U… or W…)';
const ANSWERERS = 'use "anyone" or a list of user ids (U…, W…) and user-group ids (S…)';

// Each field has its own message: a caller reads what to send, not zod's wording.
const bodySchema = z.strictObject(
  {
    channel: z
      .string({ error: CHANNEL_ID })
      .regex(/^[CGD][A-Z0-9]{2,}$/, CHANNEL_ID)
      .optional(),
    user: z
      .string({ error: USER_ID })
      .regex(/^[UW][A-Z0-9]{2,}$/, USER_ID)
      .optional(),
    threadTs: z
      .string({ error: 'expected a message ts string such as "1700000000.000100"' })
      .regex(/^\d{1,12}\.\d{1,8}$/, 'expected a message ts such as 1700000000.000100')
      .optional(),
    questions: z.unknown().optional(),
    text: z
      .string({ error: 'expected a string of 1 to 2000 characters' })
      .trim()
      .min(1, 'expected a string of 1 to 2000 characters')
      .max(2000, 'expected a string of 1 to 2000 characters')
      .optional(),
    timeout: z
      .union([z.string(), z.number()], { error: 'expected a duration such as "10m", or a number of seconds' })
      .optional(),
    timeoutPolicy: z
      .enum(TIMEOUT_POLICIES, { error: `expected one of ${TIMEOUT_POLICIES.join(', ')}` })
      .optional(),
    answerers: z.union([z.literal('anyone'), z.array(z.string())], { error: ANSWERERS }).optional(),
    metadata: z.record(z.string(), z.unknown(), { error: 'expected a JSON object' }).optional(),
    quorum: z
      .number({ error: 'expected a whole number from 1 to 20' })
      .int('expected a whole number from 1 to 20')
      .min(1, 'expected a whole number from 1 to 20')
      .max(20, 'expected a whole number from 1 to 20')
      .optional(),
    escalation: z
      .strictObject(
        {
          after: z.union([z.string(), z.number()], {
            error: 'expected a duration such as "20m", or a number of seconds',
          }),
          to: z.array(z.string(), { error: 'expected a list of user ids (U…, W…) and user-group ids (S…)' }),
        },
        { error: 'expected {"after": "20m", "to": ["U…", "S…"]}, or null for no escalation' },
      )
      .nullable()
      .optional(),
    callbackUrl: z
      .string({ error: 'expected an http or https URL' })
      .max(2000, 'expected an http or https URL of at most 2000 characters')
      .refine((text) => /^https?:\/\//i.test(text) && URL.canParse(text), 'expected an http or https URL')
      .refine(
        (text) => !URL.canParse(text) || webhookAddressAllowed(new URL(text).hostname),
        'a link-local address (169.254.x.x, fe80::, where cloud metadata services answer) is not allowed',
      )
      .optional(),
  },
  { error: 'expected a JSON object with "questions" and "channel" or "user"' },
);

/**
 * Decodes the JSON body of `POST /v1/asks`: where to ask (`channel` or `user`, optional `threadTs`), an
 * optional intro `text` (at most 2000 characters, shown escaped above the questions), the
 * `questions` in exactly the `ask_question` contract with the same lenient decoding (a refusal carries the
 * very text a model gets for the same arguments), and the optional `timeout` (the `ASK_TIMEOUT` syntax),
 * `timeoutPolicy`, `answerers` (`anyone` or a list of U…, W…, S… ids) and `metadata` (a JSON object of at
 * most {@link METADATA_MAX_BYTES}). Pure; never throws.
 */
export function decodeAskRequest(
  body: unknown,
  defaults: AskRequestDefaults,
): { ok: true; request: AskRequest } | { ok: false; problem: ApiProblem } {
  const parsed = bodySchema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const path = issue?.path.map(String).join('.') ?? '';
    const message =
      issue?.code === 'unrecognized_keys'
        ? `unknown field ${issue.keys.map((key) => `"${key}"`).join(', ')}`
        : `${path || 'the body'}: ${issue?.message ?? 'invalid'}`;
    return refused(
      'invalid_request',
      message,
      issue?.code === 'unrecognized_keys' ? (issue.keys[0] ?? '') : path,
    );
  }
  const fields = parsed.data;
  if ((fields.channel === undefined) === (fields.user === undefined))
    return refused(
      'invalid_request',
      'give exactly one of "channel" (C…, G…, D…) and "user" (U…, W…)',
      'channel',
    );
  if (fields.questions === undefined) return refused('invalid_ask', 'questions: required', 'questions');
  const decoded = decodeAskArguments({ questions: fields.questions });
  if (!decoded.ok)
    return refused('invalid_ask', formatAskError(decoded.issues), decoded.issues[0]?.path ?? 'questions');

  let timeoutMs = defaults.timeoutMs;
  if (fields.timeout !== undefined) {
    // The `ASK_TIMEOUT` syntax: a duration such as `10m`, or a plain number of seconds (text or a JSON number).
    const ms = parseDuration(String(fields.timeout));
    if (ms === null || ms < ASK_TIMEOUT_BOUNDS.minMs || ms > ASK_TIMEOUT_BOUNDS.maxMs)
      return refused(
        'invalid_request',
        `timeout: "${fields.timeout}" is not a duration from 1s to 7d (e.g. 90s, 10m, 2h)`,
        'timeout',
      );
    timeoutMs = ms;
  }
  let answerers = defaults.answerers;
  if (fields.answerers !== undefined) {
    const text = typeof fields.answerers === 'string' ? fields.answerers : fields.answerers.join(',');
    const policy = parseAnswerers(text);
    if (!policy.ok || (typeof fields.answerers !== 'string' && policy.policy.mode !== 'list'))
      return refused('invalid_request', `answerers: ${ANSWERERS}`, 'answerers');
    answerers = policy.policy;
  }
  let followUp: AskFollowUp = defaults.followUp;
  if (fields.quorum !== undefined) followUp = { ...followUp, quorum: fields.quorum };
  // null: no escalation for this ask, whatever ASK_ESCALATE_* says.
  if (fields.escalation === null) followUp = { ...followUp, escalation: null };
  else if (fields.escalation !== undefined) {
    const afterMs = parseDuration(String(fields.escalation.after));
    if (afterMs === null || afterMs <= 0)
      return refused(
        'invalid_request',
        `escalation.after: "${fields.escalation.after}" is not a duration (e.g. 20m)`,
        'escalation.after',
      );
    const targets = parseAnswerers(fields.escalation.to.join(','));
    if (!targets.ok || targets.policy.mode !== 'list')
      return refused(
        'invalid_request',
        'escalation.to: use a list of user ids (U…, W…) and user-group ids (S…)',
        'escalation.to',
      );
    followUp = {
      ...followUp,
      escalation: { afterMs, userIds: targets.policy.userIds, groupIds: targets.policy.groupIds },
    };
  }
  if (fields.metadata !== undefined && !(metadataSize(fields.metadata) <= METADATA_MAX_BYTES))
    return refused('invalid_request', `metadata: at most ${METADATA_MAX_BYTES} bytes of JSON`, 'metadata');

  return {
    ok: true,
    request: {
      target: fields.channel !== undefined ? { channel: fields.channel } : { user: fields.user ?? '' },
      threadTs: fields.threadTs ?? null,
      questions: decoded.ask.questions,
      timeoutMs,
      policy: fields.timeoutPolicy ?? defaults.policy,
      answerers,
      metadata: fields.metadata ?? null,
      callbackUrl: fields.callbackUrl ?? null,
      intro: fields.text ?? null,
      followUp,
    },
  };
}

function refused(code: string, message: string, path: string): { ok: false; problem: ApiProblem } {
  return { ok: false, problem: { code, message, path } };
}

/** Bytes of `metadata` as JSON; Infinity when it cannot be serialized (nested too deep for the stack). */
function metadataSize(metadata: Record<string, unknown>): number {
  try {
    return Buffer.byteLength(JSON.stringify(metadata));
  } catch {
    return Number.POSITIVE_INFINITY;
  }
}
