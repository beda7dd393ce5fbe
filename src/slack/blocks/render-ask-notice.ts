/**
 * The thread replies about an ask (reminders, escalation, delegation, a changed answer): pure mrkdwn. The
 * only mentions are built from validated ids (`<@U…>`, `<!subteam^S…>`), never a broadcast; question
 * texts are escaped and cut.
 */
import type { AskNotice } from '../../asks/ask-ports.js';
import type { PeopleRef } from '../../asks/follow-up.js';
import type { AskRecord } from '../../asks/types.js';
import { mentionGroup, mentionUser } from '../mrkdwn.js';
import { formatDuration } from './format-duration.js';
import { escapeAndTruncate } from './truncate.js';

/** Most characters of the question quoted in a notice. */
const QUESTION_MAX = 300;
/** Most people and groups mentioned in one notice (the rest are counted). */
const MENTION_MAX = 20;

/** `<!date^…>` of `deadline` (each reader sees their own time zone; the fallback is UTC). Pure. */
export function slackDateToken(deadline: number, format = '{date_short_pretty} at {time}'): string {
  const iso = new Date(deadline).toISOString();
  return `<!date^${Math.floor(deadline / 1000)}^${format}|${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC>`;
}

/** "in 25 min" ("in a moment" under a second, "now" once due), as of `now`. Pure. */
export function relativeTime(deadline: number, now: number): string {
  const left = deadline - now;
  if (left <= 0) return 'now';
  return left < 1000 ? 'in a moment' : `in ${formatDuration(left)}`;
}

/** Mentions of people and groups, comma separated; null when there are none. Pure. */
export function mentionList(people: PeopleRef): string | null {
  const names = [...people.userIds.map(mentionUser), ...people.groupIds.map(mentionGroup)];
  if (names.length === 0) return null;
  const more = names.length > MENTION_MAX ? ` and ${names.length - MENTION_MAX} more` : '';
  return names.slice(0, MENTION_MAX).join(', ') + more;
}

/**
 * The first open question (or the first question), escaped and bold; for an approval its header ("Approve
 * deploy.rollback?"), which names the call, not the sentence that introduces its arguments.
 */
function questionText(ask: AskRecord, index?: number): string {
  const at = index ?? Math.max(0, ask.resolutions.indexOf(null));
  const question = ask.questions[at] ?? ask.questions[0];
  const text = ask.approval && question?.header ? question.header : (question?.question ?? '');
  return `*${escapeAndTruncate(text, QUESTION_MAX)}*`;
}

/** `text` as a sentence: a period unless it already ends with one (`?`, `!`, `.` before the closing `*`). */
function sentence(text: string): string {
  return /[?!.]\*?$/.test(text) ? text : `${text}.`;
}

function resolvesLine(ask: AskRecord, now: number): string {
  if (ask.deadline === null) return '';
  // The date too when it is not soon (each reader sees their own time zone).
  const format = ask.deadline - now > 12 * 3600_000 ? '{date_short_pretty} at {time}' : '{time}';
  return ` It resolves ${slackDateToken(ask.deadline, format)} (${relativeTime(ask.deadline, now)}) if nobody ${ask.approval ? 'decides' : 'answers'}.`;
}

function labels(selected: readonly string[], other: string | null): string {
  const parts = selected.map((label) => `*${escapeAndTruncate(label, 300)}*`);
  if (other !== null && other.length > 0) parts.push(`“${escapeAndTruncate(other, 1000)}”`);
  return parts.length > 0 ? parts.join(', ') : '_no answer_';
}

/**
 * The text of one notice in the ask's thread, as of `now` (epoch ms). Pure.
 * - reminder: mentions who has not answered yet (or nobody, under `anyone`) and when it resolves;
 * - escalation: mentions the escalation targets, who may answer now too;
 * - delegated: mentions the new answerer;
 * - overridden: says who changed which assumed answer from what to what.
 */
export function renderAskNotice(ask: AskRecord, notice: AskNotice, now: number): string {
  const verb = ask.approval ? 'decision' : 'answer';
  switch (notice.kind) {
    case 'reminder': {
      const who = mentionList(notice.waitingOn);
      const article = verb === 'answer' ? 'an' : 'a';
      const lead = who
        ? `⏰ ${who}: still waiting for your ${verb} on`
        : `⏰ Still waiting for ${article} ${verb} on`;
      return `${sentence(`${lead} ${questionText(ask)}`)}${resolvesLine(ask, now)}`;
    }
    case 'escalation': {
      const who = mentionList(notice.targets) ?? 'the escalation contacts';
      return `⏫ ${who}: ${questionText(ask)} has no ${verb} yet, so you can ${ask.approval ? 'decide' : 'answer'} it too.${resolvesLine(ask, now)}`;
    }
    case 'delegated':
      return `${sentence(`👉 ${mentionUser(notice.by)} asked ${mentionUser(notice.to)} to ${ask.approval ? 'decide' : 'answer'} ${questionText(ask)}`)}${resolvesLine(ask, now)}`;
    case 'overridden': {
      const override = ask.overrides[notice.questionIndex];
      const assumed = ask.resolutions[notice.questionIndex];
      const was = labels(assumed?.selected ?? [], null);
      const now_ = override ? labels(override.selected, override.other) : '_unknown_';
      const told = ask.waiter.kind === 'turn' ? ' The agent is told and goes on from here.' : '';
      return `✏️ ${mentionUser(notice.by)} changed the assumed ${verb} to ${questionText(ask, notice.questionIndex)} from ${was} to ${now_}.${told}`;
    }
  }
}
