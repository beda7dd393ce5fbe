import type { ModelMessage } from 'ai';
import { conversationKey } from '../asks/conversation.js';
import type { EngineDeps } from './engine-deps.js';
import { activityTarget, currentStreamKey } from './reply-stream.js';
import { errorResult, toolCallsOf, toolResultsOf, withToolResult } from './tool-messages.js';
import type { TurnRecord } from './turn-record.js';
import { parseTurnStart } from './turn-start.js';

/**
 * Ends a turn: commits its final status and the message it owes (posted by {@link finishTurn}). Returns the
 * turn as stored, or null when the compare-and-set lost.
 */
export async function endTurn(
  deps: EngineDeps,
  turn: TurnRecord,
  messages: ModelMessage[],
  status: 'completed' | 'failed',
  text: string,
): Promise<TurnRecord | null> {
  const kind = status === 'completed' ? 'reply' : 'error';
  const next: TurnRecord = {
    ...turn,
    status,
    messages,
    pendingAskId: null,
    outbox: [...turn.outbox, { key: `${kind}-${turn.turnId}`, kind, text, state: 'pending' }],
    updatedAt: new Date(deps.now()).toISOString(),
  };
  const committed = await deps.store.commitTurn(next, turn.rev);
  if (!committed.ok) return null;
  deps.log.info({ turnId: turn.turnId, status, steps: turn.stepCount }, 'turn ended');
  deps.observe?.({ type: 'turn-ended', status, durationMs: deps.now() - Date.parse(turn.createdAt) });
  return { ...next, rev: committed.rev };
}

/** Posts what the ended turn still owes (idempotently by key), then hands the thread to the next turn. */
export async function finishTurn(deps: EngineDeps, turn: TurnRecord): Promise<void> {
  let current = turn;
  for (const entry of turn.outbox) {
    if (entry.state === 'posted') continue;
    const streamKey = deps.config.streamReplies ? currentStreamKey(turn) : undefined;
    await deps.surface.postMessage(turn.conversation, entry.text, entry.key, entry.kind, streamKey);
    deps.onCheckpoint?.('after-reply-posted', { turnId: turn.turnId });
    const outbox = current.outbox.map((item) =>
      item.key === entry.key ? { ...item, state: 'posted' as const } : item,
    );
    const committed = await deps.store.commitTurn({ ...current, outbox }, current.rev);
    if (!committed.ok) return; // someone else finished it; they hand over the thread
    current = { ...current, outbox, rev: committed.rev };
  }
  await deps.surface.setActivity(activityTarget(turn), null);
  const next = await deps.store.releaseThread(conversationKey(turn.conversation), turn.turnId);
  if (next) {
    const start = parseTurnStart(next);
    if (start) await deps.scheduler.startTurn(start);
    else deps.log.error({ turnId: turn.turnId }, 'unreadable thread inbox item dropped');
  }
}

/** Ends a running or paused turn with an error message (e.g. the model kept failing after every retry). */
export async function failTurn(deps: EngineDeps, turnId: string, text: string): Promise<void> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const turn = await deps.store.getTurn(turnId);
    if (!turn || turn.status === 'completed' || turn.status === 'failed') break;
    // A lost compare-and-set means the turn moved on meanwhile: read it again and decide again.
    if ((await endTurn(deps, turn, withMissingResultsClosed(turn.messages), 'failed', text)) !== null) break;
  }
  const turn = await deps.store.getTurn(turnId);
  if (turn) await finishTurn(deps, turn);
}

/** Gives every tool call that lacks a result an "interrupted, not run" error result (keeps the pairing rule). */
export function withMissingResultsClosed(messages: readonly ModelMessage[]): ModelMessage[] {
  let copy = [...messages];
  for (const message of messages) {
    for (const call of toolCallsOf(message)) {
      const answered = copy.some((m) => toolResultsOf(m).some((r) => r.toolCallId === call.toolCallId));
      if (!answered)
        copy = withToolResult(copy, errorResult(call, 'Interrupted: the turn ended before this call ran.'));
    }
  }
  return copy;
}
