/**
 * The id scheme of holdpoint's Slack controls. Ids carry ids only, never model text.
 *
 * action_id (unique within its block, ≤ 255, Slack button element docs):
 * - `hp.option.<q>.<o>`: a single-select option button.
 * - `hp.other.<q>`: "Other…", opens the answer modal.
 * - `hp.answer.<q>`: "Answer" of a free-text question, opens the answer modal.
 * - `hp.checks.<q>`: the checkboxes of a multi-select question (changes are only acked).
 * - `hp.radio.<q>`: the radio buttons of a single-select question shown as a list (changes are only acked).
 * - `hp.submit.<q>`: "Submit" of a multi-select question or of a radio list (the selection is read from
 *   `state.values`).
 * - `hp.args.<q>`: "Show all" of an approval's arguments cut in the message (opens a modal).
 * - `hp.cancel`: the requester cancels the whole ask (messages posted before Cancel moved into the menu).
 * - `hp.more`: the ask's overflow menu; each option's value is a {@link encodeMenuValue} (snooze choices,
 *   "Ask someone else…", "Cancel…").
 * - `hp.change.<q>`: "Change answer" of a question resolved by assumption (opens a modal).
 * - `hp.reply.use` / `hp.reply.dismiss`: Use / Not an answer on the ephemeral offering a thread reply as a
 *   free-text answer; value `r1|<channel>|<replyTs>` ({@link encodeReplyValue}).
 *
 * Element `value` (≤ 2000): `v1|<turnId>|<askId>|<q>|<o>`, `-` where an index does not apply.
 * Checkbox and radio option values: the option index as a decimal string.
 * block_id: `hp.<askIdShort>.r<revision>.<q>.<part>`, unique per message and per render revision.
 *
 * Inbox (the Home tab and `/holdpoint asks`): the same controls, in blocks whose block_id is
 * `hp.inbox.<askIdShort>.r<revision>.<part>` ({@link inboxBlockId}); a click counts only when its block names
 * the ask its value names. `hp.open` is the "Open thread" link button (acked, nothing else). The Home view's
 * callback_id is `hp.home`.
 *
 * Modal: callback_id `hp.modal.answer`, input block_id `hp.answer`, action_id `hp.answer.text`,
 * private_metadata JSON `{v:1, turnId, askId, q, channel, messageTs}`; the Cancel confirmation modal
 * `hp.modal.cancel` carries the same metadata. Pure.
 */
import { z } from 'zod';
import { ASK_LIMITS } from '../../ask/types.js';
import { StateError } from '../../errors.js';
import { SLACK_LIMITS } from './limits.js';

/** Matches every holdpoint action_id (use as one Bolt `app.action({ action_id })` constraint). */
export const ACTION_ID_PATTERN = /^hp\./;
/** Single-select option buttons: `hp.option.<q>.<o>`. */
export const OPTION_ACTION_ID_PATTERN = /^hp\.option\.\d+\.\d+$/;
/** "Other…" buttons: `hp.other.<q>`. */
export const OTHER_ACTION_ID_PATTERN = /^hp\.other\.\d+$/;
/** Free-text "Answer" buttons: `hp.answer.<q>` (not the modal input `hp.answer.text`). */
export const ANSWER_ACTION_ID_PATTERN = /^hp\.answer\.\d+$/;
/** Buttons that open the answer modal: `hp.other.<q>` and `hp.answer.<q>`. */
export const OPENS_MODAL_ACTION_ID_PATTERN = /^hp\.(?:other|answer)\.\d+$/;
/** Checkboxes of a multi-select question: `hp.checks.<q>` (ack only). */
export const CHECKS_ACTION_ID_PATTERN = /^hp\.checks\.\d+$/;
/** Radio buttons of a single-select question shown as a list: `hp.radio.<q>` (ack only). */
export const RADIO_ACTION_ID_PATTERN = /^hp\.radio\.\d+$/;
/** Submit buttons of multi-select questions: `hp.submit.<q>`. */
export const SUBMIT_ACTION_ID_PATTERN = /^hp\.submit\.\d+$/;
/** The requester's cancel button of messages posted before "Cancel…" moved into the menu (still decoded). */
export const CANCEL_ACTION_ID = 'hp.cancel';
/** callback_id of the "Cancel…" confirmation modal (metadata as {@link ModalMetadata}, `q` 0). */
export const CANCEL_MODAL_CALLBACK_ID = 'hp.modal.cancel';
/** The ask's overflow menu (snooze, "Ask someone else…", "Cancel…"). */
export const MENU_ACTION_ID = 'hp.more';
/** callback_id of the "Ask someone else…" modal; its user picker: block `hp.delegate`, action `hp.delegate.user`. */
export const DELEGATE_MODAL_CALLBACK_ID = 'hp.modal.delegate';
export const DELEGATE_INPUT_BLOCK_ID = 'hp.delegate';
export const DELEGATE_INPUT_ACTION_ID = 'hp.delegate.user';
/** callback_id of the "Change answer" modal; its input: block `hp.change`, action `hp.change.choice` (radio) or `hp.change.text`. */
export const CHANGE_MODAL_CALLBACK_ID = 'hp.modal.change';
export const CHANGE_INPUT_BLOCK_ID = 'hp.change';
export const CHANGE_CHOICE_ACTION_ID = 'hp.change.choice';
export const CHANGE_TEXT_ACTION_ID = 'hp.change.text';

