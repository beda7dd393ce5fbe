import type { AskRecord } from '../../asks/types.js';
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
