/**
 * The inbox: the open asks a person may answer and the open asks they started, as the Home tab view
 * (`views.publish`) and as the ephemeral reply of `/holdpoint asks`. Pure.
 *
 * Each ask is a compact row: a section (title linking to the ask message, the first open question, the
 * deadline) and, for asks to answer, one actions block with the same controls the ask message has (the
 * option buttons or "Answer…" of its first open question, "Other…", the snooze/delegate menu) plus an "Open
 * thread" link. The controls carry the ask message's action_ids and values, so `handlers/actions.ts` treats a
 * click here like a click in the thread; their block_ids name the ask ({@link inboxBlockId}).
 *
 * Bounds: at most {@link INBOX_ROW_CAPS} rows per list (newest first; the rest are counted), so a Home
 * view stays within 100 blocks and a message within 50 (Slack blocks reference).
 */
import type { ActionsBlock, Button, KnownBlock, Overflow, PlainTextOption } from '@slack/types';
import { askRevision } from '../../asks/ask-revision.js';
import { extendChoices, waitingOn } from '../../asks/follow-up.js';
import { APPROVAL_OPTIONS, type AskRecord, askerLabel } from '../../asks/types.js';
import { parseMessageRef } from '../message-ref.js';
import { mentionUser } from '../mrkdwn.js';
import {
  encodeActionValue,
  encodeMenuValue,
  HOME_VIEW_CALLBACK_ID,
  inboxBlockId,
  MENU_ACTION_ID,
  OPEN_THREAD_ACTION_ID,
  optionActionId,
  questionActionId,
} from './action-ids.js';
import { formatDuration } from './format-duration.js';
import { SLACK_LIMITS } from './limits.js';
import { mentionList, relativeTime, slackDateToken } from './render-ask-notice.js';
import { mrkdwnText, plainText } from './text-objects.js';
import { escapeAndTruncate } from './truncate.js';

/** Where the inbox is shown: the Home tab (≤ 100 blocks) or an ephemeral message (≤ 50 blocks). */
export type InboxSurface = 'home' | 'message';

/**
 * Rows shown per list. Home: 2 lists × (header + 20 rows × 2 blocks + a "more" line) + 3 = 89 ≤ 100.
 * Message: 2 × (1 + 10 × 2 + 1) + 3 = 47 ≤ 50.
 */
export const INBOX_ROW_CAPS: Readonly<Record<InboxSurface, number>> = { home: 20, message: 10 };

/** Most characters of a question shown in a row (Slack allows 3000 per section; a row stays short). */
const QUESTION_MAX = 300;
/** Most characters of a title (question header) in a row. */
const TITLE_MAX = 80;

/** What the inbox shows. Both lists are newest first and may be longer than the caps (the rest are counted). */
export interface InboxContent {
  /** Open asks the person may answer. */
  toAnswer: AskRecord[];
  /** Open asks the person started (the requester). */
  started: AskRecord[];
  /** Epoch ms the inbox was read at. */
  now: number;
  /**
   * The workspace's URL from `auth.test` (`https://<team>.slack.com/`), for links to messages; null: links
   * open the channel through `https://slack.com/app_redirect`.
   */
  workspaceUrl: string | null;
}

/** A rendered inbox: the notification text and the blocks. */
export interface RenderedInbox {
  text: string;
  blocks: KnownBlock[];
}

/** The Home tab view of {@link renderInbox} (`views.publish`'s `view`). */
export interface HomeView {
  type: 'home';
  callback_id: string;
  blocks: KnownBlock[];
}

const CHANNEL_ID = /^[A-Z0-9]{2,40}$/;
const SLACK_TS = /^\d{1,12}\.\d{1,8}$/;

/**
 * The URL of the ask's message (in its thread when it is a reply): `<workspace>archives/<C>/p<ts>` with
 * `thread_ts` and `cid` for a reply; the channel through `app_redirect` without a workspace URL or a message.
 * Built from ids only (checked), never from text.
 */
export function askLink(
  ask: Pick<AskRecord, 'messageRef' | 'conversation'>,
  workspaceUrl: string | null,
): string {
  const ref = parseMessageRef(ask.messageRef);
  const channel = ref?.channel ?? ask.conversation.channel;
  if (!CHANNEL_ID.test(channel)) return 'https://slack.com/';
  const base = workspaceUrl && /^https:\/\/[a-z0-9.-]+\/$/i.test(workspaceUrl) ? workspaceUrl : null;
  if (!base || !ref || !SLACK_TS.test(ref.ts)) return `https://slack.com/app_redirect?channel=${channel}`;
  const threadTs = ask.conversation.threadTs;
  const inThread = SLACK_TS.test(threadTs) && threadTs !== ref.ts;
  return `${base}archives/${channel}/p${ref.ts.replace('.', '')}${inThread ? `?thread_ts=${threadTs}&cid=${channel}` : ''}`;
}

