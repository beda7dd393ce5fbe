import type { LanguageModel, ModelMessage, ToolCallPart, ToolResultPart } from 'ai';
import type { AskToolDefinition } from '../ask/ask-schema.js';
import { assumeOpenQuestions } from '../ask/assume-resolution.js';
import { decodeAskArguments } from '../ask/decode-ask-arguments.js';
import { formatAskResult } from '../ask/format-ask-result.js';
import type { QuestionResolution, TimeoutPolicy } from '../ask/types.js';
import type { AskStore } from '../asks/ask-store.js';
import { conversationKey } from '../asks/conversation.js';
import type { EngineLogger } from '../asks/logger.js';
import type { AnswererPolicy, AskDefinition, AskRecord, AskTransitionResult } from '../asks/types.js';
import { ASK_RECORD_VERSION } from '../asks/types.js';
import { runModelStep } from './model-step.js';
import { newTurnRecord } from './new-turn-record.js';
import { planStep } from './plan-step.js';
import type { Scheduler, TurnStart } from './scheduler.js';
import type { Surface } from './surface.js';
import { errorResult, textResult, toolCallsOf, toolMessage, toolResultsOf } from './tool-messages.js';
import type { ToolRegistry } from './tool-registry.js';
import type { TurnRecord } from './turn-record.js';
import type { ThreadQueue, TurnLeases, TurnStore } from './turn-store.js';

/** Engine settings (from the environment; see `src/config`). */
export interface EngineConfig {
  systemPrompt: string;
  /** Model steps per turn before the turn ends with a message (default 20). */
  stepLimit: number;
  /** Invalid `ask_question` calls per turn before the turn ends with a message (default 3). */
  maxInvalidAsks: number;
  /** How long an ask waits for people, in ms, counted from when it was shown. */
  askTimeoutMs: number;
  timeoutPolicy: TimeoutPolicy;
  answerers: AnswererPolicy;
  /** Tries to show an ask before it resolves as "not shown" (default 3). */
  showAttempts: number;
  /** Pause between those tries, in ms (default 500, doubled each time). */
  showRetryDelayMs: number;
  /**
   * How long a turn's lease lives without renewal, in ms (default 2500, the job lock's length; renewed
   * every third of it while the turn is advanced). After a crash, another process can take the turn over
   * once it lapses.
   */
  turnLeaseMs?: number;
}

/** Named points in the engine where crash tests kill the process. No effect in production. */
export type Checkpoint =
  | 'after-model-step'
  | 'after-pause-stored'
  | 'after-ask-shown'
  | 'after-answer-recorded'
  | 'after-timeout-resolved'
  | 'after-reply-posted';

/** Something worth counting happened (metrics). */
export type EngineEvent =
  | { type: 'ask-resolved'; how: 'answered' | 'assumed' | 'canceled'; waitedMs: number | null }
  | { type: 'turn-ended'; status: 'completed' | 'failed'; durationMs: number }
  | { type: 'model-error'; turnId: string };

/** What the engine needs. Built once per process by the composition root. */
export interface EngineDeps {
  store: TurnStore & TurnLeases & ThreadQueue & AskStore;
  surface: Surface;
  scheduler: Scheduler;
  model: LanguageModel;
  tools: ToolRegistry;
  askTool: AskToolDefinition;
  config: EngineConfig;
  log: EngineLogger;
  /** Epoch ms. */
  now: () => number;
  /** A new colon-free, not-all-digit id (e.g. a UUID). */
  newId: () => string;
  onCheckpoint?: ((name: Checkpoint, ids: { turnId: string; askId?: string }) => void) | undefined;
  /** Called for countable events (metrics); must not throw. */
  observe?: ((event: EngineEvent) => void) | undefined;
  abortSignal?: AbortSignal | undefined;
}

/** Where {@link advanceTurn} left a turn. */
export type AdvanceOutcome =
  | { state: 'paused'; askId: string }
  | { state: 'completed' | 'failed' }
  | { state: 'missing' }
  /** Another process holds the turn's lease and is advancing it; try again shortly. */
  | { state: 'busy' };

const MAX_LOOPS = 500;

/**
 * Drives a stored turn forward from whatever state it is in, until it waits on an ask or ends.
 * Only the holder of the turn's lease advances it (so the `turn` job finishing its pause and a `resume`
 * job for a quick click never both call the model); others get `busy` and try again shortly.
 * Idempotent and safe to re-run after a crash at any point: every change is a compare-and-set on the
 * turn's `rev`, asks are shown and replies posted idempotently by id, and a lost race just reloads.
 * Called by the `turn` and `resume` jobs.
 * @throws the model provider's error when a model step fails (the job retries with backoff).
 */
