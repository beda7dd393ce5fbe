import { chunkText, sseEvent } from './chunk-text.js';
import { hasText, type RenderedBody, type ResolvedStep } from './resolved-step.js';

/*
 * Anthropic Messages API wire format, modelled on test/fixtures/models/anthropic/*.
 * Non-streaming: one `message` object. Streaming: message_start, per block content_block_start /
 * content_block_delta (text_delta | input_json_delta, the first partial_json empty) / content_block_stop,
 * a ping after the first text block starts, message_delta (stop_reason, final usage), message_stop.
 */

function stopReason(step: ResolvedStep): 'tool_use' | 'end_turn' {
  return step.toolCalls.length > 0 ? 'tool_use' : 'end_turn';
}

function contentBlocks(step: ResolvedStep): unknown[] {
  const blocks: unknown[] = [];
  if (hasText(step)) blocks.push({ type: 'text', text: step.text });
  for (const call of step.toolCalls) {
    blocks.push({ type: 'tool_use', id: call.id, name: call.name, input: call.input });
  }
  return blocks;
}

const CACHE_CREATION = { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 0 };

/** The non-streaming `message` object, pretty-printed like the fixtures. */
export function renderAnthropicJson(step: ResolvedStep): RenderedBody {
  const message = {
    id: step.id,
    type: 'message',
    role: 'assistant',
    model: step.model,
    content: contentBlocks(step),
    stop_reason: stopReason(step),
    stop_sequence: null,
    usage: {
      input_tokens: step.usage.inputTokens,
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 0,
      cache_creation: CACHE_CREATION,
      output_tokens: step.usage.outputTokens,
      service_tier: 'standard',
    },
  };
  return { contentType: 'application/json', body: `${JSON.stringify(message, null, 2)}\n` };
}

/** The `stream: true` event stream. */
export function renderAnthropicSse(step: ResolvedStep): RenderedBody {
  const events: string[] = [];
  const emit = (data: Record<string, unknown> & { type: string }): void => {
    events.push(sseEvent(JSON.stringify(data), data.type));
  };
  emit({
    type: 'message_start',
    message: {
      model: step.model,
      id: step.id,
      type: 'message',
      role: 'assistant',
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: {
        input_tokens: step.usage.inputTokens,
        cache_creation_input_tokens: 0,
        cache_read_input_tokens: 0,
        cache_creation: CACHE_CREATION,
        output_tokens: 1,
        service_tier: 'standard',
      },
    },
  });
  let index = 0;
  if (hasText(step)) {
    emit({ type: 'content_block_start', index, content_block: { type: 'text', text: '' } });
    emit({ type: 'ping' });
    for (const piece of chunkText(step.text)) {
      emit({ type: 'content_block_delta', index, delta: { type: 'text_delta', text: piece } });
    }
    emit({ type: 'content_block_stop', index });
    index += 1;
  }
  for (const call of step.toolCalls) {
    emit({
      type: 'content_block_start',
      index,
      content_block: { type: 'tool_use', id: call.id, name: call.name, input: {} },
    });
    for (const piece of ['', ...chunkText(JSON.stringify(call.input))]) {
      emit({ type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: piece } });
    }
    emit({ type: 'content_block_stop', index });
    index += 1;
  }
  emit({
    type: 'message_delta',
    delta: { stop_reason: stopReason(step), stop_sequence: null },
    usage: {
      input_tokens: step.usage.inputTokens,
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 0,
      output_tokens: step.usage.outputTokens,
    },
  });
  emit({ type: 'message_stop' });
  return { contentType: 'text/event-stream', body: events.join('') };
}