/** The inbox as blocks for `surface`, within its block limit. */
export function renderInbox(content: InboxContent, surface: InboxSurface): RenderedInbox {
  const cap = INBOX_ROW_CAPS[surface];
  const blocks: KnownBlock[] = [];
  blocks.push(listHeader('hp.inbox.h.answer', 'Waiting for you', content.toAnswer.length));
  if (content.toAnswer.length === 0)
    blocks.push(section('hp.inbox.e.answer', '_Nothing is waiting for you._'));
  for (const ask of content.toAnswer.slice(0, cap)) blocks.push(...answerRow(ask, content));
  blocks.push(...moreLine('hp.inbox.m.answer', content.toAnswer.length, cap));
  blocks.push({ type: 'divider', block_id: 'hp.inbox.d' });
  blocks.push(listHeader('hp.inbox.h.started', 'Started by you', content.started.length));
  if (content.started.length === 0)
    blocks.push(section('hp.inbox.e.started', '_No open asks that you started._'));
  for (const ask of content.started.slice(0, cap)) blocks.push(startedRow(ask, content));
  blocks.push(...moreLine('hp.inbox.m.started', content.started.length, cap));
  blocks.push({
    type: 'context',
    block_id: 'hp.inbox.f',
    elements: [
      mrkdwnText(
        `Updated ${slackDateToken(content.now, '{time}')}. Answer here or in the thread; \`/holdpoint asks\` shows this anywhere.`,
        SLACK_LIMITS.textObject,
      ),
    ],
  });
  return { text: summaryText(content), blocks };
}

/** The Home tab view: {@link renderInbox} for `home`, callback_id {@link HOME_VIEW_CALLBACK_ID}. */
export function renderHomeView(content: InboxContent): HomeView {
  return { type: 'home', callback_id: HOME_VIEW_CALLBACK_ID, blocks: renderInbox(content, 'home').blocks };
}

/** "2 asks wait for you; you started 1 open ask." */
export function summaryText(content: Pick<InboxContent, 'toAnswer' | 'started'>): string {
  const wait = content.toAnswer.length;
  const started = content.started.length;
  return `${wait === 0 ? 'Nothing waits' : `${wait} ${wait === 1 ? 'ask waits' : 'asks wait'}`} for you; you started ${started} open ${started === 1 ? 'ask' : 'asks'}.`;
}

function listHeader(blockId: string, title: string, count: number): KnownBlock {
  return {
    type: 'header',
    block_id: blockId,
    text: plainText(`${title} (${count})`, SLACK_LIMITS.headerText),
  };
}

function section(blockId: string, text: string): KnownBlock {
  return { type: 'section', block_id: blockId, text: mrkdwnText(text, SLACK_LIMITS.sectionText) };
}

function moreLine(blockId: string, total: number, cap: number): KnownBlock[] {
  if (total <= cap) return [];
  return [
    {
      type: 'context',
      block_id: blockId,
      elements: [
        mrkdwnText(`…and ${total - cap} more (the ${cap} newest are shown).`, SLACK_LIMITS.textObject),
      ],
    },
  ];
}

/** Index of the first question without a resolution (the first question when all have one). */
function firstOpenQuestion(ask: AskRecord): number {
  return Math.max(0, ask.resolutions.indexOf(null));
}

function title(ask: AskRecord, questionIndex: number): string {
  if (ask.approval) {
    const call = ask.approval.calls[questionIndex];
    const name = call ? (call.server ? `${call.server}.${call.tool}` : call.tool) : 'a tool call';
    return `Approve ${escapeAndTruncate(name, TITLE_MAX)}?`;
  }
  const question = ask.questions[questionIndex];
  return escapeAndTruncate(question?.header ?? question?.question ?? 'Question', TITLE_MAX);
}

