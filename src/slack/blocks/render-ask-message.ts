/**
 * The Slack message of one ask: pure Block Kit rendering of an {@link AskRecord}, open, partly resolved
 * or resolved. Every Slack limit holds by construction for any ask within the ask caps (ASK_LIMITS):
 * at most 50 blocks, texts within their limits (measured in UTF-16 code units, cut on grapheme
 * boundaries), unique block_ids per revision, unique action_ids per actions block, ids only in ids and
 * values. Model text is escaped for mrkdwn and neutralized for plain_text; the only mentions are built
 * from validated user ids.
 */
import type {
  ActionsBlock,
  Button,
  Checkboxes,
  ContextBlock,
  KnownBlock,
  Option,
  Overflow,
  PlainTextOption,
  SectionBlock,
} from '@slack/types';
import { assumeResolution } from '../../ask/assume-resolution.js';
import type { AskOption, AskQuestion, QuestionResolution } from '../../ask/types.js';
import { askRevision } from '../../asks/ask-revision.js';
import { extendChoices, namedAnswerers, overridableQuestions, quorumOf } from '../../asks/follow-up.js';
import {
  APPROVAL_OPTIONS,
  type AskRecord,
  askerLabel,
  cancelableInConversation,
  waitedForMs,
} from '../../asks/types.js';
import { escapeMrkdwn, mentionGroup, mentionUser } from '../mrkdwn.js';
import {
  blockId,
  CANCEL_ACTION_ID,
  encodeActionValue,
  encodeMenuValue,
  MENU_ACTION_ID,
  optionActionId,
  questionActionId,
} from './action-ids.js';
import { formatDuration } from './format-duration.js';
import { SLACK_LIMITS } from './limits.js';
import { relativeTime, slackDateToken } from './render-ask-notice.js';
import { replyAnswerableQuestion, replyHintLine } from './render-reply-confirm.js';
import { mrkdwnText, plainText } from './text-objects.js';
import { escapeAndTruncate, truncateText } from './truncate.js';

/** A rendered ask message: the top-level `text` fallback (escaped mrkdwn) and the blocks. */
export interface RenderedAskMessage {
  text: string;
  blocks: KnownBlock[];
}

/** Options of {@link renderAskMessage}. */
export interface RenderAskMessageOptions {
  /** Epoch ms used to compute the deadline when the ask has none yet (before it is first shown). */
  now?: number;
  /** For an approval: what each approved call did, by question (null: not run or not known). */
  approvalOutcomes?: ReadonlyArray<ApprovalOutcome | null>;
}

/** What an approved call did: ran fine, or ran and failed (with the start of its error, plain text). */
export interface ApprovalOutcome {
  ok: boolean;
  text: string;
}

/** Most characters of an approved call's error shown under its decision. */
const OUTCOME_MAX = 300;

/** Most ids named in the who-may-answer line (the rest are counted). */
const WHO_MAX = 10;

/**
 * The line naming who may answer (or approve) an open ask with an answerer list: `<@U…>` and
 * `<!subteam^S…>` mentions built from validated ids only; null for `anyone` and `requester`. Pure.
 */
export function whoMayAnswerLine(
  ask: Pick<AskRecord, 'answerers' | 'approval'> &
    Partial<Pick<AskRecord, 'followUp' | 'shownAt' | 'delegates'>>,
  now?: number,
): string | null {
  const policy = ask.answerers;
  // The list, then delegates and (once escalated) the escalation targets, who may answer too: by name.
  const named = namedAnswerers(ask, now);
  const users = [...named.userIds];
  const groups = named.groupIds;
  if (policy.mode !== 'list' && users.length === 0 && groups.length === 0) return null;
  if (policy.mode === 'requester' && users.length > 0) users.unshift('');
  const names = [
    ...users.map((id) => (id === '' ? 'the person who asked' : mentionUser(id))),
    ...groups.map(mentionGroup),
  ];
  if (policy.mode === 'anyone') names.unshift('anyone here');
  if (names.length === 0) return null;
  const shown = names.slice(0, WHO_MAX).join(', ');
  const more = names.length > WHO_MAX ? ` and ${names.length - WHO_MAX} more` : '';
  return `👤 ${ask.approval ? 'Who can approve' : 'Who can answer'}: ${shown}${more}`;
}

