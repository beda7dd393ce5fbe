import { chunkText, sseEvent } from './chunk-text.js';
import { hasText, type RenderedBody, type ResolvedStep } from './resolved-step.js';

/*
 * OpenAI Responses API wire format, modelled on test/fixtures/models/openai-responses/*.
 * Non-streaming: a `response` object with `output[]` = a `message` item (`output_text`) and
 * `function_call` items. Streaming: response.created, response.in_progress, per item
 * output_item.added … output_item.done (text: content_part.added, output_text.delta…,
 * output_text.done, content_part.done; calls: function_call_arguments.delta…, …done),
 * response.completed; every event carries `sequence_number`.
 */

function messageItem(step: ResolvedStep & { text: string }, status: 'in_progress' | 'completed'): unknown {
  return {
    id: step.messageItemId,
    type: 'message',
    status,
    role: 'assistant',
    content: status === 'completed' ? [outputTextPart(step.text)] : [],
  };
}

function outputTextPart(text: string): unknown {
  return { type: 'output_text', annotations: [], logprobs: [], text };
}

function functionCallItem(
  call: ResolvedStep['toolCalls'][number],
  status: 'in_progress' | 'completed',
): Record<string, unknown> {
  return {
    id: call.itemId,
    type: 'function_call',
    status,
    arguments: status === 'completed' ? JSON.stringify(call.input) : '',
    call_id: call.id,
    name: call.name,
  };
}

function outputItems(step: ResolvedStep): unknown[] {
  const items: unknown[] = [];
  if (hasText(step)) items.push(messageItem(step, 'completed'));
  for (const call of step.toolCalls) items.push(functionCallItem(call, 'completed'));
  return items;
}

function responseObject(step: ResolvedStep, status: 'in_progress' | 'completed'): Record<string, unknown> {
  const done = status === 'completed';
  return {
    id: step.id,
    object: 'response',
    created_at: step.created,
    status,
    background: false,
    error: null,
    incomplete_details: null,
    instructions: null,
    max_output_tokens: null,
    max_tool_calls: null,
    model: step.model,
    output: done ? outputItems(step) : [],
    parallel_tool_calls: true,
    previous_response_id: null,
    prompt_cache_key: null,
    reasoning: { effort: null, summary: null },
    safety_identifier: null,
    service_tier: 'default',
    store: true,
    temperature: 1,
    text: { format: { type: 'text' }, verbosity: 'medium' },
    tool_choice: 'auto',
    tools: step.tools,
    top_logprobs: 0,
    top_p: 1,
    truncation: 'disabled',
    usage: done
      ? {
          input_tokens: step.usage.inputTokens,
          input_tokens_details: { cached_tokens: 0 },
          output_tokens: step.usage.outputTokens,
          output_tokens_details: { reasoning_tokens: 0 },
          total_tokens: step.usage.inputTokens + step.usage.outputTokens,
        }
      : null,
    user: null,
    metadata: {},
  };
}

/** The non-streaming `response` object, pretty-printed like the fixtures. */
export function renderOpenAIResponsesJson(step: ResolvedStep): RenderedBody {
  return {
    contentType: 'application/json',
    body: `${JSON.stringify(responseObject(step, 'completed'), null, 2)}\n`,
  };
}

/** The `stream: true` event stream. */
export function renderOpenAIResponsesSse(step: ResolvedStep): RenderedBody {
  const events: string[] = [];
  let sequence = 0;
  const emit = (type: string, fields: Record<string, unknown>): void => {
    events.push(sseEvent(JSON.stringify({ type, sequence_number: sequence, ...fields }), type));
    sequence += 1;
  };
  emit('response.created', { response: responseObject(step, 'in_progress') });
  emit('response.in_progress', { response: responseObject(step, 'in_progress') });
  let outputIndex = 0;
  if (hasText(step)) {
    const itemId = step.messageItemId;
    const part = { item_id: itemId, output_index: outputIndex, content_index: 0 };
    emit('response.output_item.added', { output_index: outputIndex, item: messageItem(step, 'in_progress') });
    emit('response.content_part.added', { ...part, part: outputTextPart('') });
    for (const piece of chunkText(step.text)) {
      emit('response.output_text.delta', { ...part, delta: piece, logprobs: [] });
    }
    emit('response.output_text.done', { ...part, text: step.text, logprobs: [] });
    emit('response.content_part.done', { ...part, part: outputTextPart(step.text) });
    emit('response.output_item.done', { output_index: outputIndex, item: messageItem(step, 'completed') });
    outputIndex += 1;
  }
  for (const call of step.toolCalls) {
    const where = { item_id: call.itemId, output_index: outputIndex };
    const args = JSON.stringify(call.input);
    emit('response.output_item.added', {
      output_index: outputIndex,
      item: functionCallItem(call, 'in_progress'),
    });
    for (const piece of chunkText(args))
      emit('response.function_call_arguments.delta', { ...where, delta: piece });
    emit('response.function_call_arguments.done', { ...where, arguments: args });
    emit('response.output_item.done', {
      output_index: outputIndex,
      item: functionCallItem(call, 'completed'),
    });
    outputIndex += 1;
  }
  emit('response.completed', { response: responseObject(step, 'completed') });
  return { contentType: 'text/event-stream', body: events.join('') };
}
