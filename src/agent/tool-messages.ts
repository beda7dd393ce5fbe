import type { AssistantModelMessage, ModelMessage, ToolCallPart, ToolModelMessage, ToolResultPart } from 'ai';

type CallRef = Pick<ToolCallPart, 'toolCallId' | 'toolName'>;

function result(call: CallRef, type: 'text' | 'error-text', value: string): ToolResultPart {
  return {
    type: 'tool-result',
    toolCallId: call.toolCallId,
    toolName: call.toolName,
    output: { type, value },
  };
}

/** A tool result whose output is plain text. */
export function textResult(call: CallRef, text: string): ToolResultPart {
  return result(call, 'text', text);
}

/** A tool result the provider marks as an error (Anthropic `is_error: true`). */
export function errorResult(call: CallRef, text: string): ToolResultPart {
  return result(call, 'error-text', text);
}

/** The result given to a tool call that was not run because the turn paused for a question in the same step. */
export function heldBackResult(call: Pick<ToolCallPart, 'toolCallId' | 'toolName'>): ToolResultPart {
  return errorResult(
    call,
    `Not run: the turn paused for a question (ask_question) in the same step, so ${call.toolName} was held back. ` +
      'Nothing was executed. Call it again after reading the answer, if it is still needed.',
  );
}

/** The result given to a second `ask_question` call in one step. */
export function extraAskResult(call: Pick<ToolCallPart, 'toolCallId' | 'toolName'>): ToolResultPart {
  return errorResult(
    call,
    'Not asked: only one ask_question call is taken per step, and an earlier call in this step was already ' +
      'shown. Put every question (up to 3) in one ask_question call.',
  );
}

/** Tool-call parts of an assistant message, in order. */
export function toolCallsOf(message: ModelMessage): ToolCallPart[] {
  if (message.role !== 'assistant' || typeof message.content === 'string') return [];
  return message.content.filter((part): part is ToolCallPart => part.type === 'tool-call');
}

/** Tool-result parts of a tool message. */
export function toolResultsOf(message: ModelMessage): ToolResultPart[] {
  if (message.role !== 'tool') return [];
  return message.content.filter((part): part is ToolResultPart => part.type === 'tool-result');
}

/**
 * Orders results as their calls were made, so every provider sees them in call order.
 * Results for ids not in `calls` keep their relative order at the end.
 */
export function orderResults(
  calls: readonly ToolCallPart[],
  results: readonly ToolResultPart[],
): ToolResultPart[] {
  const position = new Map(calls.map((call, index) => [call.toolCallId, index]));
  return [...results].sort(
    (a, b) =>
      (position.get(a.toolCallId) ?? Number.MAX_SAFE_INTEGER) -
      (position.get(b.toolCallId) ?? Number.MAX_SAFE_INTEGER),
  );
}

/** A tool message holding `results` in call order. */
export function toolMessage(
  calls: readonly ToolCallPart[],
  results: readonly ToolResultPart[],
): ToolModelMessage {
  return { role: 'tool', content: orderResults(calls, results) };
}

/**
 * Violations of the pairing rule in a model conversation: every tool call of an assistant message must
 * have exactly one result in the tool message(s) that directly follow it, before the next assistant or
 * user message. `allowMissing` lists call ids allowed to lack a result (the pending `ask_question` call
 * of a paused turn). Returns human-readable problems; empty when the rule holds.
 */
export function pairingProblems(
  messages: readonly ModelMessage[],
  allowMissing: readonly string[] = [],
): string[] {
  const problems: string[] = [];
  for (let index = 0; index < messages.length; index++) {
    const message = messages[index] as ModelMessage;
    const calls = toolCallsOf(message);
    if (calls.length === 0) continue;
    const seen = new Map<string, number>();
    for (let next = index + 1; next < messages.length && messages[next]?.role === 'tool'; next++) {
      for (const result of toolResultsOf(messages[next] as ModelMessage)) {
        seen.set(result.toolCallId, (seen.get(result.toolCallId) ?? 0) + 1);
      }
    }
    for (const call of calls) {
      const count = seen.get(call.toolCallId) ?? 0;
      if (count === 0 && !allowMissing.includes(call.toolCallId)) {
        problems.push(`message ${index}: tool call ${call.toolCallId} (${call.toolName}) has no result`);
      }
      if (count > 1) problems.push(`message ${index}: tool call ${call.toolCallId} has ${count} results`);
    }
  }
  return problems;
}

/** True when `message` is an assistant message (type guard). */
export function isAssistant(message: ModelMessage): message is AssistantModelMessage {
  return message.role === 'assistant';
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
