import type { ReplayProvider } from './types.js';

/*
 * The tool-call / tool-result pairing rule each provider enforces on a request (CASES.md C27). A
 * request that breaks it is rejected with HTTP 400 by the real API, and every later resume of the same
 * saved transcript fails the same way, so tests assert it on every request the replay server records.
 */

type Json = Record<string, unknown>;

function isRecord(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function arrayOf(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

function idOf(value: unknown): string {
  return typeof value === 'string' ? value : String(value);
}

/**
 * Anthropic Messages (`body.messages`): for each assistant message with `tool_use` blocks, the very next
 * message is `role: "user"` and holds a `tool_result` for each of those ids; in a user message every
 * `tool_result` comes before any `text` block; no id has two `tool_result`s; no `tool_result` names an
 * id that the preceding assistant message did not use; no message has empty content (`[]` or `''`).
 */
function checkAnthropic(body: Json): string[] {
  const violations: string[] = [];
  const messages = arrayOf(body.messages);
  if (!Array.isArray(body.messages)) violations.push('body.messages is not an array');
  messages.forEach((message, index) => {
    if (!isRecord(message)) {
      violations.push(`messages[${index}] is not an object`);
      return;
    }
    const where = `messages[${index}] (${String(message.role)})`;
    if (Array.isArray(message.content) && message.content.length === 0) {
      violations.push(`${where} has an empty content array`);
    }
    if (message.content === '') violations.push(`${where} has empty string content`);
    const blocks = arrayOf(message.content).filter(isRecord);

    if (message.role === 'user') {
      const previous = messages[index - 1];
      const usedIds = new Set(
        isRecord(previous) && previous.role === 'assistant'
          ? arrayOf(previous.content)
              .filter(isRecord)
              .filter((block) => block.type === 'tool_use')
              .map((block) => idOf(block.id))
          : [],
      );
      let seenText = false;
      const resultIds = new Set<string>();
      for (const block of blocks) {
        if (block.type === 'text') seenText = true;
        if (block.type !== 'tool_result') continue;
        const id = idOf(block.tool_use_id);
        if (seenText) violations.push(`${where} has tool_result ${id} after a text block`);
        if (resultIds.has(id)) violations.push(`${where} has a duplicate tool_result for ${id}`);
        resultIds.add(id);
        if (!usedIds.has(id)) {
          violations.push(
            `${where} has tool_result ${id} with no matching tool_use in the previous assistant message`,
          );
        }
      }
    }

    if (message.role !== 'assistant') return;
    const toolUseIds = blocks.filter((block) => block.type === 'tool_use').map((block) => idOf(block.id));
    if (toolUseIds.length === 0) return;
    const next = messages[index + 1];
    if (!isRecord(next)) {
      violations.push(`${where} has tool_use ${toolUseIds.join(', ')} but no message follows it`);
      return;
    }
    if (next.role !== 'user') {
      violations.push(
        `${where} has tool_use ids but messages[${index + 1}] is ${String(next.role)}, not user`,
      );
      return;
    }
    const answered = new Set(
      arrayOf(next.content)
        .filter(isRecord)
        .filter((block) => block.type === 'tool_result')
        .map((block) => idOf(block.tool_use_id)),
    );
    for (const id of toolUseIds) {
      if (!answered.has(id))
        violations.push(`${where} tool_use ${id} has no tool_result in messages[${index + 1}]`);
    }
  });
  return violations;
}

/**
 * OpenAI Chat Completions (`body.messages`): each assistant message's `tool_calls` are followed,
 * before any other role, by exactly one `role: "tool"` message per call id; a `tool` message must
 * answer a call of the assistant message that opened its run.
 */
function checkOpenAIChat(body: Json): string[] {
  const violations: string[] = [];
  const messages = arrayOf(body.messages);
  if (!Array.isArray(body.messages)) violations.push('body.messages is not an array');
  let open: { index: number; pending: Set<string>; answered: Set<string> } | undefined;
  const closeRun = (): void => {
    if (open === undefined) return;
    for (const id of open.pending) {
      violations.push(`messages[${open.index}] (assistant) tool_call ${id} has no tool message after it`);
    }
    open = undefined;
  };
  messages.forEach((message, index) => {
    if (!isRecord(message)) {
      violations.push(`messages[${index}] is not an object`);
      return;
    }
    if (message.role === 'tool') {
      const id = idOf(message.tool_call_id);
      if (open === undefined) {
        violations.push(
          `messages[${index}] (tool) answers ${id} but does not follow an assistant message with tool_calls`,
        );
      } else if (open.answered.has(id)) {
        violations.push(`messages[${index}] (tool) is a duplicate result for ${id}`);
      } else if (!open.pending.has(id)) {
        violations.push(
          `messages[${index}] (tool) answers ${id}, which messages[${open.index}] did not call`,
        );
      } else {
        open.pending.delete(id);
        open.answered.add(id);
      }
      return;
    }
    closeRun();
    const calls = arrayOf(message.tool_calls).filter(isRecord);
    if (message.role === 'assistant' && calls.length > 0) {
      open = { index, pending: new Set(calls.map((call) => idOf(call.id))), answered: new Set() };
    }
  });
  closeRun();
  return violations;
}

/**
 * OpenAI Responses (`body.input`): each `function_call` item has exactly one `function_call_output`
 * with the same `call_id` after it; an output must follow its call (unless the request continues a
 * stored response through `previous_response_id` or `item_reference` items, whose calls are not visible).
 */
function checkOpenAIResponses(body: Json): string[] {
  const violations: string[] = [];
  const input = arrayOf(body.input);
  const hiddenCallsPossible =
    body.previous_response_id != null ||
    input.some((item) => isRecord(item) && item.type === 'item_reference');
  const calls = new Map<string, number>();
  const outputs = new Map<string, number[]>();
  input.forEach((item, index) => {
    if (!isRecord(item)) return;
    if (item.type === 'function_call') {
      const id = idOf(item.call_id);
      if (calls.has(id)) violations.push(`input[${index}] repeats function_call ${id}`);
      calls.set(id, index);
    }
    if (item.type === 'function_call_output') {
      const id = idOf(item.call_id);
      outputs.set(id, [...(outputs.get(id) ?? []), index]);
      if (!calls.has(id) && !hiddenCallsPossible) {
        violations.push(`input[${index}] function_call_output ${id} has no function_call before it`);
      }
    }
  });
  for (const [id, callIndex] of calls) {
    const after = (outputs.get(id) ?? []).filter((index) => index > callIndex);
    if (after.length === 0)
      violations.push(`input[${callIndex}] function_call ${id} has no function_call_output after it`);
    if (after.length > 1)
      violations.push(`function_call ${id} has ${after.length} function_call_output items`);
  }
  return violations;
}

/**
 * Returns every violation of the provider's tool-call pairing rule in a request body (empty = valid).
 * Messages name the offending index and id, e.g.
 * `messages[1] (assistant) tool_use toolu_A has no tool_result in messages[2]`.
 */
export function checkToolPairing(provider: ReplayProvider, body: unknown): string[] {
  if (!isRecord(body)) return ['request body is not a JSON object'];
  switch (provider) {
    case 'anthropic':
      return checkAnthropic(body);
    case 'openai-chat':
      return checkOpenAIChat(body);
    case 'openai-responses':
      return checkOpenAIResponses(body);
  }
}
