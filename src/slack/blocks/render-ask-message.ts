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
  Overflow,
  PlainTextOption,
  RadioButtons,
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
import { escapeMrkdwn, mentionGroup, mentionUser, neutralizePlainText } from '../mrkdwn.js';
import {
  blockId,
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

/** Said once after a recommended option's label, wherever the label is shown: `<label> (recommended)`. */
export const RECOMMENDED_SUFFIX = ' (recommended)';

/** Escaped-label budget inside mrkdwn lines (48 code points escaped is at most 240). */
const LABEL_MRKDWN_MAX = 300;
/** Escaped description budget inside an option section (200 code points escaped is at most 1000). */
const DESCRIPTION_MRKDWN_MAX = 1200;
/** Escaped question budget (200 code points escaped is at most 1000). */
const QUESTION_MRKDWN_MAX = 1200;
/** Escaped purpose budget (200 code points escaped is at most 1000). */
const PURPOSE_MRKDWN_MAX = 1200;
/** Budget for typed (Other…/free-text) answers shown in the message. */
const TYPED_MRKDWN_MAX = 1500;

/**
 * How the options of an open choice question are shown (chosen by measuring, see the README):
 * - `buttons`: no option has a description: one button per option (the recommended first and green), one
 *   click answers.
 * - `sections`: a one-question ask whose options have descriptions: a section per option, its label in
 *   bold over its whole description, and a "Choose" button beside it; one click answers.
 * - `radio`: an ask of several questions whose options have descriptions: radio buttons with the
 *   description under each label (cut at Slack's 75) and one Submit, two blocks per question, so that
 *   three questions stay within ten blocks.
 * - `checkboxes`: a multi-select question: checkboxes with descriptions and one Submit.
 */
export type OptionLayout = 'buttons' | 'sections' | 'radio' | 'checkboxes';

/** The layout of question `question`'s options in an ask of `questionCount` questions. Pure. */
export function optionLayout(question: AskQuestion, questionCount: number): OptionLayout {
  if (question.multiSelect) return 'checkboxes';
  const described = (question.options ?? []).some(
    (option) => option.description !== null && option.description.length > 0,
  );
  if (!described) return 'buttons';
  return questionCount === 1 ? 'sections' : 'radio';
}

/**
 * Renders the one Slack message of an ask.
 *
 * While the ask is open: for each question its text (a header block for a one-question ask with a header;
 * otherwise `*1/3 · Header*` in the question's section), its purpose as an italic line in the same
 * section, and its controls in the {@link OptionLayout} of the question (plus "Other…" for choice
 * questions, "Answer" for free text); dividers between questions; then one ask-wide context line: who
 * may answer, the quorum, and when the ask resolves by itself and to what (every option the timeout will
 * select, per question; with a Slack `<!date^…>` token built by the bot). The rare actions (snooze, "Ask
 * someone else…", "Cancel…") are one overflow menu beside the first question, shown to everyone and
 * checked on click. Each option label is shown once (besides the timeout line), and "recommended" once.
 * A resolved question keeps its question and shows one line saying how it ended.
 *
 * @param ask the ask as stored; `deadline` (epoch ms) may be null before the ask was first shown, then
 *   `options.now + timeoutMs` is used, or the text speaks of the duration only.
 * @throws StateError only when the ask's ids cannot be encoded (`|` in an id, ids over 500 characters).
 */
export function renderAskMessage(ask: AskRecord, options: RenderAskMessageOptions = {}): RenderedAskMessage {
  const revision = askRevision(ask);
  const deadline = ask.deadline ?? (options.now === undefined ? null : options.now + ask.timeoutMs);
  const blocks: KnownBlock[] = [];
  const open = ask.status === 'open';
  // A program's intro line, escaped like model text.
  if (ask.intro)
    blocks.push(section(ask, revision, 'x', 'intro', escapeAndTruncate(ask.intro, SLACK_LIMITS.sectionText)));
  // The rare actions, beside the first question while the ask is open.
  const menu = open ? menuElement({ ...ask, deadline, shownAt: ask.shownAt ?? options.now ?? null }) : null;

  ask.questions.forEach((question, questionIndex) => {
    if (questionIndex > 0)
      blocks.push({ type: 'divider', block_id: blockId(ask.askId, revision, questionIndex, 'div') });
    const resolution = ask.resolutions[questionIndex] ?? null;
    const head = questionHeadBlocks(ask, question, questionIndex, revision, resolution === null && open);
    const questionSection = head.at(-1) as SectionBlock;
    if (questionIndex === 0 && menu) questionSection.accessory = menu;
    blocks.push(...head);
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
    } else if (!open) {
      blocks.push(section(ask, revision, questionIndex, 'done', '🔒 Closed without an answer'));
    } else {
      blocks.push(...controlBlocks(ask, question, questionIndex, revision));
    }
  });

  // One line for the whole ask: who may answer, the quorum, and what a timeout will do.
  if (open) {
    const lines = [
      whoMayAnswerLine(ask, options.now),
      ...quorumLines(ask),
      deadlineLine(ask, deadline, options.now),
      // An open free-text question of a turn's ask can be answered by a thread reply: say how. (A program's
      // ask has no turn holding its thread, so a reply there is no answer.)
      ask.waiter.kind === 'turn' && replyAnswerableQuestion(ask) >= 0 ? replyHintLine() : null,
    ].filter((line): line is string => line !== null);
    blocks.push(context(ask, revision, 'x', 'due', lines.join('\n')));
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

/**
 * The question's own blocks, its section last: a header block for a one-question ask with a header; the
 * question text (led by `*1/3 · Header*` in an ask of several); the purpose as an italic line while the
 * question is open.
 */
function questionHeadBlocks(
  ask: AskRecord,
  question: AskQuestion,
  questionIndex: number,
  revision: number,
  showPurpose: boolean,
): KnownBlock[] {
  const blocks: KnownBlock[] = [];
  const count = ask.questions.length;
  const header = question.header !== null && question.header.trim().length > 0 ? question.header : null;
  if (count === 1 && header !== null) {
    blocks.push({
      type: 'header',
      block_id: blockId(ask.askId, revision, questionIndex, 'head'),
      text: plainText(header, SLACK_LIMITS.headerText),
    });
  }
  const lead =
    count > 1
      ? `*${questionIndex + 1}/${count}${header !== null ? ` · ${escapeAndTruncate(header, LABEL_MRKDWN_MAX)}` : ''}*\n`
      : '';
  const purpose =
    showPurpose && question.purpose !== null && question.purpose.trim().length > 0
      ? `\n_Why:_ ${escapeAndTruncate(question.purpose, PURPOSE_MRKDWN_MAX)}`
      : '';
  const text = `${lead}${escapeAndTruncate(question.question, QUESTION_MRKDWN_MAX)}${purpose}`;
  blocks.push(section(ask, revision, questionIndex, 'q', text));
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

/** `a`, `a and b`, `a, b and c`. */
function andJoin(parts: string[]): string {
  const last = parts.at(-1);
  if (last === undefined) return '';
  return parts.length > 1 ? `${parts.slice(0, -1).join(', ')} and ${last}` : last;
}

/** `*A*`, `*A* and *B*`, `*A*, *B* and *C*`: every label, in order (safe mrkdwn). */
function andLabels(labels: string[]): string {
  return andJoin(labels.map(bold));
}

function hasDescription(option: AskOption): boolean {
  return option.description !== null && option.description.length > 0;
}

/** The open question's controls, in its {@link OptionLayout}; each option's label once. */
function controlBlocks(
  ask: AskRecord,
  question: AskQuestion,
  questionIndex: number,
  revision: number,
): KnownBlock[] {
  const options = question.kind === 'choice' ? (question.options ?? []) : [];
  const actions = (elements: ActionsBlock['elements']): ActionsBlock => ({
    type: 'actions',
    block_id: blockId(ask.askId, revision, questionIndex, 'act'),
    elements,
  });
  if (ask.approval?.calls[questionIndex]) return [actions(approvalElements(ask, questionIndex, options))];
  const other = button('Other…', questionActionId('other', questionIndex), value(ask, questionIndex, null));
  if (question.kind === 'free_text' || options.length === 0)
    return [
      actions([
        button('Answer', questionActionId('answer', questionIndex), value(ask, questionIndex, null), true),
      ]),
    ];
  const submit = button(
    'Submit',
    questionActionId('submit', questionIndex),
    value(ask, questionIndex, null),
    true,
  );
  switch (optionLayout(question, ask.questions.length)) {
    case 'checkboxes': {
      const checkboxes: Checkboxes = {
        type: 'checkboxes',
        action_id: questionActionId('checks', questionIndex),
        options: options.map((option, index) => listOption(option, index)),
      };
      return [actions([checkboxes, submit, other])];
    }
    case 'radio': {
      const radio: RadioButtons = {
        type: 'radio_buttons',
        action_id: questionActionId('radio', questionIndex),
        options: displayOrder(options, false).map((index) => listOption(options[index] as AskOption, index)),
      };
      return [actions([radio, submit, other])];
    }
    case 'sections': {
      const blocks: KnownBlock[] = displayOrder(options, false).map((index) => {
        const option = options[index] as AskOption;
        const recommended = option.recommended ? ` _${RECOMMENDED_SUFFIX.trim()}_` : '';
        const description = hasDescription(option)
          ? `\n${escapeAndTruncate(option.description ?? '', DESCRIPTION_MRKDWN_MAX)}`
          : '';
        const row = section(
          ask,
          revision,
          questionIndex,
          `o${index}`,
          `${bold(option.label)}${recommended}${description}`,
        );
        row.accessory = {
          ...button(
            'Choose',
            optionActionId(questionIndex, index),
            value(ask, questionIndex, index),
            option.recommended,
          ),
          accessibility_label: truncateText(
            neutralizePlainText(`Choose ${option.label}`),
            SLACK_LIMITS.buttonAccessibilityLabel,
          ),
        };
        return row;
      });
      return [...blocks, actions([other])];
    }
    default: {
      const buttons = displayOrder(options, false).map((index) => {
        const option = options[index] as AskOption;
        return button(
          optionButtonText(option),
          optionActionId(questionIndex, index),
          value(ask, questionIndex, index),
          option.recommended,
        );
      });
      return [actions([...buttons, other])];
    }
  }
}

/** A checkbox or radio option: the label (with "(recommended)"), its description below, the index as value. */
function listOption(option: AskOption, index: number): PlainTextOption {
  return {
    text: plainText(optionButtonText(option), SLACK_LIMITS.optionText),
    value: String(index),
    ...(hasDescription(option)
      ? { description: plainText(option.description ?? '', SLACK_LIMITS.optionDescription) }
      : {}),
  };
}

/** Approve (primary), Deny (danger), and "Deny with reason…" (the typed-answer modal: a typed answer denies). */
function approvalElements(
  ask: AskRecord,
  questionIndex: number,
  options: AskOption[],
): ActionsBlock['elements'] {
  const elements: ActionsBlock['elements'] = options.map((option, index) => ({
    ...button(option.label, optionActionId(questionIndex, index), value(ask, questionIndex, index)),
    style: option.label === APPROVAL_OPTIONS.approve ? ('primary' as const) : ('danger' as const),
  }));
  elements.push(
    button('Deny with reason…', questionActionId('other', questionIndex), value(ask, questionIndex, null)),
  );
  return elements;
}

function value(ask: AskRecord, questionIndex: number | null, optionIndex: number | null): string {
  return encodeActionValue({ turnId: ask.scope, askId: ask.askId, questionIndex, optionIndex });
}

/** The text of an option's button or list item: the label, then `(recommended)`, ≤ 75 UTF-16 code units. */
export function optionButtonText(option: Pick<AskOption, 'label' | 'recommended'>): string {
  if (!option.recommended) return truncateText(option.label, SLACK_LIMITS.buttonText);
  const budget = SLACK_LIMITS.buttonText - RECOMMENDED_SUFFIX.length;
  return `${truncateText(option.label, budget)}${RECOMMENDED_SUFFIX}`;
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

/**
 * The ask's one deadline line: by when, and what the timeout will then do for every open question, by
 * the same rule the timeout job applies ({@link assumeResolution}): every option it will select.
 */
function deadlineLine(ask: AskRecord, deadline: number | null, now: number | undefined): string {
  const duration = formatDuration(ask.timeoutMs);
  // "in 25 min" as of this render (each update refreshes it); the date token shows each reader's own time.
  const left = deadline !== null && now !== undefined ? relativeTime(deadline, now) : duration;
  const extended = ask.extendedBy ? `, extended by ${mentionUser(ask.extendedBy)}` : '';
  const when =
    deadline === null ? `within ${duration}` : `by ${slackDateToken(deadline)} (${left}${extended})`;
  const several = ask.questions.length > 1;
  const pending = ask.questions.flatMap((question, index) =>
    ask.resolutions[index]
      ? []
      : [{ number: index + 1, picks: assumeResolution(question, ask.policy, '', 'timeout').selected }],
  );
  if (ask.approval) {
    const verdict = (picks: string[]) => (picks.includes(APPROVAL_OPTIONS.approve) ? 'approved' : 'denied');
    const verdicts = new Set(pending.map((item) => verdict(item.picks)));
    const outcome =
      verdicts.size <= 1
        ? `${pending.length > 1 ? 'They' : 'It'} will be *${[...verdicts][0] ?? 'denied'}*`
        : pending.map((item) => `${item.number} will be *${verdict(item.picks)}*`).join(', ');
    return `⏱ No decision ${when}? ${outcome}, and the agent told so.`;
  }
  if (pending.every((item) => item.picks.length === 0))
    return `⏱ No answer ${when}? I'll go on without ${pending.length > 1 ? 'answers' : 'an answer'} and say so.`;
  const count = ask.questions.length;
  const outcome = several
    ? `${andJoin(
        // What will be assumed first, then the questions left without an answer.
        [
          ...pending.filter((item) => item.picks.length > 0),
          ...pending.filter((item) => item.picks.length === 0),
        ].map((item) =>
          item.picks.length > 0
            ? `${andLabels(item.picks)} for ${item.number}/${count}`
            : `no answer for ${item.number}/${count}`,
        ),
      )},`
    : andLabels(pending[0]?.picks ?? []);
  return `⏱ No answer ${when}? I'll assume ${outcome} and say so.`;
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

/**
 * For a quorum ask: `🗳 2 matching answers needed.` once, or the votes so far per open question
 * (`🗳 2/3: 1 of 2: *Approve* — @a`) (safe mrkdwn); none without a quorum.
 */
function quorumLines(ask: AskRecord): string[] {
  const quorum = quorumOf(ask);
  if (quorum <= 1) return [];
  const needed = ask.approval ? 'approvals needed; one Deny denies' : 'matching answers needed';
  const lines: string[] = [];
  ask.questions.forEach((_, questionIndex) => {
    if (ask.resolutions[questionIndex]) return;
    const votes = ask.votes[questionIndex] ?? {};
    const byVote = new Map<string, string[]>();
    for (const [user, vote] of Object.entries(votes)) byVote.set(vote, [...(byVote.get(vote) ?? []), user]);
    if (byVote.size === 0) return;
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
    const number = ask.questions.length > 1 ? `${questionIndex + 1}/${ask.questions.length}: ` : '';
    lines.push(`🗳 ${number}${parts.join('; ')}`);
  });
  return [`🗳 ${quorum} ${needed}.`, ...lines];
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
 * The ask's overflow menu, shown to everyone and checked on click: snooze choices that still move the
 * deadline (as many as fit), "Ask someone else…" (asks with follow-ups) and "Cancel…" (an agent's turn; a
 * program cancels its own ask through the API). A plain button (same action_id and value) when only one
 * is left (Slack wants 2 to 5 options); null when none.
 */
function menuElement(ask: AskRecord): Overflow | Button | null {
  const tail: PlainTextOption[] = [];
  // Asks stored before follow-ups existed have no snooze and no delegation.
  const delegate = ask.followUp ? encodeMenuValue(ask.scope, ask.askId, { kind: 'delegate' }) : null;
  if (delegate) tail.push({ text: plainText('Ask someone else…', SLACK_LIMITS.optionText), value: delegate });
  const cancel = cancelableInConversation(ask.waiter)
    ? encodeMenuValue(ask.scope, ask.askId, { kind: 'cancel' })
    : null;
  if (cancel) tail.push({ text: plainText('Cancel…', SLACK_LIMITS.optionText), value: cancel });
  const snoozes: PlainTextOption[] = [];
  for (const choice of ask.followUp ? extendChoices(ask) : []) {
    const encoded = encodeMenuValue(ask.scope, ask.askId, { kind: 'extend', index: choice.index });
    if (encoded)
      snoozes.push({
        text: plainText(`+${formatDuration(choice.ms)}`, SLACK_LIMITS.optionText),
        value: encoded,
      });
  }
  const options = [...snoozes.slice(0, SLACK_LIMITS.overflowOptions - tail.length), ...tail];
  const only = options.length === 1 ? options[0] : undefined;
  if (only) return button(only.text.text, MENU_ACTION_ID, only.value ?? '');
  if (options.length === 0) return null;
  return { type: 'overflow', action_id: MENU_ACTION_ID, options };
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
