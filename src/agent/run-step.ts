import type { ModelMessage, ToolCallPart, ToolResultPart } from 'ai';
import { ASK_RECORD_VERSION, type AskDefinition } from '../asks/types.js';
import { endTurn } from './end-turn.js';
import type { EngineDeps } from './engine-deps.js';
import { runModelStep } from './model-step.js';
import { planStep } from './plan-step.js';
import { errorResult, textResult, toolCallsOf, toolMessage } from './tool-messages.js';
import type { TurnRecord } from './turn-record.js';

/** Runs one model step of a running turn and commits what it decided: a final reply, a pause on an ask, or tool results. */
export async function runOneStep(deps: EngineDeps, turn: TurnRecord): Promise<void> {
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
      scope: turn.turnId,
      waiter: { kind: 'turn', turnId: turn.turnId, toolCallId: plan.askCall.toolCallId },
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
  if (tool.approval) {
    // The approval gate is not built yet: a call that needs one is never run without it.
    deps.log.warn(
      { turnId, tool: call.toolName, reason: tool.approval.reason },
      'tool call needs approval; not run',
    );
    return errorResult(
      call,
      `Not run: ${call.toolName} needs a person's approval (${tool.approval.reason === 'rule' ? 'an approval rule of the config file' : 'its server marks it destructive'}), and this holdpoint cannot ask for approvals yet. Tell the user what you wanted to run, so they can run it themselves.`,
    );
  }
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

function stepLimitText(limit: number): string {
  return `I stopped after ${limit} model steps without finishing (the step limit). Ask again with a narrower request.`;
}

function tooManyInvalidAsksText(count: number): string {
  return (
    `I stopped this turn: the agent made ${count} invalid ask_question calls in a row and could not form a ` +
    'question to show you. Please rephrase your request.'
  );
}