/** The row's text: linked title, the open question, how many more, and the deadline line. */
function rowText(ask: AskRecord, content: InboxContent, extra: string): string {
  const q = firstOpenQuestion(ask);
  const question = ask.questions[q];
  const open = ask.resolutions.filter((resolution) => resolution === null).length;
  const more = open > 1 ? ` _(+${open - 1} more ${open - 1 === 1 ? 'question' : 'questions'})_` : '';
  const lines = [
    `*<${askLink(ask, content.workspaceUrl)}|${title(ask, q)}>*`,
    question && !ask.approval
      ? `${escapeAndTruncate(question.question, QUESTION_MAX)}${more}`
      : // An approval is decided where its arguments are shown (the thread), never from a one-line row.
        `Review the call and its arguments in the thread to approve or deny it.${more}`,
    `${deadlineText(ask, content.now)} · asked by ${escapeAndTruncate(askerLabel(ask.waiter), 60)}${
      ask.waiter.kind === 'turn' ? ` for ${mentionUser(ask.requestedBy)}` : ''
    } in <#${CHANNEL_ID.test(ask.conversation.channel) ? ask.conversation.channel : 'C0'}>`,
    extra,
  ];
  return lines.filter((line) => line.length > 0).join('\n');
}

function deadlineText(ask: AskRecord, now: number): string {
  if (ask.deadline === null) return `Due ${formatDuration(ask.timeoutMs)} after it is shown`;
  return `Due ${slackDateToken(ask.deadline)} (${relativeTime(ask.deadline, now)})`;
}

function answerRow(ask: AskRecord, content: InboxContent): KnownBlock[] {
  const revision = askRevision(ask);
  return [
    section(inboxBlockId(ask.askId, revision, 'a'), rowText(ask, content, '')),
    {
      type: 'actions',
      block_id: inboxBlockId(ask.askId, revision, 'b'),
      elements: answerControls(ask, content),
    } satisfies ActionsBlock,
  ];
}

function startedRow(ask: AskRecord, content: InboxContent): KnownBlock {
  const waiting = mentionList(waitingOn(ask, content.now));
  const answered = ask.resolutions.filter((resolution) => resolution !== null).length;
  const status = `${answered} of ${ask.questions.length} answered${waiting ? ` · waiting on ${waiting}` : ''}`;
  return {
    type: 'section',
    block_id: inboxBlockId(ask.askId, askRevision(ask), 's'),
    text: mrkdwnText(rowText(ask, content, status), SLACK_LIMITS.sectionText),
    accessory: openThreadButton(ask, content),
  };
}

function button(text: string, actionId: string, value: string): Button {
  return { type: 'button', action_id: actionId, text: plainText(text, SLACK_LIMITS.buttonText), value };
}

function openThreadButton(ask: AskRecord, content: InboxContent): Button {
  return {
    type: 'button',
    action_id: OPEN_THREAD_ACTION_ID,
    text: plainText('Open thread', SLACK_LIMITS.buttonText),
    url: askLink(ask, content.workspaceUrl),
  };
}

/**
 * The controls of the ask's first open question, as the ask message has them: option buttons (approval:
 * Approve / Deny / "Deny with reason…"), "Other…", or "Answer…" for free text; a multi-select question is
 * answered in the thread (its checkboxes need the message's state). Then the menu and "Open thread".
 */
function answerControls(ask: AskRecord, content: InboxContent): ActionsBlock['elements'] {
  const q = firstOpenQuestion(ask);
  const question = ask.questions[q];
  const elements: ActionsBlock['elements'] = [];
  const ref = (o: number | null) =>
    encodeActionValue({ turnId: ask.scope, askId: ask.askId, questionIndex: q, optionIndex: o });
  // No Approve or Deny here: the row does not show the call's arguments, so an approval is decided in the
  // thread, where its message shows them (and "Show all").
  if (question && ask.resolutions[q] === null && !ask.approval) {
    const options = question.options ?? [];
    if (question.kind === 'free_text' || options.length === 0) {
      elements.push({ ...button('Answer…', questionActionId('answer', q), ref(null)), style: 'primary' });
    } else if (!question.multiSelect) {
      options.forEach((option, index) => {
        const approval = ask.approval ? option.label : null;
        const text = option.recommended && !approval ? `★ ${option.label}` : option.label;
        const element = button(text, optionActionId(q, index), ref(index));
        if (approval === APPROVAL_OPTIONS.approve) element.style = 'primary';
        else if (approval === APPROVAL_OPTIONS.deny) element.style = 'danger';
        elements.push(element);
      });
      elements.push(
        button(ask.approval ? 'Deny with reason…' : 'Other…', questionActionId('other', q), ref(null)),
      );
    }
  }
  const menu = menuElement(ask);
  if (menu) elements.push(menu);
  elements.push(openThreadButton(ask, content));
  return elements;
}

/** Snooze choices and "Ask someone else…" (as the ask message offers them); a button when only one is left. */
function menuElement(ask: AskRecord): Overflow | Button | null {
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
