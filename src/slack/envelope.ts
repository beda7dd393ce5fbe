import { z } from 'zod';

/**
 * What a signed Slack request body must look like before Bolt may see it. Bolt's `App.processEvent`
 * dereferences these fields without checking them (`body.ssl_check` on a `null` body, `for … of` over
 * `actions`, `'channel' in event`, `body.user.team_id`), so a malformed but correctly signed body would
 * throw inside Bolt: an unhandled rejection in HTTP mode (the process ends) or a 500. Each rule names
 * one such field; everything else passes through untouched (`loose`).
 */
const objectLike = z.object({}).loose();
const user = z.object({ id: z.string().min(1) }).loose();
/** `team` is null for org-wide installs; Bolt then reads `user.team_id`. */
const team = z.object({}).loose().nullable().optional();

const eventBody = z
  .object({
    event: z
      .object({
        type: z.string().min(1),
        channel: z.union([z.string(), z.object({ id: z.string() }).loose()]).optional(),
        channel_id: z.string().optional(),
        item: objectLike.optional(),
      })
      .loose(),
    authorizations: z.array(objectLike).optional(),
  })
  .loose();

const interactionBase = { user, team };
const actionBody = z
  .object({
    ...interactionBase,
    actions: z.array(z.object({}).loose()).min(1),
    channel: objectLike.optional(),
    container: objectLike.optional(),
    message: objectLike.optional(),
    state: objectLike.optional(),
  })
  .loose();
const viewBody = z
  .object({
    ...interactionBase,
    view: z.object({ state: objectLike.optional() }).loose(),
  })
  .loose();
const userBody = z.object(interactionBase).loose();

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
  if (kind === 'command') return null;
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
