import type { ReplayProvider } from '../../support/model-replay/model-replay.js';

type Json = Record<string, unknown>;

/** One tool result as a provider request carries it. */
export interface WireToolResult {
  /** `tool_use_id` (Anthropic) or `tool_call_id` / `call_id` (OpenAI). */
  id: string;
  /** The result text (Anthropic text blocks joined). */
  text: string;
  /** Anthropic `is_error`; OpenAI has no such flag (null). */
  isError: boolean | null;
}

/** One tool call as a provider request carries it (from the model's earlier answer). */
export interface WireToolCall {
  id: string;
  name: string;
}

function isRecord(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function records(value: unknown): Json[] {
  return Array.isArray(value) ? value.filter(isRecord) : [];
}

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  return records(content)
    .map((part) => (typeof part.text === 'string' ? part.text : ''))
    .join('');
}

/**
 * The tool results at the end of a model request, in order: Anthropic: the `tool_result` blocks of the
 * last message when it is a user message; Chat: the trailing `role: "tool"` messages; Responses: the
 * trailing `function_call_output` items. Empty when the request does not end with tool results.
 */
export function trailingToolResults(provider: ReplayProvider, body: unknown): WireToolResult[] {
  if (!isRecord(body)) return [];
  if (provider === 'anthropic') {
    const last = records(body.messages).at(-1);
    if (last?.role !== 'user') return [];
    return records(last.content)
      .filter((block) => block.type === 'tool_result')
      .map((block) => ({
        id: String(block.tool_use_id),
        text: textOf(block.content),
        isError: block.is_error === true,
      }));
  }
  const items = provider === 'openai-chat' ? records(body.messages) : records(body.input);
  const results: WireToolResult[] = [];
  for (let index = items.length - 1; index >= 0; index--) {
    const item = items[index] as Json;
    if (provider === 'openai-chat' && item.role === 'tool') {
      results.unshift({ id: String(item.tool_call_id), text: textOf(item.content), isError: null });
    } else if (provider === 'openai-responses' && item.type === 'function_call_output') {
      results.unshift({ id: String(item.call_id), text: textOf(item.output), isError: null });
    } else break;
  }
  return results;
}

/** The tool calls of the last assistant turn in a request (Anthropic `tool_use`, Chat `tool_calls`, Responses `function_call`). */
export function lastToolCalls(provider: ReplayProvider, body: unknown): WireToolCall[] {
  if (!isRecord(body)) return [];
  if (provider === 'anthropic') {
    const assistant = records(body.messages)
      .filter((message) => message.role === 'assistant')
      .at(-1);
    return records(assistant?.content)
      .filter((block) => block.type === 'tool_use')
      .map((block) => ({ id: String(block.id), name: String(block.name) }));
  }
  if (provider === 'openai-chat') {
    const assistant = records(body.messages)
      .filter((message) => message.role === 'assistant')
      .at(-1);
    return records(assistant?.tool_calls).map((call) => ({
      id: String(call.id),
      name: String(isRecord(call.function) ? call.function.name : ''),
    }));
  }
  const input = records(body.input);
  const calls: WireToolCall[] = [];
  for (let index = input.length - 1; index >= 0; index--) {
    const item = input[index] as Json;
    if (item.type === 'function_call') calls.unshift({ id: String(item.call_id), name: String(item.name) });
    else if (calls.length > 0) break;
  }
  return calls;
}