/**
 * What an overflow menu option does: snooze by the configured choice `index`, open "Ask someone else…", or
 * open the "Cancel…" confirmation (the requester only; checked on click and again on submit).
 */
export type MenuItem = { kind: 'extend'; index: number } | { kind: 'delegate' } | { kind: 'cancel' };

const MENU_ITEM_CODES = { delegate: 'd', cancel: 'c' } as const;

/** Version tag of {@link encodeMenuValue} values. */
export const MENU_VALUE_VERSION = 'm1';

/**
 * An overflow option's value: `m1|<turnId>|<askId>|x<i>` (snooze choice i), `…|d` (delegate) or `…|c` (cancel).
 * Overflow option values are at most 150 characters (Block Kit option object).
 * @returns null when it would be longer than that (the menu is then left out)
 */
export function encodeMenuValue(turnId: string, askId: string, item: MenuItem): string | null {
  if (turnId.includes('|') || askId.includes('|')) return null;
  const code = item.kind === 'extend' ? `x${item.index}` : MENU_ITEM_CODES[item.kind];
  const text = [MENU_VALUE_VERSION, turnId, askId, code].join('|');
  return text.length <= SLACK_LIMITS.optionValue ? text : null;
}

/** Parses {@link encodeMenuValue}. Null for anything else. Never throws. */
export function parseMenuValue(value: unknown): { turnId: string; askId: string; item: MenuItem } | null {
  if (typeof value !== 'string' || value.length > SLACK_LIMITS.optionValue) return null;
  const parts = value.split('|');
  if (parts.length !== 4) return null;
  const [version, turnId, askId, item] = parts as [string, string, string, string];
  if (version !== MENU_VALUE_VERSION || !turnId || !askId) return null;
  if (item === 'd') return { turnId, askId, item: { kind: 'delegate' } };
  if (item === 'c') return { turnId, askId, item: { kind: 'cancel' } };
  const match = /^x([0-4])$/.exec(item);
  return match ? { turnId, askId, item: { kind: 'extend', index: Number(match[1]) } } : null;
}
/** callback_id of the Home tab view holdpoint publishes. */
export const HOME_VIEW_CALLBACK_ID = 'hp.home';
/** action_id of the inbox's "Open thread" link button (a URL button still sends an action: acked only). */
export const OPEN_THREAD_ACTION_ID = 'hp.open';

const INBOX_BLOCK_PREFIX = 'hp.inbox.';

/**
 * A block_id of an inbox row: `hp.inbox.<askIdShort>.r<revision>.<part>` (≤ 255: 40 + a small integer + a
 * short part name). The revision makes a re-published view's blocks new, as Slack asks of updates.
 */
export function inboxBlockId(askId: string, revision: number, part: string): string {
  return `${INBOX_BLOCK_PREFIX}${shortAskId(askId)}.r${revision}.${part}`;
}

/** The short ask id an inbox block_id names ({@link inboxBlockId}); null for any other block_id. Never throws. */
export function inboxAskOfBlockId(blockId: unknown): string | null {
  if (typeof blockId !== 'string' || !blockId.startsWith(INBOX_BLOCK_PREFIX)) return null;
  const match = /^([A-Za-z0-9_-]{1,40})\.r\d+\.[A-Za-z0-9_-]+$/.exec(
    blockId.slice(INBOX_BLOCK_PREFIX.length),
  );
  return match?.[1] ?? null;
}