/** Marker around a recommended option's label on its button: `★ <label> (recommended)`. */
export const RECOMMENDED_PREFIX = '★ ';
/** See {@link RECOMMENDED_PREFIX}. */
export const RECOMMENDED_SUFFIX = ' (recommended)';

/** Escaped-label budget inside mrkdwn lines (48 code points escaped is at most 240). */
const LABEL_MRKDWN_MAX = 300;
/** Escaped description budget inside an option line (200 code points escaped is at most 1000). */
const DESCRIPTION_MRKDWN_MAX = 1200;
/** Budget for typed (Other…/free-text) answers shown in the message. */
const TYPED_MRKDWN_MAX = 1500;

/**
 * Renders the one Slack message of an ask.
 *
 * While a question is open: header (header block, plain_text), the question (section, mrkdwn), the purpose
 * (context), option descriptions (section list, only when some option has one), the controls (actions:
 * option buttons with the recommended one first and `primary`; or, for multi-select, checkboxes whose option
 * values are the option indexes and whose texts are the labels, recommended ones marked like the buttons,
 * plus Submit; or Answer for free text; plus "Other…" for choice questions), and when it resolves by itself
 * and to what (context, with a Slack `<!date^…>` token built by the bot). While the ask
 * is open a final actions block carries the requester's Cancel button (with a confirm dialog).
 * A resolved question keeps its header and question and shows one line saying how it ended.
 *
 * @param ask the ask as stored; `deadline` (epoch ms) may be null before the ask was first shown, then
 *   `options.now + timeoutMs` is used, or the text speaks of the duration only.
 * @throws StateError only when the ask's ids cannot be encoded (`|` in an id, ids over 500 characters).
 */