export async function advanceTurn(deps: EngineDeps, turnId: string): Promise<AdvanceOutcome> {
  const token = deps.newId();
  const ttl = deps.config.turnLeaseMs ?? 2500;
  if (!(await deps.store.acquireTurnLease(turnId, token, ttl))) return { state: 'busy' };
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
    return await advanceHeldTurn(deps, turnId);
  } finally {
    clearInterval(renewal);
    await deps.store.releaseTurnLease(turnId, token).catch(() => undefined);
  }
}

/** {@link advanceTurn} once the lease is held. */
async function advanceHeldTurn(deps: EngineDeps, turnId: string): Promise<AdvanceOutcome> {
  for (let loop = 0; loop < MAX_LOOPS; loop++) {
    const turn = await deps.store.getTurn(turnId);
    if (!turn) return { state: 'missing' };
    switch (turn.status) {
      case 'running':
        await runOneStep(deps, turn);
        break;
      case 'paused': {
        const outcome = await progressPausedTurn(deps, turn);
        if (outcome) return outcome;
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
    await deps.surface.setWorking(start.conversation, true);
    const history = await deps.surface.loadHistory(start.conversation, start.trigger);
    const at = new Date(deps.now()).toISOString();
    const created = await deps.store.createTurn(
      newTurnRecord({
        turnId: start.turnId,
        conversation: start.conversation,
        requestedBy: start.requestedBy,
        messages: history,
        at,
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
  deps: Pick<EngineDeps, 'store' | 'scheduler'>,
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

async function runOneStep(deps: EngineDeps, turn: TurnRecord): Promise<void> {
  if (turn.stepCount >= deps.config.stepLimit) {
    await endTurn(deps, turn, turn.messages, 'failed', stepLimitText(deps.config.stepLimit));
    return;
  }
  let step: Awaited<ReturnType<typeof runModelStep>>;
  try {
    step = await runModelStep({
      model: deps.model,
      system: deps.config.systemPrompt,
      messages: turn.messages,
      tools: deps.tools,
      askTool: deps.askTool,
      abortSignal: deps.abortSignal,
    });
  } catch (error) {
    deps.observe?.({ type: 'model-error', turnId: turn.turnId });
    throw error;
  }
  deps.onCheckpoint?.('after-model-step', { turnId: turn.turnId });
  const plan = planStep(step.responseMessages, deps.askTool.name, step.text);
  const invalidAskCount = turn.invalidAskCount + (plan.kind === 'final' ? 0 : plan.invalidAsks);

  if (plan.kind === 'final') {
    const text = plan.text.trim() === '' ? '(The agent finished without a reply.)' : plan.text;
    await endTurn(
      deps,
      { ...turn, stepCount: turn.stepCount + 1 },
      [...turn.messages, ...plan.messages],
      'completed',
      text,
    );
    return;
  }

  if (plan.kind === 'pause') {
    const askId = deps.newId();
    const at = new Date(deps.now()).toISOString();
    const calls = toolCallsOf(plan.assistant);
    const messages: ModelMessage[] = [...turn.messages, plan.assistant];
    if (plan.otherResults.length > 0) messages.push(toolMessage(calls, plan.otherResults));
    const definition: AskDefinition = {
      version: ASK_RECORD_VERSION,
      askId,
      turnId: turn.turnId,
      toolCallId: plan.askCall.toolCallId,
      ordinal: turn.askCount,
      questions: plan.ask.questions,
      conversation: turn.conversation,
      requestedBy: turn.requestedBy,
      answerers: deps.config.answerers,
      timeoutMs: deps.config.askTimeoutMs,
      policy: deps.config.timeoutPolicy,
      createdAt: at,
    };
    const next: TurnRecord = {
      ...turn,
      status: 'paused',
      messages,
      pendingAskId: askId,
      stepCount: turn.stepCount + 1,
      askCount: turn.askCount + 1,
      invalidAskCount,
      updatedAt: at,
    };
    const committed = await deps.store.pauseTurn(next, turn.rev, definition);
    if (committed.ok) {
      deps.log.info(
        { turnId: turn.turnId, askId, questions: plan.ask.questions.length },
        'turn paused on ask',
      );
      deps.onCheckpoint?.('after-pause-stored', { turnId: turn.turnId, askId });
    }
    return;
  }

  const ran: ToolResultPart[] = [];
  if (invalidAskCount < deps.config.maxInvalidAsks) {
    for (const call of plan.toRun) ran.push(await executeTool(deps, turn.turnId, call));
  } else {
    for (const call of plan.toRun)
      ran.push(errorResult(call, 'Not run: the turn ended after too many invalid ask_question calls.'));
  }
  const messages = [...turn.messages, plan.assistant, toolMessage(plan.calls, [...plan.decided, ...ran])];
  if (invalidAskCount >= deps.config.maxInvalidAsks) {
    await endTurn(
      deps,
      { ...turn, stepCount: turn.stepCount + 1, invalidAskCount },
      messages,
      'failed',
      tooManyInvalidAsksText(invalidAskCount),
    );
    return;
  }
  await deps.store.commitTurn(
    {
      ...turn,
      messages,
      stepCount: turn.stepCount + 1,
      invalidAskCount,
      updatedAt: new Date(deps.now()).toISOString(),
    },
    turn.rev,
  );
}

async function executeTool(deps: EngineDeps, turnId: string, call: ToolCallPart): Promise<ToolResultPart> {
  const tool = deps.tools.get(call.toolName);
  if (!tool) return errorResult(call, `Unknown tool ${call.toolName}.`);
  try {
    const output = await tool.execute(call.input, {
      turnId,
      toolCallId: call.toolCallId,
      signal: deps.abortSignal,
    });
    return textResult(call, typeof output === 'string' ? output : JSON.stringify(output ?? null));
  } catch (error) {
    deps.log.warn({ turnId, tool: call.toolName, err: error }, 'tool failed');
    return errorResult(
      call,
      `Tool ${call.toolName} failed: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}

/** Shows a stored ask, resumes a resolved one, or ensures its timeout exists. Returns an outcome when the turn must wait. */
async function progressPausedTurn(deps: EngineDeps, turn: TurnRecord): Promise<AdvanceOutcome | null> {
  const askId = turn.pendingAskId;
  const ask = askId ? await deps.store.getAsk(turn.turnId, askId) : null;
  if (!askId || !ask) {
    deps.log.error({ turnId: turn.turnId, askId }, 'paused turn has no readable ask; ending it');
    await endTurn(
      deps,
      turn,
      turn.messages,
      'failed',
      'I lost track of the question I asked here, so I stopped this turn. Please ask again.',
    );
    return null;
  }
  if (ask.status === 'resolved') {
    await resumeWithAnswers(deps, turn, ask);
    return null;
  }
  if (ask.shownAt === null) {
    await showAsk(deps, turn, ask);
    return null;
  }
  await deps.scheduler.timeout(turn.turnId, askId, ask.deadline ?? deps.now());
  return { state: 'paused', askId };
}

async function showAsk(deps: EngineDeps, turn: TurnRecord, ask: AskRecord): Promise<void> {
  let lastError: unknown;
  let delay = deps.config.showRetryDelayMs;
  for (let attempt = 1; attempt <= deps.config.showAttempts; attempt++) {
    try {
      const messageRef = await deps.surface.showAsk(turn.conversation, ask);
      const shown = await deps.store.markAskShown(turn.turnId, ask.askId, deps.now(), messageRef);
      deps.onCheckpoint?.('after-ask-shown', { turnId: turn.turnId, askId: ask.askId });
      if (shown?.deadline != null) await deps.scheduler.timeout(turn.turnId, ask.askId, shown.deadline);
      await deps.surface.setWorking(turn.conversation, false);
      return;
    } catch (error) {
      lastError = error;
      deps.log.warn({ turnId: turn.turnId, askId: ask.askId, attempt, err: error }, 'showing the ask failed');
      if (attempt < deps.config.showAttempts) {
        await new Promise((resolve) => setTimeout(resolve, delay));
        delay *= 2;
      }
    }
  }
  deps.log.error(
    { turnId: turn.turnId, askId: ask.askId, err: lastError },
    'ask could not be shown; resolving as not shown',
  );
  const at = new Date(deps.now()).toISOString();
  await deps.store.resolveOpenQuestions(
    turn.turnId,
    ask.askId,
    assumeOpenQuestions(ask.questions, 'no-answer', at, 'not_shown'),
  );
}

/**
 * Brings the ask's shown message up to date (the surface makes this idempotent and ordered). A refusal is
 * logged, not thrown: the resolution is stored and the turn goes on either way.
 */
async function syncAskQuietly(deps: Pick<EngineDeps, 'surface' | 'log'>, ask: AskRecord): Promise<void> {
  try {
    await deps.surface.syncAsk(ask);
  } catch (error) {
    deps.log.warn({ turnId: ask.turnId, askId: ask.askId, err: error }, 'could not update the ask message');
  }
}

async function resumeWithAnswers(deps: EngineDeps, turn: TurnRecord, ask: AskRecord): Promise<void> {
  // Every resolution reaches the message before the turn moves on, whichever process stored it and
  // whether or not that process lived to draw it (a no-op when the message already shows it).
  await syncAskQuietly(deps, ask);
  const resolutions = ask.resolutions.filter((r): r is QuestionResolution => r !== null);
  // The ignored-keys note is not stored with the ask: it is derived again from the call's raw input.
  const call = findToolCall(turn.messages, ask.toolCallId);
  const decoded = call ? decodeAskArguments(call.input) : null;
  const text = formatAskResult(ask.questions, resolutions, {
    timeoutMs: ask.timeoutMs,
    ignoredKeys: decoded?.ok ? decoded.ignoredKeys : [],
  });
  const result = textResult({ toolCallId: ask.toolCallId, toolName: deps.askTool.name }, text);
  const messages = withToolResult(turn.messages, result);
  const committed = await deps.store.commitTurn(
    {
      ...turn,
      status: 'running',
      pendingAskId: null,
      messages,
      updatedAt: new Date(deps.now()).toISOString(),
    },
    turn.rev,
  );
  if (committed.ok) {
    await deps.store.unindexAsk(turn.turnId, ask.askId);
    await deps.surface.setWorking(turn.conversation, true);
    deps.log.info({ turnId: turn.turnId, askId: ask.askId }, 'turn resumed with answers');
  }
}

function findToolCall(messages: readonly ModelMessage[], toolCallId: string): ToolCallPart | undefined {
  for (const message of messages) {
    const call = toolCallsOf(message).find((part) => part.toolCallId === toolCallId);
    if (call) return call;
  }
  return undefined;
}

/**
 * Adds `result` to the tool message that follows the assistant message holding its call (creating
 * that tool message when the call was the step's only one), keeping results in call order.
 */
export function withToolResult(messages: readonly ModelMessage[], result: ToolResultPart): ModelMessage[] {
  const copy = [...messages];
  const index = copy.findIndex((message) =>
    toolCallsOf(message).some((call) => call.toolCallId === result.toolCallId),
  );
  if (index < 0) return [...copy, { role: 'tool', content: [result] }];
  const calls = toolCallsOf(copy[index] as ModelMessage);
  const following = copy[index + 1];
  if (following?.role === 'tool') {
    const existing = toolResultsOf(following).filter((part) => part.toolCallId !== result.toolCallId);
    copy[index + 1] = toolMessage(calls, [...existing, result]);
  } else {
    copy.splice(index + 1, 0, toolMessage(calls, [result]));
  }
  return copy;
}

async function endTurn(
  deps: EngineDeps,
  turn: TurnRecord,
  messages: ModelMessage[],
  status: 'completed' | 'failed',
  text: string,
): Promise<boolean> {
  const kind = status === 'completed' ? 'reply' : 'error';
  const committed = await deps.store.commitTurn(
    {
      ...turn,
      status,
      messages,
      pendingAskId: null,
      outbox: [...turn.outbox, { key: `${kind}-${turn.turnId}`, kind, text, state: 'pending' }],
      updatedAt: new Date(deps.now()).toISOString(),
    },
    turn.rev,
  );
  if (committed.ok) {
    deps.log.info({ turnId: turn.turnId, status, steps: turn.stepCount }, 'turn ended');
    deps.observe?.({ type: 'turn-ended', status, durationMs: deps.now() - Date.parse(turn.createdAt) });
  }
  return committed.ok;
}

/** Posts what the ended turn still owes (idempotently by key), then hands the thread to the next turn. */
async function finishTurn(deps: EngineDeps, turn: TurnRecord): Promise<void> {
  let current = turn;
  for (const entry of turn.outbox) {
    if (entry.state === 'posted') continue;
    await deps.surface.postMessage(turn.conversation, entry.text, entry.key, entry.kind);
    deps.onCheckpoint?.('after-reply-posted', { turnId: turn.turnId });
    const outbox = current.outbox.map((item) =>
      item.key === entry.key ? { ...item, state: 'posted' as const } : item,
    );
    const committed = await deps.store.commitTurn({ ...current, outbox }, current.rev);
    if (!committed.ok) return; // someone else finished it; they hand over the thread
    current = { ...current, outbox, rev: committed.rev };
  }
  await deps.surface.setWorking(turn.conversation, false);
  const next = await deps.store.releaseThread(conversationKey(turn.conversation), turn.turnId);
  if (next) {
    const start = parseTurnStart(next);
    if (start) await deps.scheduler.startTurn(start);
    else deps.log.error({ turnId: turn.turnId }, 'unreadable thread inbox item dropped');
  }
}

/** Parses a thread inbox item written by {@link submitTurn}; null when unreadable. */
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

/** One person's answer to one question, as the surfaces hand it to the engine. */
export interface AnswerInput {
  turnId: string;
  askId: string;
  questionIndex: number;
  resolution: QuestionResolution;
  /** The surface found the person in one of the answerer policy's user groups. */
  inAllowedGroup?: boolean;
}

/**
 * Stores one person's answer atomically (answer-once): the answer counts only if the ask is open, the
 * question unanswered and the person allowed. Never throws for a lost race: the status says what happened.
 * Once this returns, the answer is durable; a surface may acknowledge it before calling
 * {@link resumeAfterAnswer} (a crash in between is repaired by the sweep and the timeout job).
 */
export async function recordAnswer(
  deps: Pick<EngineDeps, 'store' | 'onCheckpoint'>,
  input: AnswerInput,
): Promise<AskTransitionResult> {
  const result = await deps.store.answerQuestion(
    input.turnId,
    input.askId,
    input.questionIndex,
    input.resolution,
    {
      inAllowedGroup: input.inAllowedGroup ?? false,
    },
  );
  deps.onCheckpoint?.('after-answer-recorded', { turnId: input.turnId, askId: input.askId });
  return result;
}

/** When `result` resolved the ask's last open question: adds the resume job and tidies the timeout job. */
export async function resumeAfterAnswer(
  deps: Pick<EngineDeps, 'store' | 'scheduler' | 'log' | 'now' | 'observe'>,
  result: AskTransitionResult,
): Promise<void> {
  if (result.status !== 'completed' || !result.ask) return;
  await queueResume(deps, result.ask.turnId, result.ask.askId);
  const shownAt = result.ask.shownAt;
  deps.observe?.({
    type: 'ask-resolved',
    how: 'answered',
    waitedMs: shownAt === null ? null : deps.now() - shownAt,
  });
}

/** {@link recordAnswer} then {@link resumeAfterAnswer}: stores the answer and, when it was the last one, adds the resume. */
export async function answerAsk(
  deps: Pick<EngineDeps, 'store' | 'scheduler' | 'log' | 'onCheckpoint' | 'now' | 'observe'>,
  input: AnswerInput,
): Promise<AskTransitionResult> {
  const result = await recordAnswer(deps, input);
  await resumeAfterAnswer(deps, result);
  return result;
}

/** The requester cancels an open ask; the model gets a "canceled" result and the turn goes on. */
export async function cancelAsk(
  deps: Pick<EngineDeps, 'store' | 'scheduler' | 'log' | 'now'>,
  input: { turnId: string; askId: string; userId: string },
): Promise<AskTransitionResult> {
  const result = await deps.store.cancelAsk(
    input.turnId,
    input.askId,
    input.userId,
    new Date(deps.now()).toISOString(),
  );
  if (result.status === 'completed') await queueResume(deps, input.turnId, input.askId);
  return result;
}

/**
 * The `timeout` job: resolves every unanswered question by the ask's policy (answers already given
 * stay), updates the shown message, and adds the resume. A no-op when the ask already resolved (then
 * it only makes sure the resume exists, which covers a crash between an answer and its resume).
 */
export async function timeoutAsk(
  deps: EngineDeps,
  turnId: string,
  askId: string,
): Promise<'resolved' | 'already-resolved' | 'not-due' | 'missing'> {
  const ask = await deps.store.getAsk(turnId, askId);
  if (!ask) return 'missing';
  if (ask.status === 'resolved') {
    await ensureResumed(deps, ask);
    return 'already-resolved';
  }
  const now = deps.now();
  if (ask.deadline === null || now < ask.deadline) {
    if (ask.deadline !== null) await deps.scheduler.timeout(turnId, askId, ask.deadline);
    return 'not-due';
  }
  const at = new Date(now).toISOString();
  const result = await deps.store.resolveOpenQuestions(
    turnId,
    askId,
    assumeOpenQuestions(ask.questions, ask.policy, at, 'timeout'),
  );
  if (result.status !== 'completed') {
    if (result.ask) await ensureResumed(deps, result.ask);
    return 'already-resolved';
  }
  deps.log.info({ turnId, askId }, 'ask resolved by timeout');
  deps.onCheckpoint?.('after-timeout-resolved', { turnId, askId });
  await queueResume(deps, turnId, askId);
  deps.observe?.({ type: 'ask-resolved', how: 'assumed', waitedMs: null });
  // Shown at once here; if this process dies first, the resume draws it (see resumeWithAnswers).
  if (result.ask) await syncAskQuietly(deps, result.ask);
  return 'resolved';
}

async function ensureResumed(
  deps: Pick<EngineDeps, 'store' | 'scheduler' | 'log' | 'now'>,
  ask: AskRecord,
): Promise<void> {
  const turn = await deps.store.getTurn(ask.turnId);
  if (turn?.status === 'paused' && turn.pendingAskId === ask.askId) {
    await queueResume(deps, ask.turnId, ask.askId, { recover: true });
  } else {
    await deps.store.unindexAsk(ask.turnId, ask.askId);
  }
}

/**
 * Adds the resume job (and notes it on the ask) before the caller acknowledges anything. Removing the
 * timeout job is only tidying, so it is not awaited: the answer-once step already decided, and a timeout
 * job that still fires finds the ask resolved and does nothing.
 */
async function queueResume(
  deps: Pick<EngineDeps, 'store' | 'scheduler' | 'log' | 'now'>,
  turnId: string,
  askId: string,
  options: { recover?: boolean } = {},
): Promise<void> {
  await Promise.all([
    deps.scheduler.resume(turnId, askId, options),
    deps.store.markResumeQueued(turnId, askId, deps.now()),
  ]);
  deps.scheduler.cancelTimeout(turnId, askId).catch((error: unknown) => {
    deps.log.debug({ turnId, askId, err: error }, 'timeout job not removed (already running or gone)');
  });
}

/**
 * Recovers work that a crash or a Redis restart may have lost: asks past their deadline with no
 * live timeout job are resolved now; asks never shown get their turn advanced; resolved asks whose
 * turn never resumed get their resume job. Run at start-up and every minute.
 * @returns counts of what it did.
 */
export async function sweep(
  deps: EngineDeps,
  options: { unshownGraceMs: number; limit?: number },
): Promise<{ timedOut: number; resumed: number; reshown: number }> {
  const counts = { timedOut: 0, resumed: 0, reshown: 0 };
  const limit = options.limit ?? 200;
  for (const { turnId, askId } of await deps.store.listOverdueAsks(
    deps.now(),
    options.unshownGraceMs,
    limit,
  )) {
    const ask = await deps.store.getAsk(turnId, askId);
    if (!ask) {
      await deps.store.unindexAsk(turnId, askId);
      continue;
    }
    if (ask.status === 'resolved') {
      await ensureResumed(deps, ask);
      counts.resumed++;
    } else if (ask.shownAt === null) {
      await deps.scheduler.resume(turnId, askId, { recover: true });
      counts.reshown++;
    } else if ((await timeoutAsk(deps, turnId, askId)) === 'resolved') {
      counts.timedOut++;
    }
  }
  for (const { turnId, askId } of await deps.store.listUnresumedAsks(limit)) {
    const ask = await deps.store.getAsk(turnId, askId);
    if (!ask) await deps.store.unindexAsk(turnId, askId);
    else {
      await ensureResumed(deps, ask);
      counts.resumed++;
    }
  }
  return counts;
}

/** Ends a running or paused turn with an error message (e.g. the model kept failing after every retry). */
export async function failTurn(deps: EngineDeps, turnId: string, text: string): Promise<void> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const turn = await deps.store.getTurn(turnId);
    if (!turn || turn.status === 'completed' || turn.status === 'failed') break;
    // A lost compare-and-set means the turn moved on meanwhile: read it again and decide again.
    if (await endTurn(deps, turn, withMissingResultsClosed(turn.messages), 'failed', text)) break;
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

function stepLimitText(limit: number): string {
  return `I stopped after ${limit} model steps without finishing (the step limit). Ask again with a narrower request.`;
}

function tooManyInvalidAsksText(count: number): string {
  return (
    `I stopped this turn: the agent made ${count} invalid ask_question calls in a row and could not form a ` +
    'question to show you. Please rephrase your request.'
  );
}
