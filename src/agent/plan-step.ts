import type { ModelMessage, ToolCallPart, ToolResultPart } from 'ai';
import { decodeAskArguments } from '../ask/decode-ask-arguments.js';
import { formatAskError } from '../ask/format-ask-error.js';
import type { NormalizedAsk } from '../ask/types.js';
import { errorResult, extraAskResult, heldBackResult, toolCallsOf, toolResultsOf } from './tool-messages.js';

/** What the engine does after a model step. Pure data. */
export type StepPlan =
  | {
      kind: 'final';
      /** The assistant message(s) of the step. */
      messages: ModelMessage[];
      text: string;
    }
  | {
      kind: 'pause';
      /** The assistant message of the step (its `ask_question` call stays without a result until resume). */
      assistant: ModelMessage;
      askCall: ToolCallPart;
      ask: NormalizedAsk;
      ignoredKeys: string[];
      /** Results for every other call of the step (held back, SDK errors, invalid or extra asks). */
      otherResults: ToolResultPart[];
      /** Invalid `ask_question` calls in this step. */
      invalidAsks: number;
    }
  | {
      kind: 'tools';
      assistant: ModelMessage;
      /** Calls the engine must execute, in order. */
      toRun: ToolCallPart[];
      /** Results already decided (SDK answers to invalid calls, invalid-ask errors). */
      decided: ToolResultPart[];
      calls: ToolCallPart[];
      invalidAsks: number;
    };

/**
 * Decides what a model step means.
 * - No tool calls: the text is the final reply.
 * - An `ask_question` call that decodes: pause on it. Other calls of the step are not run: each gets a
 *   held-back result (or keeps the SDK's own error result). A second valid `ask_question` in the same
 *   step gets an error result asking to batch questions into one call (we do not merge: merged asks
 *   could exceed 3 questions and would blur which call the answer belongs to).
 * - Otherwise: invalid `ask_question` calls get an error result naming the field, limit and value; the
 *   other calls are to be run.
 * Results the SDK already produced (unknown tool, schema failure) are kept, never duplicated; for
 * `ask_question` our decoder's verdict replaces the SDK's.
 */
export function planStep(
  responseMessages: readonly ModelMessage[],
  askToolName: string,
  text: string,
): StepPlan {
  const assistant = responseMessages.find((message) => message.role === 'assistant');
  const calls = assistant ? toolCallsOf(assistant) : [];
  if (!assistant || calls.length === 0) {
    return { kind: 'final', messages: responseMessages.filter((m) => m.role === 'assistant'), text };
  }
  const sdkResults = new Map<string, ToolResultPart>();
  for (const message of responseMessages) {
    for (const result of toolResultsOf(message)) sdkResults.set(result.toolCallId, result);
  }

  let invalidAsks = 0;
  let pauseOn: { call: ToolCallPart; ask: NormalizedAsk; ignoredKeys: string[] } | null = null;
  const askResults = new Map<string, ToolResultPart>();
  for (const call of calls) {
    if (call.toolName !== askToolName) continue;
    if (pauseOn) {
      askResults.set(call.toolCallId, extraAskResult(call));
      continue;
    }
    const decoded = decodeAskArguments(call.input);
    if (decoded.ok) {
      pauseOn = { call, ask: decoded.ask, ignoredKeys: decoded.ignoredKeys };
    } else {
      invalidAsks++;
      askResults.set(call.toolCallId, errorResult(call, formatAskError(decoded.issues)));
    }
  }

  if (pauseOn) {
    const otherResults: ToolResultPart[] = [];
    for (const call of calls) {
      if (call.toolCallId === pauseOn.call.toolCallId) continue;
      otherResults.push(
        askResults.get(call.toolCallId) ?? sdkResults.get(call.toolCallId) ?? heldBackResult(call),
      );
    }
    return {
      kind: 'pause',
      assistant,
      askCall: pauseOn.call,
      ask: pauseOn.ask,
      ignoredKeys: pauseOn.ignoredKeys,
      otherResults,
      invalidAsks,
    };
  }

  const decided: ToolResultPart[] = [];
  const toRun: ToolCallPart[] = [];
  for (const call of calls) {
    const known = askResults.get(call.toolCallId) ?? sdkResults.get(call.toolCallId);
    if (known) decided.push(known);
    else toRun.push(call);
  }
  return { kind: 'tools', assistant, toRun, decided, calls, invalidAsks };
}
