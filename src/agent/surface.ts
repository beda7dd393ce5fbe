import type { ModelMessage } from 'ai';
import type { ConversationRef } from '../asks/conversation.js';
import type { AskRecord } from '../asks/types.js';

/**
 * Where asks are shown and replies posted (Slack, or a recording surface in tests).
 * The turn engine calls these from workers; every method may be retried after a crash, so each
 * must be idempotent by the given key (the Slack surface looks for its own earlier message by
 * metadata before posting again).
 */
/** The message that started a turn. */
export interface TurnTrigger {
  /** The text of the message that started the turn (surface-escaped text is decoded by the surface). */
  text: string;
  /** Surface timestamp of that message (Slack `ts`). */
  ts: string;
  /** Who wrote it. */
  userId: string;
}

export interface Surface {
  /**
   * The conversation so far as model messages, up to and including the trigger message: earlier human
   * messages as `user` messages, the bot's own messages as `assistant` messages.
   */
  loadHistory(conversation: ConversationRef, trigger: TurnTrigger): Promise<ModelMessage[]>;
  /**
   * Shows an ask in the conversation. Idempotent by `ask.askId`: when a message for this ask was
   * already posted, returns its reference instead of posting again.
   * @returns an opaque reference to the shown message (stored in `AskRecord.messageRef`).
   * @throws when the ask cannot be shown after the surface's own retries.
   */
  showAsk(conversation: ConversationRef, ask: AskRecord): Promise<string>;
  /**
   * Makes the shown message of `ask` show the ask as stored now (controls of resolved questions go, the
   * choices and who made them stay). Idempotent and safe to call from any process at any time: the
   * surface reads the ask afresh and never lets an older state overwrite a newer one. A no-op when the
   * ask was never shown or its message already shows this state.
   * @throws when the surface refuses the update.
   */
  syncAsk(ask: AskRecord): Promise<void>;
  /** Posts text once per `key` (final reply, or an error such as "too many invalid questions"). */
  postMessage(
    conversation: ConversationRef,
    text: string,
    key: string,
    kind: 'reply' | 'error',
  ): Promise<void>;
  /** Shows or clears a "working" indicator in the conversation (best effort; never throws). */
  setWorking(conversation: ConversationRef, working: boolean): Promise<void>;
}
