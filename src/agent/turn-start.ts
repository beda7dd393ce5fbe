import type { ConversationRef } from '../asks/conversation.js';
import type { TurnTrigger } from './surface.js';

/** Everything needed to start a turn; the payload of a `turn` job and of a thread inbox item. */
export interface TurnStart {
  turnId: string;
  conversation: ConversationRef;
  requestedBy: string;
  trigger: TurnTrigger;
}

/** Parses a thread inbox item written by `submitTurn`; null when unreadable. */
export function parseTurnStart(item: string): TurnStart | null {
  try {
    const value = JSON.parse(item) as Partial<TurnStart>;
    if (
      typeof value.turnId !== 'string' ||
      !value.conversation ||
      !value.trigger ||
      typeof value.requestedBy !== 'string'
    ) {
      return null;
    }
    return value as TurnStart;
  } catch {
    return null;
  }
}