export function renderAskMessage(ask: AskRecord, options: RenderAskMessageOptions = {}): RenderedAskMessage {
  const revision = askRevision(ask);
  const deadline = ask.deadline ?? (options.now === undefined ? null : options.now + ask.timeoutMs);
  const blocks: KnownBlock[] = [];
  const count = ask.questions.length;
  // A program's intro line, escaped like model text.
  if (ask.intro)
    blocks.push(section(ask, revision, 'x', 'intro', escapeAndTruncate(ask.intro, SLACK_LIMITS.sectionText)));
  // Who may answer, by name, while it is open: the listed people and groups are mentioned (and notified).
  const who = ask.status === 'open' ? whoMayAnswerLine(ask, options.now) : null;
  if (who) blocks.push(context(ask, revision, 'x', 'who', who));

  ask.questions.forEach((question, questionIndex) => {
    if (questionIndex > 0)
      blocks.push({ type: 'divider', block_id: blockId(ask.askId, revision, questionIndex, 'div') });
    const resolution = ask.resolutions[questionIndex] ?? null;
    blocks.push(...questionHeadBlocks(ask, question, questionIndex, revision, count));
    const call = ask.approval?.calls[questionIndex];
    if (call) {
      const args = argumentsJson(call.input);
      const cut = escapeMrkdwn(args).length > ARGUMENTS_MAX;
      const note = cut
        ? `\n_Cut: ${Array.from(args).length.toLocaleString('en-US')} characters in all, not all shown; *Show all* has them whole._`
        : '';
      const shown = section(ask, revision, questionIndex, 'args', codeBlock(args, ARGUMENTS_MAX) + note);
      // Cut: a "Show all" button opens them whole in a modal.
      if (cut)
        shown.accessory = button(
          'Show all',
          questionActionId('args', questionIndex),
          value(ask, questionIndex, null),
        );
      blocks.push(shown);
    }
    if (resolution !== null) {
      const outcome = options.approvalOutcomes?.[questionIndex] ?? null;
      const line = call
        ? `${approvalResolutionLine(resolution, waitedForMs(ask))}${outcome ? outcomeText(outcome) : ''}`
        : resolutionLine(resolution, waitedForMs(ask));
      const done = section(ask, revision, questionIndex, 'done', line + overrideText(ask, questionIndex));
      // An assumption that may still be changed by a late answer: "Change answer" beside it.
      if (options.now !== undefined && overridableQuestions(ask, options.now).includes(questionIndex))
        done.accessory = button(
          'Change answer',
          questionActionId('change', questionIndex),
          value(ask, questionIndex, null),
        );
      blocks.push(done);
    } else if (ask.status !== 'open') {
      blocks.push(section(ask, revision, questionIndex, 'done', '🔒 Closed without an answer'));
    } else {
      blocks.push(...openQuestionBlocks(ask, question, questionIndex, revision, deadline, options.now));
    }
  });

  // Only a turn's requester can cancel from Slack; a program cancels its own ask through the API. The menu
  // (snooze, "Ask someone else…") is shown to everyone and checked on click.
  if (ask.status === 'open') {
    const cancel = cancelableInConversation(ask.waiter) ? cancelButton(ask) : null;
    const menu = menuElement({ ...ask, deadline, shownAt: ask.shownAt ?? options.now ?? null });
    if (cancel || menu)
      blocks.push({
        type: 'actions',
        block_id: blockId(ask.askId, revision, 'x', 'cancel'),
        elements: [...(cancel ? [cancel] : []), ...(menu ? [menu] : [])],
      });
  }
  return { text: fallbackText(ask), blocks };
}

function section(
  ask: AskRecord,
  revision: number,
  scope: number | 'x',
  part: string,
  text: string,
): SectionBlock {
  return {
    type: 'section',
    block_id: blockId(ask.askId, revision, scope, part),
    text: mrkdwnText(text, SLACK_LIMITS.sectionText),
  };
}

function context(
  ask: AskRecord,
  revision: number,
  scope: number | 'x',
  part: string,
  text: string,
): ContextBlock {
  return {
    type: 'context',
    block_id: blockId(ask.askId, revision, scope, part),
    elements: [mrkdwnText(text, SLACK_LIMITS.textObject)],
  };
}

function questionHeadBlocks(
  ask: AskRecord,
  question: AskQuestion,
  questionIndex: number,
  revision: number,
  count: number,
): KnownBlock[] {
  const blocks: KnownBlock[] = [];
  if (question.header !== null && question.header.trim().length > 0) {
    blocks.push({
      type: 'header',
      block_id: blockId(ask.askId, revision, questionIndex, 'head'),
      text: plainText(question.header, SLACK_LIMITS.headerText),
    });
  }
  const prefix = count > 1 ? `*${questionIndex + 1}/${count}* ` : '';
  const questionText =
    prefix + escapeAndTruncate(question.question, SLACK_LIMITS.sectionText - prefix.length);
  blocks.push(section(ask, revision, questionIndex, 'q', questionText));
  return blocks;
}

/** Option indexes in display order: recommended first (stable), as the store order already should be. */
function displayOrder(options: AskOption[], multiSelect: boolean): number[] {
  const indexes = options.map((_, index) => index);
  if (multiSelect) return indexes;
  return [
    ...indexes.filter((i) => options[i]?.recommended),
    ...indexes.filter((i) => !options[i]?.recommended),
  ];
}

function bold(label: string): string {
  return `*${escapeAndTruncate(label, LABEL_MRKDWN_MAX)}*`;
}

function listLabels(labels: string[]): string {
  return labels.map(bold).join(', ');
}