/** Every holdpoint block_id starts with this. */
export const BLOCK_ID_PATTERN = /^hp\./;

/** callback_id of the answer modal (Other… and free-text answers). */
export const ANSWER_MODAL_CALLBACK_ID = 'hp.modal.answer';
/** block_id of the modal's input block. */
export const ANSWER_INPUT_BLOCK_ID = 'hp.answer';
/** action_id of the modal's plain_text_input. */
export const ANSWER_INPUT_ACTION_ID = 'hp.answer.text';

/** Version tag of {@link encodeActionValue} values. */
export const ACTION_VALUE_VERSION = 'v1';

/** What a holdpoint action_id names. */
export type ActionKind =
  | 'option'
  | 'other'
  | 'answer'
  | 'checks'
  | 'radio'
  | 'submit'
  | 'args'
  | 'change'
  | 'cancel'
  | 'more';

/** A parsed action_id. `questionIndex` is null only for `cancel` and `more`; `optionIndex` is set only for `option`. */
export interface ParsedActionId {
  kind: ActionKind;
  questionIndex: number | null;
  optionIndex: number | null;
}

/** What a button's `value` refers to. Indexes are 0-based; null where `-` was encoded. */
export interface ActionRef {
  turnId: string;
  askId: string;
  questionIndex: number | null;
  optionIndex: number | null;
}

/** The answer modal's `private_metadata`, parsed. `q` is the 0-based question index. */
export interface ModalMetadata {
  v: 1;
  turnId: string;
  askId: string;
  q: number;
  /** Channel id of the ask message. */
  channel: string;
  /** `ts` of the ask message (for chat.update). */
  messageTs: string;
}

function checkIndex(index: number, max: number, what: string): void {
  if (!Number.isInteger(index) || index < 0 || index >= max) {
    throw new StateError('slack_index_invalid', `${what} index ${index} is outside 0..${max - 1}`, {
      fields: { what, index },
    });
  }
}

/** action_id of a single-select option button. Throws StateError for an index outside the ask caps. */
export function optionActionId(questionIndex: number, optionIndex: number): string {
  checkIndex(questionIndex, ASK_LIMITS.maxQuestions, 'question');
  checkIndex(optionIndex, ASK_LIMITS.maxOptions, 'option');
  return `hp.option.${questionIndex}.${optionIndex}`;
}

/** action_id of an `other`, `answer`, `checks`, `radio` or `submit` control of one question. Throws StateError for a bad index. */
export function questionActionId(kind: QuestionControlKind, questionIndex: number): string {
  checkIndex(questionIndex, ASK_LIMITS.maxQuestions, 'question');
  return `hp.${kind}.${questionIndex}`;
}

/** The per-question controls of {@link questionActionId}. */
export type QuestionControlKind = 'other' | 'answer' | 'checks' | 'radio' | 'submit' | 'args' | 'change';

const INDEX = '(0|[1-9]\\d?)';
const ACTION_ID_PARSER = new RegExp(
  `^hp\\.(?:(option)\\.${INDEX}\\.${INDEX}|(other|answer|checks|radio|submit|args|change)\\.${INDEX}|(cancel|more))$`,
);

/**
 * Parses a holdpoint action_id. Returns null for anything else (including the modal input `hp.answer.text`
 * and indexes outside the ask caps: 3 questions, 4 options). Never throws.
 */
export function parseActionId(actionId: unknown): ParsedActionId | null {
  if (typeof actionId !== 'string' || actionId.length > SLACK_LIMITS.actionId) return null;
  const match = ACTION_ID_PARSER.exec(actionId);
  if (match === null) return null;
  if (match[6] === 'cancel' || match[6] === 'more')
    return { kind: match[6], questionIndex: null, optionIndex: null };
  if (match[1] === 'option') {
    const q = Number(match[2]);
    const o = Number(match[3]);
    if (q >= ASK_LIMITS.maxQuestions || o >= ASK_LIMITS.maxOptions) return null;
    return { kind: 'option', questionIndex: q, optionIndex: o };
  }
  const kind = match[4] as QuestionControlKind;
  const q = Number(match[5]);
  if (q >= ASK_LIMITS.maxQuestions) return null;
  return { kind, questionIndex: q, optionIndex: null };
}

