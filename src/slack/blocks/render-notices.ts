/**
 * Ephemeral notice texts (mrkdwn) for people who click on an ask. Model text is escaped; the only
 * mentions are built from validated user ids. Pure.
 */
import type { QuestionResolution } from '../../ask/types.js';
import type { AnswererPolicy } from '../../asks/types.js';
import { mentionUser, SLACK_USER_ID_PATTERN } from '../mrkdwn.js';
import { SLACK_LIMITS } from './limits.js';
import { clampMrkdwn } from './text-objects.js';
import { escapeAndTruncate } from './truncate.js';

function labels(resolution: QuestionResolution): string | null {
  if (resolution.selected.length === 0) return null;
  return resolution.selected.map((label) => `*${escapeAndTruncate(label, 300)}*`).join(', ');
}

/**
 * The text for a click on a question that already has a resolution:
 * answered: `Already answered by <@U…>: *X*` (typed text shown escaped); assumed: `Already resolved by
 * timeout: assumed *X*` or `…: no option assumed`; canceled: `Already canceled by <@U…>`.
 */
export function alreadyAnsweredText(resolution: QuestionResolution): string {
  const picked = labels(resolution);
  let text: string;
  switch (resolution.status) {
    case 'answered': {
      const typed =
        resolution.other !== null && resolution.other.length > 0
          ? `“${escapeAndTruncate(resolution.other, 1500)}” (typed)`
          : null;
      const what = [picked, typed].filter((part): part is string => part !== null).join(' + ');
      text = `Already answered by ${mentionUser(resolution.answeredBy)}: ${what.length > 0 ? what : 'nothing selected'}`;
      break;
    }
    case 'assumed':
      text =
        resolution.source === 'not_shown'
          ? `Already resolved (the question could not be shown): ${picked !== null ? `assumed ${picked}` : 'no option assumed'}`
          : `Already resolved by timeout: ${picked !== null ? `assumed ${picked}` : 'no option assumed'}`;
      break;
    case 'canceled':
      text = `Already canceled by ${mentionUser(resolution.answeredBy)}`;
      break;
    default:
      text = 'Already resolved';
  }
  return clampMrkdwn(text, SLACK_LIMITS.textObject);
}

/**
 * The refusal for someone the answerer policy does not allow. For a list policy the allowed users are
 * mentioned (validated ids only, at most 10); user groups are never mentioned (no group ping).
 */
export function notAllowedText(policy: AnswererPolicy): string {
  switch (policy.mode) {
    case 'requester':
      return 'Only the person who asked the agent can answer this question. Nothing was changed.';
    case 'list': {
      const users = policy.userIds.filter((id) => SLACK_USER_ID_PATTERN.test(id)).slice(0, 10);
      const parts: string[] = [];
      if (users.length > 0) parts.push(users.map((id) => mentionUser(id)).join(', '));
      if (policy.groupIds.length > 0) parts.push('members of the allowed user groups');
      const who = parts.length > 0 ? parts.join(' and ') : 'the allowed people';
      return `Only ${who} can answer this question. Nothing was changed.`;
    }
    default:
      return 'You cannot answer this question. Nothing was changed.';
  }
}

/** The refusal for a Cancel click by someone other than the person who started the turn. */
export function cancelNotAllowedText(): string {
  return 'Only the person who asked the agent can cancel this question. Nothing was changed.';
}

/** The notice for a click on an ask that is no longer open (resolved, canceled or expired). */
/**
 * The thread reply for a mention or DM that could not be stored (Redis down): nothing was kept, so the
 * person must send it again; Slack does not redeliver an event it saw acknowledged.
 */
export function notKeptText(how: 'mention' | 'dm'): string {
  return how === 'mention'
    ? 'I could not take this on: my state store is unreachable right now, so nothing was kept. Please mention me again in a minute.'
    : 'I could not take this on: my state store is unreachable right now, so nothing was kept. Please send your message again in a minute.';
}

/** The text for a click or submission that names an ask other than the one its message shows. */
export function wrongMessageText(): string {
  return 'This control does not belong to the question in this message. Nothing was changed.';
}

export function askClosedText(): string {
  return 'This question is closed; your click changed nothing.';
}

/** The notice when the answer could not be stored (e.g. Redis unavailable); the click may be retried. */
export function temporarilyUnavailableText(): string {
  return 'holdpoint could not save your answer right now; please click again in a moment';
}

/** The notice when the ask's stored state cannot be read (unknown version, corrupt record). */
export function stateUnreadableText(): string {
  return 'holdpoint cannot read the state of this question any more, so it cannot take answers here. Nothing was changed.';
}
