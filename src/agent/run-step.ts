import type { ModelMessage, ToolCallPart, ToolResultPart } from 'ai';
import { ASK_RECORD_VERSION, type AskDefinition, openAskState } from '../asks/types.js';
import {
  approvalCallOf,
  approvalQuestion,
  approversPolicy,
  type GatedCall,
  MAX_APPROVAL_CALLS,
} from './approval-ask.js';
import { endTurn } from './end-turn.js';
import type { EngineDeps } from './engine-deps.js';
import { runModelStep } from './model-step.js';
import { planStep } from './plan-step.js';
import { turnStream } from './reply-stream.js';
import { runTurnToolCall } from './run-tool-call.js';
import { errorResult, toolCallsOf, toolMessage, toolResultsOf, withToolResult } from './tool-messages.js';
import type { ToolApproval } from './tool-registry.js';
import type { KnownTurn, TurnRecord } from './turn-record.js';

/**
 * Runs one model step of a running turn and commits what it decided: a final reply, a pause on an ask, or
 * tool results. Returns the turn as committed (with the ask it paused on), or null when a compare-and-set
 * lost (the caller reads the turn again).
 */
export async function runOneStep(deps: EngineDeps, turn: TurnRecord): Promise<KnownTurn | null> {
  const pending = pendingToolCalls(turn.messages);
  if (pending) return runPendingCalls(deps, turn, pending.calls, pending.text);
  if (turn.stepCount >= deps.config.stepLimit)
    return ended(await endTurn(deps, turn, turn.messages, 'failed', stepLimitText(deps.config.stepLimit)));
  let step: Awaited<ReturnType<typeof runModelStep>>;
  try {
    const stream = turnStream(deps, turn);
    step = await runModelStep({
      model: deps.model,
      system: deps.config.systemPrompt,
      messages: turn.messages,
      tools: deps.tools,
      askTool: deps.askTool,
      abortSignal: deps.abortSignal,
      ...(stream ? { onText: (delta: string) => stream.text(delta) } : {}),
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
    return ended(
      await endTurn(
        deps,
        { ...turn, stepCount: turn.stepCount + 1 },
        [...turn.messages, ...plan.messages],
        'completed',
        text,
      ),
    );
  }

  if (plan.kind === 'pause') {
    const messages: ModelMessage[] = [...turn.messages, plan.assistant];
    if (plan.otherResults.length > 0)
      messages.push(toolMessage(toolCallsOf(plan.assistant), plan.otherResults));
    return pauseOnAsk(
      deps,
      { ...turn, messages, stepCount: turn.stepCount + 1, invalidAskCount },
      turn.rev,
      {
        toolCallId: plan.askCall.toolCallId,
        questions: plan.ask.questions,
        answerers: deps.config.answerers,
        timeoutMs: deps.config.askTimeoutMs,
        policy: deps.config.timeoutPolicy,
        followUp: deps.config.followUp,
      },
      { questions: plan.ask.questions.length },
      'turn paused on ask',
    );
  }

  const tooManyInvalid = invalidAskCount >= deps.config.maxInvalidAsks;
  if (tooManyInvalid) {
    const notRun = plan.toRun.map((call) =>
      errorResult(call, 'Not run: the turn ended after too many invalid ask_question calls.'),
    );
    return ended(
      await endTurn(
        deps,
        { ...turn, stepCount: turn.stepCount + 1, invalidAskCount },
        [...turn.messages, plan.assistant, toolMessage(plan.calls, [...plan.decided, ...notRun])],
        'failed',
        tooManyInvalidAsksText(invalidAskCount),
      ),
    );
  }
  // The step's calls are stored before any of them runs: a retry after a crash finishes these calls (each
  // at most once, by its claim) instead of asking the model again, which would make new calls.
  const stored: TurnRecord = {
    ...turn,
    messages: [
      ...turn.messages,
      plan.assistant,
      ...(plan.decided.length > 0 ? [toolMessage(plan.calls, plan.decided)] : []),
    ],
    stepCount: turn.stepCount + 1,
    invalidAskCount,
    updatedAt: new Date(deps.now()).toISOString(),
  };
  const committed = await deps.store.commitTurn(stored, turn.rev);
  if (!committed.ok) return null;
  if (plan.toRun.length === 0) return { turn: { ...stored, rev: committed.rev } };
  return runPendingCalls(deps, { ...stored, rev: committed.rev }, plan.toRun, step.text);
}

/** An ended turn as {@link KnownTurn} (null: its commit lost). */
function ended(turn: TurnRecord | null): KnownTurn | null {
  return turn === null ? null : { turn };
}

/**
 * The calls of the turn's last assistant message that have no result yet (a step stored before its calls
 * ran, and a crash in between), with that message's text; null when there are none.
 */
export function pendingToolCalls(
  messages: readonly ModelMessage[],
): { calls: ToolCallPart[]; text: string } | null {
  const index = messages.findLastIndex((message) => message.role === 'assistant');
  if (index < 0) return null;
  const assistant = messages[index] as ModelMessage;
  const answered = new Set(
    messages.slice(index + 1).flatMap((m) => toolResultsOf(m).map((r) => r.toolCallId)),
  );
  const calls = toolCallsOf(assistant).filter((call) => !answered.has(call.toolCallId));
  if (calls.length === 0) return null;
  const text =
    typeof assistant.content === 'string'
      ? assistant.content
      : assistant.content.map((part) => (part.type === 'text' ? part.text : '')).join('');
  return { calls, text };
}

/**
 * Runs a stored step's calls that have no result yet: those that need no approval run now (each at most
 * once); when some need approval, the turn pauses on one approval ask for them; otherwise the results are
 * committed and the turn goes on to its next model step. Returns the turn as committed, or null when the
 * compare-and-set lost.
 */
export async function runPendingCalls(
  deps: EngineDeps,
  turn: TurnRecord,
  calls: readonly ToolCallPart[],
  reason: string,
): Promise<KnownTurn | null> {
  let messages = turn.messages;
  const gated: GatedCall[] = [];
  for (const call of calls) {
    const tool = deps.tools.get(call.toolName);
    let result: ToolResultPart | null = null;
    if (call.toolName === deps.askTool.name)
      result = errorResult(call, 'Not asked: the step was interrupted.');
    else if (tool?.approval) {
      // One approval decides calls of one rule only (its approvers and timeout hold for every question),
      // at most MAX_APPROVAL_CALLS of them; the others stay pending and get their own approval after it.
      const first = gated[0];
      if (gated.length < MAX_APPROVAL_CALLS && (!first || sameApproval(first.tool.approval, tool.approval)))
        gated.push({ call, tool: { ...tool, approval: tool.approval } });
      continue;
    }
    // Calls that need no approval run now, before the turn pauses for the others.
    else result = await runTurnToolCall(deps, turn, call);
    if (result) messages = withToolResult(messages, result);
  }
  if (gated.length > 0) return pauseForApproval(deps, turn, messages, gated, reason);
  const next: TurnRecord = { ...turn, messages, updatedAt: new Date(deps.now()).toISOString() };
  const committed = await deps.store.commitTurn(next, turn.rev);
  return committed.ok ? { turn: { ...next, rev: committed.rev } } : null;
}

/**
 * Pauses the turn on one approval ask for the step's gated calls (one question each, decided on its own);
 * none of them has run. They all need the same approval (one rule's approvers and timeout).
 */
async function pauseForApproval(
  deps: EngineDeps,
  turn: TurnRecord,
  messages: ModelMessage[],
  gated: GatedCall[],
  reason: string,
): Promise<KnownTurn | null> {
  const first = gated[0] as GatedCall;
  return pauseOnAsk(
    deps,
    { ...turn, messages },
    turn.rev,
    {
      toolCallId: first.call.toolCallId,
      questions: gated.map((call) => approvalQuestion(call, reason)),
      answerers: approversPolicy(first.tool.approval),
      timeoutMs: first.tool.approval.timeoutMs ?? deps.config.askTimeoutMs,
      policy: 'recommended-or-first',
      approval: { calls: gated.map(approvalCallOf), reason: reason.trim() || null },
      followUp: {
        ...deps.config.followUp,
        quorum: first.tool.approval.quorum,
        escalation: first.tool.approval.escalation ?? deps.config.followUp.escalation,
      },
    },
    { tools: gated.map((g) => g.call.toolName) },
    'turn paused for approval',
  );
}

/**
 * Pauses `turn` (already holding the step's messages and counts) on a new ask of its own, waiting on the
 * call `ask.toolCallId`: the turn and the ask are stored in one step (`pauseTurn`, a CAS on `expectedRev`).
 * Returns the paused turn and its ask as stored, or null when the compare-and-set lost.
 */
async function pauseOnAsk(
  deps: EngineDeps,
  turn: TurnRecord,
  expectedRev: number,
  ask: Pick<AskDefinition, 'questions' | 'answerers' | 'timeoutMs' | 'policy' | 'approval' | 'followUp'> & {
    toolCallId: string;
  },
  logFields: Record<string, unknown>,
  logText: string,
): Promise<KnownTurn | null> {
  const askId = deps.newId();
  const at = new Date(deps.now()).toISOString();
  const { toolCallId, ...fields } = ask;
  const definition: AskDefinition = {
    version: ASK_RECORD_VERSION,
    askId,
    scope: turn.turnId,
    waiter: { kind: 'turn', turnId: turn.turnId, toolCallId },
    ordinal: turn.askCount,
    conversation: turn.conversation,
    requestedBy: turn.requestedBy,
    createdAt: at,
    ...fields,
  };
  const next: TurnRecord = {
    ...turn,
    status: 'paused',
    pendingAskId: askId,
    askCount: turn.askCount + 1,
    updatedAt: at,
  };
  const committed = await deps.store.pauseTurn(next, expectedRev, definition);
  if (!committed.ok) return null;
  deps.log.info({ turnId: turn.turnId, askId, ...logFields }, logText);
  deps.onCheckpoint?.('after-pause-stored', { turnId: turn.turnId, askId });
  return { turn: { ...next, rev: committed.rev }, ask: { ...definition, ...openAskState(definition) } };
}

/** Whether two calls need the same approval (the same approvers, timeout and timeout outcome). */
function sameApproval(a: ToolApproval, b: ToolApproval): boolean {
  return (
    a.timeoutMs === b.timeoutMs &&
    a.onTimeout === b.onTimeout &&
    JSON.stringify(a.approvers === null ? null : [...a.approvers].sort()) ===
      JSON.stringify(b.approvers === null ? null : [...b.approvers].sort())
  );
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
