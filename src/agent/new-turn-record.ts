import type { ModelMessage } from 'ai';
import type { ConversationRef } from '../asks/conversation.js';
import { TURN_RECORD_VERSION, type TurnRecord } from './turn-record.js';

/** What a new turn starts from. */
export interface NewTurn {
  turnId: string;
  conversation: ConversationRef;
  /** User id of the person who started the turn. */
  requestedBy: string;
  /** The history the model sees first. */
  messages: ModelMessage[];
  /** ISO 8601 time of creation (`createdAt` and `updatedAt`). */
  at: string;
  /** Surface timestamp of the message a person wrote to start the turn (absent for a synthetic start). */
  triggerTs?: string | undefined;
}

/** The record of a turn that has just started: rev 1, running, no steps, asks or outbox yet. Pure. */
export function newTurnRecord(turn: NewTurn): TurnRecord {
  return {
    version: TURN_RECORD_VERSION,
    turnId: turn.turnId,
    rev: 1,
    status: 'running',
    conversation: turn.conversation,
    requestedBy: turn.requestedBy,
    messages: turn.messages,
    pendingAskId: null,
    stepCount: 0,
    invalidAskCount: 0,
    askCount: 0,
    outbox: [],
    createdAt: turn.at,
    updatedAt: turn.at,
    ...(turn.triggerTs ? { triggerTs: turn.triggerTs } : {}),
  };
}
