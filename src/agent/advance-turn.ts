import type { ModelMessage, ToolCallPart, ToolResultPart } from 'ai';
import { decodeAskArguments } from '../ask/decode-ask-arguments.js';
import { formatAskResult } from '../ask/format-ask-result.js';
import type { QuestionResolution } from '../ask/types.js';
import type { AskOf } from '../asks/ask-ports.js';
import { type ApprovalSpec, type AskRecord, waitedForMs } from '../asks/types.js';
import { approvalDecision } from './approval-ask.js';
import { endTurn, finishTurn } from './end-turn.js';
import { type AdvanceOutcome, type EngineDeps, forConversation } from './engine-deps.js';
import { activityTarget, closeStreamBefore } from './reply-stream.js';
import { runOneStep } from './run-step.js';
import { runTurnToolCall } from './run-tool-call.js';
import { errorResult, textResult, toolCallsOf, withToolResult } from './tool-messages.js';
import type { KnownTurn, TurnRecord } from './turn-record.js';

const MAX_LOOPS = 500;

/**
 * Drives a stored turn forward from whatever state it is in, until it waits on an ask or ends.
 * Only the holder of the turn's lease advances it (so the `turn` job finishing its pause and a `resume`
 * job for a quick click never both call the model); others get `busy` and try again shortly.
 * Idempotent and safe to re-run after a crash at any point: every change is a compare-and-set on the
 * turn's `rev`, asks are shown and replies posted idempotently by id, and a lost race just reloads.
 * Called by the `resume` job (and by the `turn` job for a turn that exists, see `startTurn`). The lease, the
 * turn and (with `options.askId`, the ask the job expects the turn to wait on) the ask are read in one round
 * trip: the reads go out after the lease on the same connection (its keys share the turn's hash tag), so they
 * see what the lease holder may change. A resume that finds the lease busy has read the turn for nothing;
 * that happens only when a click lands within the pause's last round trips.
 * @throws the model provider's error when a model step fails (the job retries with backoff).
 */
export async function advanceTurn(
  deps: EngineDeps,
  turnId: string,
  options: { askId?: string } = {},
): Promise<AdvanceOutcome> {
  const token = deps.newId();
  const [leased, read] = await Promise.allSettled([
    deps.store.acquireTurnLease(turnId, token, leaseTtl(deps)),
    readTurn(deps, turnId, options.askId),
  ]);
  if (leased.status === 'rejected') throw leased.reason;
  if (!leased.value) return { state: 'busy' };
  if (read.status === 'rejected') {
    releaseLease(deps, turnId, token);
    throw read.reason;
  }
  return advanceLeasedTurn(deps, turnId, token, read.value);
}

/**
 * {@link advanceTurn} for a caller that holds the turn's lease with `token` and read `known` (the turn, null
 * when absent) after taking it; renews the lease while it works and releases it at the end.
 */
export async function advanceLeasedTurn(
  deps: EngineDeps,
  turnId: string,
  token: string,
  known: KnownTurn | null,
): Promise<AdvanceOutcome> {
  const ttl = leaseTtl(deps);
  const renewal = setInterval(
    () => {
      deps.store.renewTurnLease(turnId, token, ttl).catch((error: unknown) => {
        deps.log.warn({ turnId, err: error }, 'could not renew the turn lease');
      });
    },
    Math.max(100, Math.floor(ttl / 3)),
  );
  renewal.unref();
  try {
    return await advanceHeldTurn(deps, turnId, known);
  } finally {
    clearInterval(renewal);
    releaseLease(deps, turnId, token);
  }
}

/** The turn lease's time to live, in ms. */
export function leaseTtl(deps: EngineDeps): number {
  return deps.config.turnLeaseMs ?? 2500;
}

/**
 * Gives the lease up. Sent, not awaited: nothing the caller returns depends on it, a later advance on this
 * connection is ordered behind it, one elsewhere that comes first finds the turn busy and retries, and a
 * release that never arrives lapses with the lease's TTL.
 */