function checkId(id: string, what: string): void {
  if (id.length === 0 || id.includes('|') || id.length > 500) {
    throw new StateError('slack_id_unencodable', `${what} cannot be encoded in a Slack value`, {
      fields: { what, length: id.length },
    });
  }
}

/**
 * Encodes a control's `value`: `v1|<turnId>|<askId>|<q>|<o>` with `-` for a null index. At most
 * 2 + 500 + 500 + a few characters, well under Slack's 2000 (button element docs).
 *
 * @throws StateError `slack_id_unencodable` when an id is empty, longer than 500 or contains `|`;
 *   `slack_index_invalid` for an index outside the ask caps.
 */
export function encodeActionValue(ref: ActionRef): string {
  checkId(ref.turnId, 'turnId');
  checkId(ref.askId, 'askId');
  if (ref.questionIndex !== null) checkIndex(ref.questionIndex, ASK_LIMITS.maxQuestions, 'question');
  if (ref.optionIndex !== null) checkIndex(ref.optionIndex, ASK_LIMITS.maxOptions, 'option');
  const q = ref.questionIndex === null ? '-' : String(ref.questionIndex);
  const o = ref.optionIndex === null ? '-' : String(ref.optionIndex);
  return [ACTION_VALUE_VERSION, ref.turnId, ref.askId, q, o].join('|');
}

function parseIndex(text: string, max: number): number | null | undefined {
  if (text === '-') return null;
  if (!/^(0|[1-9]\d?)$/.test(text)) return undefined;
  const index = Number(text);
  return index < max ? index : undefined;
}

/** Parses a value made by {@link encodeActionValue}. Returns null for anything else. Never throws. */
export function parseActionValue(value: unknown): ActionRef | null {
  if (typeof value !== 'string' || value.length > SLACK_LIMITS.buttonValue) return null;
  const parts = value.split('|');
  if (parts.length !== 5) return null;
  const [version, turnId, askId, q, o] = parts as [string, string, string, string, string];
  if (version !== ACTION_VALUE_VERSION || turnId.length === 0 || askId.length === 0) return null;
  const questionIndex = parseIndex(q, ASK_LIMITS.maxQuestions);
  const optionIndex = parseIndex(o, ASK_LIMITS.maxOptions);
  if (questionIndex === undefined || optionIndex === undefined) return null;
  return { turnId, askId, questionIndex, optionIndex };
}

/** The short form of an ask id used in block_ids: characters outside `[A-Za-z0-9_-]` dropped, at most 40. */
export function shortAskId(askId: string): string {
  const cleaned = askId.replace(/[^A-Za-z0-9_-]/g, '');
  return (cleaned.length > 0 ? cleaned : 'ask').slice(-40);
}

/**
 * A block_id `hp.<askIdShort>.r<revision>.<scope>.<part>`: ≤ 255 by construction (40 + small integers +
 * a short part name). `scope` is a question index or `x` for ask-wide blocks. A new revision gives every
 * block a new id, as Slack asks for message updates (section block docs).
 */
export function blockId(askId: string, revision: number, scope: number | 'x', part: string): string {
  return `hp.${shortAskId(askId)}.r${revision}.${scope}.${part}`;
}

const modalMetadataSchema = z.object({
  v: z.literal(1),
  turnId: z.string().min(1),
  askId: z.string().min(1),
  q: z
    .number()
    .int()
    .min(0)
    .max(ASK_LIMITS.maxQuestions - 1),
  channel: z.string().min(1),
  messageTs: z.string().min(1),
});

/**
 * Serializes the answer modal's `private_metadata`.
 *
 * @throws StateError `slack_metadata_too_long` when the JSON exceeds Slack's 3000 characters (modal views docs).
 */
export function encodeModalMetadata(metadata: ModalMetadata): string {
  const text = JSON.stringify({
    v: 1,
    turnId: metadata.turnId,
    askId: metadata.askId,
    q: metadata.q,
    channel: metadata.channel,
    messageTs: metadata.messageTs,
  });
  if (text.length > SLACK_LIMITS.privateMetadata) {
    throw new StateError('slack_metadata_too_long', 'modal private_metadata exceeds 3000 characters', {
      fields: { length: text.length },
    });
  }
  return text;
}

/** Parses the answer modal's `private_metadata` (a JSON string). Returns null for anything else. Never throws. */
export function parseModalMetadata(text: unknown): ModalMetadata | null {
  if (typeof text !== 'string' || text.length > SLACK_LIMITS.privateMetadata) return null;
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return null;
  }
  const parsed = modalMetadataSchema.safeParse(data);
  return parsed.success ? parsed.data : null;
}