function openQuestionBlocks(
  ask: AskRecord,
  question: AskQuestion,
  questionIndex: number,
  revision: number,
  deadline: number | null,
  now: number | undefined,
): KnownBlock[] {
  const blocks: KnownBlock[] = [];
  if (question.purpose !== null && question.purpose.trim().length > 0) {
    blocks.push(
      context(ask, revision, questionIndex, 'why', `_Why:_ ${escapeAndTruncate(question.purpose, 2000)}`),
    );
  }
  const options = question.kind === 'choice' ? (question.options ?? []) : [];
  if (options.some((option) => option.description !== null && option.description.length > 0)) {
    const lines = displayOrder(options, question.multiSelect).map((index) => {
      const option = options[index] as AskOption;
      const marker = option.recommended ? ' (recommended)' : '';
      const description =
        option.description !== null && option.description.length > 0
          ? ` — ${escapeAndTruncate(option.description, DESCRIPTION_MRKDWN_MAX)}`
          : '';
      return `• ${bold(option.label)}${marker}${description}`;
    });
    let part = 0;
    let current = '';
    for (const line of lines) {
      if (current.length > 0 && current.length + 1 + line.length > SLACK_LIMITS.sectionText) {
        blocks.push(section(ask, revision, questionIndex, `opts${part}`, current));
        part += 1;
        current = '';
      }
      current = current.length > 0 ? `${current}\n${line}` : line;
    }
    if (current.length > 0) blocks.push(section(ask, revision, questionIndex, `opts${part}`, current));
  }
  blocks.push(controlsBlock(ask, question, questionIndex, revision, options));
  const votes = quorumLine(ask, questionIndex);
  // The free-text question a thread reply would answer (the first open one) says how to answer by reply.
  const byReply = questionIndex === replyAnswerableQuestion(ask) ? `\n${replyHintLine()}` : '';
  blocks.push(
    context(
      ask,
      revision,
      questionIndex,
      'due',
      deadlineLine(ask, question, deadline, now) + votes + byReply,
    ),
  );
  return blocks;
}

function value(ask: AskRecord, questionIndex: number | null, optionIndex: number | null): string {
  return encodeActionValue({ turnId: ask.scope, askId: ask.askId, questionIndex, optionIndex });
}

/** Button text for an option: `★ <label> (recommended)` or the label, ≤ 75 UTF-16 code units. */
export function optionButtonText(option: Pick<AskOption, 'label' | 'recommended'>): string {
  if (!option.recommended) return truncateText(option.label, SLACK_LIMITS.buttonText);
  const budget = SLACK_LIMITS.buttonText - RECOMMENDED_PREFIX.length - RECOMMENDED_SUFFIX.length;
  return `${RECOMMENDED_PREFIX}${truncateText(option.label, budget)}${RECOMMENDED_SUFFIX}`;
}

function button(text: string, actionId: string, buttonValue: string, primary = false): Button {
  return {
    type: 'button',
    action_id: actionId,
    text: plainText(text, SLACK_LIMITS.buttonText),
    value: buttonValue,
    ...(primary ? { style: 'primary' as const } : {}),
  };
}

