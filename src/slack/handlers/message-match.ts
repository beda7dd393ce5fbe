import { z } from 'zod';
import type { AskRecord } from '../../asks/types.js';
import { HOME_VIEW_CALLBACK_ID, inboxAskOfBlockId, shortAskId } from '../blocks/action-ids.js';
import { parseMessageRef } from '../message-ref.js';

/** Where a click or submission says it came from: the channel and `ts` of the message holding the control. */
export interface ClaimedMessage {
  channel: string | undefined;
  messageTs: string | undefined;
}

/**
 * Whether a click (or a modal opened from it) comes from the message that shows `ask`: its channel and
 * `ts` must equal the ask's stored message reference. A button value or modal metadata alone only
 * names an ask; the message it arrived from must be that ask's message, or one thread's click could
 * answer another thread's ask. An ask that was never shown has no message, so nothing matches it. Pure.
 */
export function comesFromAskMessage(ask: AskRecord, claimed: ClaimedMessage): boolean {
  const stored = parseMessageRef(ask.messageRef);
  if (!stored || !claimed.channel || !claimed.messageTs) return false;
  return stored.channel === claimed.channel && stored.ts === claimed.messageTs;
}

/** Whether a thread reply in `channel`/`threadTs` is in the thread where `ask` was asked. Pure. */
export function inAskThread(ask: AskRecord, channel: string, threadTs: string | undefined): boolean {
  return ask.conversation.channel === channel && ask.conversation.threadTs === threadTs;
}

/** Where a click says it came from, as far as the inbox check needs it (a `block_actions` payload's parts). */
export interface ClaimedInboxClick {
  container?: { type?: string | undefined; is_ephemeral?: boolean | undefined } | undefined;
  view?: { type?: string | undefined; callback_id?: string | undefined } | undefined;
  /** The block_id of the clicked control. */
  blockId: string | undefined;
}

/**
 * Whether a click comes from a row of the inbox that shows `askId`: holdpoint's Home tab view (type `home`,
 * callback_id `hp.home`) or an ephemeral message (the `/holdpoint asks` reply), and the clicked control's
 * block is an inbox row of that very ask (`hp.inbox.<askIdShort>…`). Views and ephemerals have no stored
 * message to compare with; this is their counterpart of {@link comesFromAskMessage}, and the click is then
 * checked against the stored ask like any other (open, unanswered, person allowed). Pure.
 */
export function comesFromInbox(askId: string, claimed: ClaimedInboxClick): boolean {
  const home =
    claimed.container?.type === 'view' &&
    claimed.view?.type === 'home' &&
    claimed.view.callback_id === HOME_VIEW_CALLBACK_ID;
  const ephemeral = claimed.container?.type === 'message' && claimed.container.is_ephemeral === true;
  if (!home && !ephemeral) return false;
  return inboxAskOfBlockId(claimed.blockId) === shortAskId(askId);
}

/** The fields of an interaction payload that name the workspace it came from. */
const requestTeamSchema = z.object({
  team: z.object({ id: z.string() }).nullish(),
  user: z.object({ team_id: z.string().optional() }).nullish(),
});

/**
 * The workspace a request came from: the team Bolt authorized it for (`context.teamId`: whose installation's
 * client the listener got), else the payload's `team.id` or `user.team_id`.
 */
export function requestTeamOf(body: unknown, contextTeamId: string | undefined): string | undefined {
  if (contextTeamId) return contextTeamId;
  const parsed = requestTeamSchema.safeParse(body);
  return parsed.success ? (parsed.data.team?.id ?? parsed.data.user?.team_id) : undefined;
}

/**
 * OAuth install mode: whether a click, modal submission or reply from workspace `requestTeam` may touch
 * `ask`, that is whether the ask belongs to that workspace (its conversation's `teamId`). A request whose
 * workspace is unknown, or an ask that names none, is refused. Single-workspace mode (`scopeByTeam` false):
 * always true.
 */
export function comesFromAskWorkspace(
  scopeByTeam: boolean | undefined,
  ask: AskRecord,
  requestTeam: string | undefined,
): boolean {
  if (!scopeByTeam) return true;
  const askTeam = ask.conversation.teamId;
  return askTeam !== undefined && requestTeam !== undefined && askTeam === requestTeam;
}