export function releaseLease(deps: EngineDeps, turnId: string, token: string): void {
  deps.store.releaseTurnLease(turnId, token).catch(() => undefined);
}

/** The turn, and the ask `askId` when the turn waits on it; null when the turn is absent. */
async function readTurn(deps: EngineDeps, turnId: string, askId?: string): Promise<KnownTurn | null> {
  const [turn, ask] = await Promise.all([
    deps.store.getTurn(turnId),
    askId === undefined ? null : deps.store.getAsk(turnId, askId),
  ]);
  if (!turn) return null;
  return ask && turn.pendingAskId === askId ? { turn, ask } : { turn };
}

/** {@link advanceTurn} once the lease is held, from `first` (the turn as read or stored; null: absent). */
async function advanceHeldTurn(
  engine: EngineDeps,
  turnId: string,
  first: KnownTurn | null,
): Promise<AdvanceOutcome> {
  let known: KnownTurn | null = first;
  for (let loop = 0; loop < MAX_LOOPS; loop++) {
    // The first loop starts from what was read with the lease; later ones from what the last one stored.
    const turn = known !== null ? known.turn : loop === 0 ? null : await engine.store.getTurn(turnId);
    const ask = known?.ask;
    known = null;
    if (!turn) return { state: 'missing' };
    // The turn's channel may set its own prompt, ask defaults, tools and approval rules.
    const deps = forConversation(engine, turn.conversation);
    switch (turn.status) {
      case 'running':
        known = await runOneStep(deps, turn);
        break;
      case 'paused': {
        const outcome = await progressPausedTurn(deps, turn, ask);
        if ('state' in outcome) return outcome;
        known = outcome.next;
        break;
      }
      case 'completed':
      case 'failed':
        await finishTurn(deps, turn);
        return { state: turn.status };
    }
  }
  throw new Error(`turn ${turnId} did not settle after ${MAX_LOOPS} transitions`);
}

/**
 * Shows a stored ask, resumes a resolved one, or ensures its timeout exists. Returns an outcome when the turn
 * must wait, else what the next loop starts from (`next` null: read the turn again). `known` is the pending
 * ask when the caller has it (just stored with the pause, or read with the lease).
 */
async function progressPausedTurn(
  deps: EngineDeps,
  turn: TurnRecord,
  known: AskRecord | undefined,
): Promise<AdvanceOutcome | { next: KnownTurn | null }> {
  const askId = turn.pendingAskId;
  const ask = known ?? (askId ? await deps.store.getAsk(turn.turnId, askId) : null);
  if (!askId || !ask || !isTurnAsk(ask)) {
    deps.log.error({ turnId: turn.turnId, askId }, 'paused turn has no readable ask; ending it');
    await endTurn(
      deps,
      turn,
      turn.messages,
      'failed',
      'I lost track of the question I asked here, so I stopped this turn. Please ask again.',
    );
    return { next: null };
  }
  if (ask.status === 'resolved') return { next: await resumeWithAnswers(deps, turn, ask) };
  if (ask.shownAt === null) {
    // Shown: its timeout job was just added, so the turn waits now (no second add). Not shown: it resolved
    // as not shown, and the next loop resumes the turn with that.
    // The stretch's streamed text ends above the ask's message.
    await closeStreamBefore(deps, turn, ask);
    if (!(await deps.asks.show(turn.conversation, ask))) return { next: null };
    await deps.surface.setActivity(activityTarget(turn), null);
    return { state: 'paused', askId };
  }
  await deps.asks.watch(ask);
  return { state: 'paused', askId };
}