/**
 * Reads the ticked option indexes of question `questionIndex` from a `block_actions` payload's
 * `state.values` (shape `{[block_id]: {[action_id]: {type: 'checkboxes', selected_options: [{value}]}}}`),
 * whatever the block_id. Returns the sorted distinct indexes (possibly empty when the checkboxes are
 * present with nothing ticked), or null when the checkboxes are not in the state. Never throws.
 */
export function selectedCheckboxIndexes(stateValues: unknown, questionIndex: number): number[] | null {
  if (typeof stateValues !== 'object' || stateValues === null) return null;
  const actionId = `hp.checks.${questionIndex}`;
  for (const block of Object.values(stateValues as Record<string, unknown>)) {
    if (typeof block !== 'object' || block === null) continue;
    const element = (block as Record<string, unknown>)[actionId];
    if (typeof element !== 'object' || element === null) continue;
    const selected = (element as Record<string, unknown>).selected_options;
    if (!Array.isArray(selected)) return [];
    const indexes = new Set<number>();
    for (const option of selected) {
      const value =
        typeof option === 'object' && option !== null ? (option as Record<string, unknown>).value : null;
      const index = typeof value === 'string' ? parseIndex(value, ASK_LIMITS.maxOptions) : undefined;
      if (typeof index === 'number') indexes.add(index);
    }
    return [...indexes].sort((a, b) => a - b);
  }
  return null;
}

/**
 * Reads the chosen option index of question `questionIndex`'s radio list (`hp.radio.<q>`) from a
 * `block_actions` payload's `state.values`, whatever the block_id. Null when nothing is chosen, the radio
 * list is not in the state, or the value is not an option index. Never throws.
 */
export function selectedRadioIndex(stateValues: unknown, questionIndex: number): number | null {
  if (typeof stateValues !== 'object' || stateValues === null) return null;
  const actionId = `hp.radio.${questionIndex}`;
  for (const block of Object.values(stateValues as Record<string, unknown>)) {
    if (typeof block !== 'object' || block === null) continue;
    const element = (block as Record<string, unknown>)[actionId];
    if (typeof element !== 'object' || element === null) continue;
    const selected = (element as Record<string, unknown>).selected_option;
    const value =
      typeof selected === 'object' && selected !== null ? (selected as Record<string, unknown>).value : null;
    const index = typeof value === 'string' ? parseIndex(value, ASK_LIMITS.maxOptions) : undefined;
    return typeof index === 'number' ? index : null;
  }
  return null;
}

/** "Use" on the ephemeral that offers a thread reply as the answer to an open free-text question. */
export const REPLY_USE_ACTION_ID = 'hp.reply.use';
/** "Not an answer" on that ephemeral. */
export const REPLY_DISMISS_ACTION_ID = 'hp.reply.dismiss';
/** Version tag of {@link encodeReplyValue} values. */
export const REPLY_VALUE_VERSION = 'r1';

/** A reply decision click: which button, and the held reply it names (by channel and `ts` only). */
export interface ReplyAction {
  decision: 'use' | 'dismiss';
  channel: string;
  ts: string;
}

/**
 * The value of the Use / Not an answer buttons: `r1|<channel>|<ts>` of the reply (ids only; its text is
 * held in Redis). Null when an id is empty or holds `|`.
 */
export function encodeReplyValue(channel: string, ts: string): string | null {
  if (!/^[A-Z0-9]{1,40}$/.test(channel) || !/^\d{1,20}\.\d{1,10}$/.test(ts)) return null;
  return [REPLY_VALUE_VERSION, channel, ts].join('|');
}

/** Parses a reply decision click from its action_id and value; null for anything else. Never throws. */
export function parseReplyAction(actionId: unknown, value: unknown): ReplyAction | null {
  const decision =
    actionId === REPLY_USE_ACTION_ID ? 'use' : actionId === REPLY_DISMISS_ACTION_ID ? 'dismiss' : null;
  if (decision === null || typeof value !== 'string' || value.length > 100) return null;
  const parts = value.split('|');
  if (parts.length !== 3 || parts[0] !== REPLY_VALUE_VERSION) return null;
  const [, channel, ts] = parts as [string, string, string];
  return encodeReplyValue(channel, ts) === value ? { decision, channel, ts } : null;
}
