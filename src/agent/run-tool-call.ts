import type { ToolCallPart, ToolResultPart } from 'ai';
import type { EngineDeps } from './engine-deps.js';
import { activityTarget, toolTask, turnStream } from './reply-stream.js';
import { errorResult, textResult } from './tool-messages.js';
import type { TurnRecord } from './turn-record.js';

/** How long a tool call's claim and outcome are kept, in ms (8 days: past the longest ask of 7 days). */
export const TOOL_CALL_RECORD_TTL_MS = 8 * 24 * 3600 * 1000;

/**
 * {@link runToolCall} for a running turn, shown while it runs: a status line in the turn's stream
 * ("Running x", then "Ran x" or "x failed") and the turn's activity ("is running x").
 * @throws only when the store fails, like {@link runToolCall}.
 */
export async function runTurnToolCall(
  deps: EngineDeps,
  turn: TurnRecord,
  call: ToolCallPart,
  prefix = '',
): Promise<ToolResultPart> {
  const stream = turnStream(deps, turn);
  const target = activityTarget(turn);
  await stream?.task(toolTask(call, 'running'));
  await deps.surface.setActivity(target, { kind: 'tool', toolName: call.toolName });
  const result = await runToolCall(deps, turn.turnId, call, prefix);
  const failed = result.output.type === 'error-text' || result.output.type === 'error-json';
  await stream?.task(toolTask(call, failed ? 'error' : 'ok'));
  await deps.surface.setActivity(target, { kind: 'thinking' });
  return result;
}

/**
 * Runs one tool call at most once, whatever crashes and retries happen around it: the run is claimed in
 * the store before the tool starts and its outcome stored after, so
 * - a call that already finished gives its stored result again (the tool is not called);
 * - a call that started in a process that died gives "started but its outcome is unknown", unless the
 *   tool's server marks it idempotent (`idempotentHint`), which is run again.
 * A tool's error becomes an error result. `prefix` goes before the output (e.g. "approved by …").
 * @throws only when the store fails (the job retries: the claim then tells what happened).
 */
export async function runToolCall(
  deps: EngineDeps,
  turnId: string,
  call: ToolCallPart,
  prefix = '',
): Promise<ToolResultPart> {
  const tool = deps.tools.get(call.toolName);
  if (!tool) return errorResult(call, `Unknown tool ${call.toolName}.`);
  const claim = await deps.store.claimToolCall(turnId, call.toolCallId, TOOL_CALL_RECORD_TTL_MS);
  if (!claim.claimed) {
    if (claim.run.state === 'finished')
      return (claim.run.isError ? errorResult : textResult)(call, claim.run.output);
    if (tool.hints?.idempotent !== true) {
      deps.log.warn(
        { turnId, tool: call.toolName, toolCallId: call.toolCallId },
        'tool call outcome unknown; not run again',
      );
      return errorResult(
        call,
        `${call.toolName} was started, but its outcome is unknown: the process running it stopped before it finished. It was not run again. Check its effect before you call it again.`,
      );
    }
    deps.log.info(
      { turnId, tool: call.toolName, toolCallId: call.toolCallId },
      'running an idempotent tool call again',
    );
  }
  deps.onCheckpoint?.('during-tool-call', { turnId });
  let outcome: { output: string; isError: boolean };
  try {
    const output = await tool.execute(call.input, {
      turnId,
      toolCallId: call.toolCallId,
      signal: deps.abortSignal,
    });
    outcome = {
      output: prefix + (typeof output === 'string' ? output : JSON.stringify(output ?? null)),
      isError: false,
    };
  } catch (error) {
    deps.log.warn({ turnId, tool: call.toolName, err: error }, 'tool failed');
    outcome = {
      output: `${prefix}Tool ${call.toolName} failed: ${error instanceof Error ? error.message : String(error)}`,
      isError: true,
    };
  }
  await deps.store.finishToolCall(turnId, call.toolCallId, outcome, TOOL_CALL_RECORD_TTL_MS);
  return (outcome.isError ? errorResult : textResult)(call, outcome.output);
}