function controlsBlock(
  ask: AskRecord,
  question: AskQuestion,
  questionIndex: number,
  revision: number,
  options: AskOption[],
): ActionsBlock {
  const elements: ActionsBlock['elements'] = [];
  if (ask.approval?.calls[questionIndex]) {
    // Approve (primary), Deny (danger), and "Deny with reason…" (the typed-answer modal: a typed answer denies).
    options.forEach((option, index) => {
      const style = option.label === APPROVAL_OPTIONS.approve ? 'primary' : 'danger';
      elements.push({
        ...button(option.label, optionActionId(questionIndex, index), value(ask, questionIndex, index)),
        style,
      });
    });
    elements.push(
      button('Deny with reason…', questionActionId('other', questionIndex), value(ask, questionIndex, null)),
    );
    return { type: 'actions', block_id: blockId(ask.askId, revision, questionIndex, 'act'), elements };
  }
  const other = button('Other…', questionActionId('other', questionIndex), value(ask, questionIndex, null));
  if (question.kind === 'free_text' || options.length === 0) {
    elements.push(
      button('Answer', questionActionId('answer', questionIndex), value(ask, questionIndex, null), true),
    );
  } else if (question.multiSelect) {
    const checkboxOptions: Option[] = options.map((option, index) => ({
      text: plainText(optionButtonText(option), SLACK_LIMITS.optionText),
      value: String(index),
      ...(option.description !== null && option.description.length > 0
        ? { description: plainText(option.description, SLACK_LIMITS.optionDescription) }
        : {}),
    }));
    const checkboxes: Checkboxes = {
      type: 'checkboxes',
      action_id: questionActionId('checks', questionIndex),
      options: checkboxOptions.slice(0, SLACK_LIMITS.checkboxesOptions),
    };
    elements.push(checkboxes);
    elements.push(
      button('Submit', questionActionId('submit', questionIndex), value(ask, questionIndex, null), true),
    );
    elements.push(other);
  } else {
    for (const index of displayOrder(options, false)) {
      const option = options[index] as AskOption;
      elements.push(
        button(
          optionButtonText(option),
          optionActionId(questionIndex, index),
          value(ask, questionIndex, index),
          option.recommended,
        ),
      );
    }
    elements.push(other);
  }
  return { type: 'actions', block_id: blockId(ask.askId, revision, questionIndex, 'act'), elements };
}

function deadlineLine(
  ask: AskRecord,
  question: AskQuestion,
  deadline: number | null,
  now: number | undefined,
): string {
  const duration = formatDuration(ask.timeoutMs);
  // "in 25 min" as of this render (each update refreshes it); the date token shows each reader's own time.
  const left = deadline !== null && now !== undefined ? relativeTime(deadline, now) : duration;
  const extended = ask.extendedBy ? `, extended by ${mentionUser(ask.extendedBy)}` : '';
  const when =
    deadline === null ? `within ${duration}` : `by ${slackDateToken(deadline)} (${left}${extended})`;
  // What the timeout job will pick: the same rule it applies (no date needed for the labels).
  const picks = assumeResolution(question, ask.policy, '', 'timeout').selected;
  if (ask.approval)
    return `⏱ No decision ${when}? It will be *${picks.includes(APPROVAL_OPTIONS.approve) ? 'approved' : 'denied'}*, and the agent told so.`;
  const outcome =
    picks.length > 0
      ? `I'll assume ${listLabels(picks)} and say so.`
      : "I'll go on without an answer and say so.";
  return `⏱ No answer ${when}? ${outcome}`;
}

/** The one line that replaces a resolved question's controls (safe mrkdwn). */
export function resolutionLine(resolution: QuestionResolution, timeoutMs: number): string {
  const duration = formatDuration(timeoutMs);
  const picked = resolution.selected.length > 0 ? listLabels(resolution.selected) : null;
  switch (resolution.status) {
    case 'answered': {
      const typed =
        resolution.other !== null && resolution.other.length > 0
          ? `“${escapeAndTruncate(resolution.other, TYPED_MRKDWN_MAX)}” _(typed answer)_`
          : null;
      const what = [picked, typed].filter((part): part is string => part !== null).join(' + ');
      const verb = typed !== null ? 'answered' : 'chosen';
      return `✅ ${what.length > 0 ? what : 'Nothing selected'} — ${verb} by ${mentionUser(resolution.answeredBy)}`;
    }
    case 'assumed': {
      const votes = resolution.votes ?? [];
      const lead =
        resolution.source === 'not_shown'
          ? '⚠️ Could not be shown in Slack'
          : votes.length > 0
            ? `⏱ Not enough agreed in ${duration} (${votes
                .slice(0, WHO_MAX)
                .map((vote) => `${mentionUser(vote.by)}: ${listLabels(vote.selected) || '“…”'}`)
                .join(', ')}${votes.length > WHO_MAX ? ` and ${votes.length - WHO_MAX} more` : ''})`
            : `⏱ No answer in ${duration}`;
      return picked !== null ? `${lead}: assumed ${picked}` : `${lead}: no option assumed`;
    }
    case 'canceled':
      return `🚫 Canceled by ${mentionUser(resolution.answeredBy)}`;
    default:
      return '🔒 Closed';
  }
}

