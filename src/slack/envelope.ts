import { z } from 'zod';

/**
 * What a signed Slack request body must look like before Bolt may see it. Bolt's `App.processEvent`
 * dereferences these fields without checking them (`body.ssl_check` on a `null` body, `for … of` over
 * `actions`, `'channel' in event`, `body.user.team_id`), so a malformed but correctly signed body would
 * throw inside Bolt: an unhandled rejection in HTTP mode (the process ends) or a 500. Each rule names
 * one such field; everything else passes through untouched (`loose`).
 */
const objectLike = z.object({}).loose();
/**
 * A Slack user id (`U…`/`W…`, uppercase letters and digits; at most 64 here, real ids are about 11). A
 * signed payload with anything else as its user is not from Slack: refused before it is stored as who
 * answered (a 70,000-character id made every later render of the ask message take seconds).
 */
const slackUserId = z.string().regex(/^[UW][A-Z0-9]{2,63}$/, 'expected a Slack user id (U… or W…)');
const user = z.object({ id: slackUserId }).loose();
/** Bolt matches listeners on these with `String.prototype.match`: anything but a string throws inside Bolt. */
const matchedId = z.string().max(255).optional();
/** `team` is null for org-wide installs; Bolt then reads `user.team_id`. */
const team = z.object({}).loose().nullable().optional();

const eventBody = z
  .object({
    // Events are de-duplicated by event_id (Slack always sends one); without it every redelivery would
    // start another turn.
    event_id: z.string().min(1).max(255),
    team_id: z.string().optional(),
    event: z
      .object({
        type: z.string().min(1),
        channel: z.union([z.string(), z.object({ id: z.string() }).loose()]).optional(),
        channel_id: z.string().optional(),
        item: objectLike.optional(),
        // A message's author; some events (user_change) carry a user object instead.
        user: z.union([slackUserId, objectLike]).optional(),
      })
      .loose(),
    authorizations: z.array(objectLike).optional(),
  })
  .loose();

const interactionBase = { user, team };
const actionBody = z
  .object({
    ...interactionBase,
    actions: z.array(z.object({ action_id: matchedId, block_id: matchedId }).loose()).min(1),
    channel: objectLike.optional(),
    container: objectLike.optional(),
    message: objectLike.optional(),
    state: objectLike.optional(),
  })
  .loose();
const viewBody = z
  .object({
    ...interactionBase,
    view: z.object({ state: objectLike.optional(), callback_id: matchedId }).loose(),
  })
  .loose();
const userBody = z.object({ ...interactionBase, callback_id: matchedId, action_id: matchedId }).loose();
/** A slash command (form fields): Bolt matches `command` as a string; the listener answers `user_id`. */
const commandBody = z
  .object({ command: z.string().min(2).max(32), user_id: slackUserId, text: z.string().max(4000).optional() })
  .loose();

/** Result of {@link checkSlackEnvelope}: `kind` names the body's type for logs; `problem` says what is wrong. */
export type EnvelopeCheck = { ok: true; kind: string } | { ok: false; kind: string; problem: string };

function kindOf(body: Record<string, unknown>): string {
  if (body.event !== undefined || body.type === 'event_callback') return 'event_callback';
  if (body.command !== undefined) return 'command';
  if (typeof body.type === 'string') return body.type;
  if (body.actions !== undefined) return 'actions';
  return 'unknown';
}

/** The schema a body of `kind` must pass, or null when Bolt dispatches nothing for it (then it is only acked). */
function schemaFor(kind: string, body: Record<string, unknown>): z.ZodType | null {
  if (kind === 'event_callback') return eventBody;
  if (kind === 'command') return commandBody;
  // Bolt decides "action" by the presence of `actions`, whatever the type says.
  if (body.actions !== undefined || kind === 'block_actions' || kind === 'interactive_message')
    return actionBody;
  if (kind === 'view_submission' || kind === 'view_closed') return viewBody;
  if (
    kind === 'shortcut' ||
    kind === 'message_action' ||
    kind === 'block_suggestion' ||
    kind === 'dialog_submission' ||
    kind === 'dialog_suggestion' ||
    body.name !== undefined
  )
    return userBody;
  return null;
}

function describeIssue(issue: z.core.$ZodIssue): string {
  const path = issue.path.length > 0 ? issue.path.map(String).join('.') : '(body)';
  return `${path}: ${issue.message}`;
}

/**
 * Checks a parsed Slack request body (Events API or interactivity) for the fields Bolt relies on.
 * Pure; never throws.
 * @returns `ok` with the body's kind, or the first problem (`path: message`) when Bolt must not see it.
 */
export function checkSlackEnvelope(body: unknown): EnvelopeCheck {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return {
      ok: false,
      kind: 'unknown',
      problem: `(body): expected a JSON object, got ${body === null ? 'null' : Array.isArray(body) ? 'an array' : typeof body}`,
    };
  }
  const record = body as Record<string, unknown>;
  const kind = kindOf(record);
  const schema = schemaFor(kind, record);
  if (!schema) return { ok: true, kind };
  const parsed = schema.safeParse(record);
  if (parsed.success) return { ok: true, kind };
  const issue = parsed.error.issues[0];
  return { ok: false, kind, problem: issue ? describeIssue(issue) : 'invalid body' };
}
