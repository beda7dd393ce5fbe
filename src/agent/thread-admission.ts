import { conversationKey } from '../asks/conversation.js';
import { advanceLeasedTurn, advanceTurn, leaseTtl, releaseLease } from './advance-turn.js';
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
  const threadKey = conversationKey(start.conversation);
  // Both reads in one round trip: the holder matters only when the turn does not exist yet.
  const [existing, holder] = await Promise.all([
    deps.store.getTurn(start.turnId),
    deps.store.threadHolder(threadKey),
  ]);
  if (existing) return advanceTurn(deps, start.turnId);
  if (holder !== start.turnId) {
    if (holder !== null) return { state: 'waiting' };
    const admitted = await deps.store.admitToThread(threadKey, start.turnId, JSON.stringify(start));
    if (admitted === 'queued') return { state: 'waiting' };
  }
  const triggerTs = start.trigger.synthetic ? undefined : start.trigger.ts;
  await deps.surface.setActivity({ conversation: start.conversation, triggerTs }, { kind: 'thinking' });
  const history = await deps.surface.loadHistory(start.conversation, start.trigger);
  const at = new Date(deps.now()).toISOString();
  const record = newTurnRecord({
    turnId: start.turnId,
    conversation: start.conversation,
    requestedBy: start.requestedBy,
    messages: history,
    at,
    triggerTs,
  });
  // The lease is taken with the creation (one round trip), so the turn handed on is one nobody else could
  // have moved: a duplicate run of this job that holds the lease makes this one wait instead.
  const token = deps.newId();
  const [leased, created] = await Promise.allSettled([
    deps.store.acquireTurnLease(start.turnId, token, leaseTtl(deps)),
    deps.store.createTurn(record),
  ]);
  if (leased.status === 'rejected') throw leased.reason;
  if (created.status === 'rejected') {
    if (leased.value) releaseLease(deps, start.turnId, token);
    throw created.reason;
  }
  deps.log.info({ turnId: start.turnId, created: created.value }, 'turn started');
  if (!leased.value) return { state: 'busy' };
  // Someone created it first (a duplicate run of this job): give the lease back and advance it as stored.
  if (!created.value) {
    releaseLease(deps, start.turnId, token);
    return advanceTurn(deps, start.turnId);
  }
  // Created here: the turn is what was just written (rev 1), so the first step does not read it back.
  return advanceLeasedTurn(deps, start.turnId, token, { turn: record });
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
