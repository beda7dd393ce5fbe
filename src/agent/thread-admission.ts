import { conversationKey } from '../asks/conversation.js';
import { advanceTurn } from './advance-turn.js';
import type { AdvanceOutcome, EngineDeps } from './engine-deps.js';
import { newTurnRecord } from './new-turn-record.js';
import type { TurnStart } from './turn-start.js';

/**
 * Starts a turn: creates its record from the conversation history (first call wins) and advances it.
 * Returns `waiting` when another turn holds the thread (the job should wait and retry later).
 */
export async function startTurn(
  deps: EngineDeps,
  start: TurnStart,
): Promise<AdvanceOutcome | { state: 'waiting' }> {
  const existing = await deps.store.getTurn(start.turnId);
  if (!existing) {
    const threadKey = conversationKey(start.conversation);
    const holder = await deps.store.threadHolder(threadKey);
    if (holder !== start.turnId) {
      if (holder !== null) return { state: 'waiting' };
      const admitted = await deps.store.admitToThread(threadKey, start.turnId, JSON.stringify(start));
      if (admitted === 'queued') return { state: 'waiting' };
    }
    const triggerTs = start.trigger.synthetic ? undefined : start.trigger.ts;
    await deps.surface.setActivity({ conversation: start.conversation, triggerTs }, { kind: 'thinking' });
    const history = await deps.surface.loadHistory(start.conversation, start.trigger);
    const at = new Date(deps.now()).toISOString();
    const created = await deps.store.createTurn(
      newTurnRecord({
        turnId: start.turnId,
        conversation: start.conversation,
        requestedBy: start.requestedBy,
        messages: history,
        at,
        triggerTs,
      }),
    );
    deps.log.info({ turnId: start.turnId, created }, 'turn started');
  }
  return advanceTurn(deps, start.turnId);
}

/**
 * Admits a new turn to its thread and schedules it. One turn runs per thread at a time: a turn that
 * finds the thread busy waits in the thread's inbox and starts when the running turn ends.
 */
export async function submitTurn(
  deps: {
    store: Pick<EngineDeps['store'], 'admitToThread'>;
    scheduler: Pick<EngineDeps['scheduler'], 'startTurn'>;
  },
  start: TurnStart,
): Promise<'start' | 'queued'> {
  const admitted = await deps.store.admitToThread(
    conversationKey(start.conversation),
    start.turnId,
    JSON.stringify(start),
  );
  await deps.scheduler.startTurn(start);
  return admitted;
}