/** Resumes the turn with the resolved ask's answers; returns the turn as committed, or null when the commit lost. */
async function resumeWithAnswers(
  deps: EngineDeps,
  turn: TurnRecord,
  ask: AskOf<'turn'>,
): Promise<KnownTurn | null> {
  // Every resolution reaches the message before the turn moves on, whichever process stored it and
  // whether or not that process lived to draw it (a no-op when the message already shows it).
  await deps.asks.syncQuietly(ask);
  if (ask.approval) return resumeAfterApproval(deps, turn, ask, ask.approval);
  const resolutions = ask.resolutions.filter((r): r is QuestionResolution => r !== null);
  // The ignored-keys note is not stored with the ask: it is derived again from the call's raw input.
  const call = findToolCall(turn.messages, ask.waiter.toolCallId);
  const decoded = call ? decodeAskArguments(call.input) : null;
  const text = formatAskResult(ask.questions, resolutions, {
    timeoutMs: waitedForMs(ask),
    ignoredKeys: decoded?.ok ? decoded.ignoredKeys : [],
  });
  const result = textResult({ toolCallId: ask.waiter.toolCallId, toolName: deps.askTool.name }, text);
  return commitResumed(deps, turn, ask, withToolResult(turn.messages, result), 'turn resumed with answers');
}

/**
 * Resumes a turn whose approval resolved: each approved call runs (at most once: a retry after a crash
 * reuses its stored outcome), each denied one gets a result saying by whom and why, and the turn goes on
 * with every result.
 */
async function resumeAfterApproval(
  deps: EngineDeps,
  turn: TurnRecord,
  ask: AskOf<'turn'>,
  approval: ApprovalSpec,
): Promise<KnownTurn | null> {
  let messages = turn.messages;
  const outcomes: Array<{ ok: boolean; text: string } | null> = [];
  for (const [index, gated] of approval.calls.entries()) {
    const resolution = ask.resolutions[index];
    const call = findToolCall(turn.messages, gated.toolCallId) ?? {
      type: 'tool-call' as const,
      toolCallId: gated.toolCallId,
      toolName: gated.toolName,
      input: gated.input,
    };
    const decision = resolution
      ? approvalDecision(gated, resolution, waitedForMs(ask))
      : ({ run: false, text: `Not run: ${gated.toolName} was not decided. Nothing was executed.` } as const);
    const result = decision.run
      ? await runTurnToolCall(deps, turn, call, decision.prefix)
      : errorResult(call, decision.text);
    outcomes.push(decision.run ? outcomeOf(result, decision.prefix) : null);
    messages = withToolResult(messages, result);
  }
  const resumed = await commitResumed(deps, turn, ask, messages, 'turn resumed after approval');
  if (resumed) await deps.surface.showApprovalOutcomes?.(ask, outcomes);
  return resumed;
}

/** What an approved call did, for its approval message: ok, or failed with the error text (without the prefix). */
function outcomeOf(result: ToolResultPart, prefix: string): { ok: boolean; text: string } {
  const output = result.output;
  const text = output.type === 'text' || output.type === 'error-text' ? output.value : '';
  return {
    ok: output.type !== 'error-text',
    text: text.startsWith(prefix) ? text.slice(prefix.length) : text,
  };
}

/** Commits the resumed turn; returns it as stored, or null when the compare-and-set lost. */
async function commitResumed(
  deps: EngineDeps,
  turn: TurnRecord,
  ask: AskOf<'turn'>,
  messages: ModelMessage[],
  logText: string,
): Promise<KnownTurn | null> {
  const next: TurnRecord = {
    ...turn,
    status: 'running',
    pendingAskId: null,
    messages,
    updatedAt: new Date(deps.now()).toISOString(),
  };
  const committed = await deps.store.commitTurn(next, turn.rev);
  if (!committed.ok) return null;
  await Promise.all([
    deps.store.unindexAsk(turn.turnId, ask.askId),
    deps.surface.setActivity(activityTarget(turn), { kind: 'thinking' }),
  ]);
  deps.log.info({ turnId: turn.turnId, askId: ask.askId }, logText);
  return { turn: { ...next, rev: committed.rev } };
}

function findToolCall(messages: readonly ModelMessage[], toolCallId: string): ToolCallPart | undefined {
  for (const message of messages) {
    const call = toolCallsOf(message).find((part) => part.toolCallId === toolCallId);
    if (call) return call;
  }
  return undefined;
}

/** A turn waits only on asks whose waiter is that kind of turn. */
function isTurnAsk(ask: AskRecord): ask is AskOf<'turn'> {
  return ask.waiter.kind === 'turn';
}