/** Most characters of a gated call's arguments shown in its approval (pretty JSON, escaped). */
const ARGUMENTS_MAX = 2500;

/** A gated call's arguments as pretty JSON (never throws). */
export function argumentsJson(input: unknown): string {
  try {
    return JSON.stringify(input ?? {}, null, 2) ?? 'null';
  } catch {
    return String(input);
  }
}

/**
 * Text as a code block: escaped for mrkdwn (so nothing in it pings or links), with backticks replaced so
 * they cannot close the block, cut at `max` characters.
 */
export function codeBlock(text: string, max: number): string {
  const safe = escapeAndTruncate(text, max).replace(/`/g, 'ˋ');
  return `\`\`\`${safe}\`\`\``;
}

/** ` — ran: ok` or ` — ran, failed: <error>` (safe mrkdwn). */
function outcomeText(outcome: ApprovalOutcome): string {
  return outcome.ok ? ' — ran: ok' : ` — ran, failed: ${escapeAndTruncate(outcome.text, OUTCOME_MAX)}`;
}

/** The line that replaces a decided approval's buttons (safe mrkdwn). */
export function approvalResolutionLine(resolution: QuestionResolution, timeoutMs: number): string {
  const approved = resolution.selected.includes(APPROVAL_OPTIONS.approve) && resolution.other === null;
  const duration = formatDuration(timeoutMs);
  switch (resolution.status) {
    case 'answered':
      if (approved) return `✅ Approved by ${mentionUser(resolution.answeredBy)}`;
      return resolution.other !== null && resolution.other.length > 0
        ? `⛔ Denied by ${mentionUser(resolution.answeredBy)}: “${escapeAndTruncate(resolution.other, TYPED_MRKDWN_MAX)}”`
        : `⛔ Denied by ${mentionUser(resolution.answeredBy)}`;
    case 'assumed':
      if (resolution.source === 'not_shown') return '⚠️ Could not be shown in Slack: denied';
      return approved
        ? `⏱ No decision in ${duration}: approved by default`
        : `⏱ No decision in ${duration}: denied`;
    case 'canceled':
      return `🚫 Canceled by ${mentionUser(resolution.answeredBy)}: not run`;
    default:
      return '🔒 Closed';
  }
}

/** For a quorum question: `· 🗳 2 of 3: *Approve* — @a, @b` per answer with votes (safe mrkdwn); else ''. */
function quorumLine(ask: AskRecord, questionIndex: number): string {
  const quorum = quorumOf(ask);
  const votes = ask.votes[questionIndex] ?? {};
  const byVote = new Map<string, string[]>();
  for (const [user, vote] of Object.entries(votes)) byVote.set(vote, [...(byVote.get(vote) ?? []), user]);
  if (quorum <= 1) return '';
  const needed = ask.approval ? 'approvals needed; one Deny denies' : 'matching answers needed';
  if (byVote.size === 0) return `\n🗳 ${quorum} ${needed}.`;
  const parts = [...byVote].map(([vote, users]) => {
    let label = vote;
    try {
      const [selected, other] = JSON.parse(vote) as [string[], string | null];
      label = [...selected, ...(other ? [`“${other}”`] : [])].join(', ');
    } catch {
      // an unreadable vote shows as it is (escaped below)
    }
    const more = users.length > WHO_MAX ? ` and ${users.length - WHO_MAX} more` : '';
    return `${users.length} of ${quorum}: *${escapeAndTruncate(label, LABEL_MRKDWN_MAX)}* — ${users.slice(0, WHO_MAX).map(mentionUser).join(', ')}${more}`;
  });
  return `\n🗳 ${parts.join('; ')}`;
}

/** The late answer shown under a changed assumption (safe mrkdwn), or ''. */
function overrideText(ask: AskRecord, questionIndex: number): string {
  const override = ask.overrides[questionIndex];
  if (!override) return '';
  const parts = override.selected.map((label) => `*${escapeAndTruncate(label, LABEL_MRKDWN_MAX)}*`);
  if (override.other) parts.push(`“${escapeAndTruncate(override.other, TYPED_MRKDWN_MAX)}”`);
  return `\n✏️ Changed to ${parts.join(', ') || '_no answer_'} by ${mentionUser(override.by)}${ask.waiter.kind === 'turn' ? '; the agent was told' : ''}`;
}

/**
 * The ask's overflow menu: snooze choices that still move the deadline, and "Ask someone else…"; a plain
 * button (same action_id and value) when only one is left (Slack wants 2 to 5 options); null when none.
 */
function menuElement(ask: AskRecord): Overflow | Button | null {
  // Asks stored before follow-ups existed have no menu.
  if (!ask.followUp) return null;
  const options: PlainTextOption[] = [];
  for (const choice of extendChoices(ask)) {
    const encoded = encodeMenuValue(ask.scope, ask.askId, { kind: 'extend', index: choice.index });
    if (encoded)
      options.push({
        text: plainText(`+${formatDuration(choice.ms)}`, SLACK_LIMITS.optionText),
        value: encoded,
      });
  }
  const delegate = encodeMenuValue(ask.scope, ask.askId, { kind: 'delegate' });
  if (delegate)
    options.push({ text: plainText('Ask someone else…', SLACK_LIMITS.optionText), value: delegate });
  const only = options.length === 1 ? options[0] : undefined;
  if (only) return button(only.text.text, MENU_ACTION_ID, only.value ?? '');
  if (options.length === 0) return null;
  return {
    type: 'overflow',
    action_id: MENU_ACTION_ID,
    options: options.slice(0, SLACK_LIMITS.overflowOptions),
  };
}

function cancelButton(ask: AskRecord): Button {
  const single = ask.questions.length === 1;
  return {
    type: 'button',
    action_id: CANCEL_ACTION_ID,
    text: plainText('Cancel', SLACK_LIMITS.buttonText),
    value: value(ask, null, null),
    confirm: {
      title: plainText(
        single ? 'Cancel this question?' : 'Cancel these questions?',
        SLACK_LIMITS.confirmTitle,
      ),
      text: plainText(
        'The agent will be told that the question was canceled. Only the person who started this turn can cancel it.',
        SLACK_LIMITS.confirmText,
      ),
      confirm: plainText('Cancel it', SLACK_LIMITS.confirmButton),
      deny: plainText('Keep it', SLACK_LIMITS.confirmButton),
      style: 'danger',
    },
  };
}

function fallbackText(ask: AskRecord): string {
  const first = ask.questions[0];
  const more = ask.questions.length > 1 ? ` (+${ask.questions.length - 1} more)` : '';
  if (ask.approval) {
    const call = ask.approval.calls[0];
    const name = call ? (call.server ? `${call.server}.${call.tool}` : call.tool) : '';
    return `${ask.status === 'open' ? 'Approval needed' : 'Decided'}: ${escapeAndTruncate(name, 200)}${more}`;
  }
  const questionText = first === undefined ? '' : escapeAndTruncate(first.question, 1000);
  const lead =
    ask.status === 'open' ? `Question from ${escapeAndTruncate(askerLabel(ask.waiter), 100)}` : 'Resolved';
  return `${lead}: ${questionText}${more}`;
}
