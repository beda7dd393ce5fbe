import { chunkText, sseEvent } from './chunk-text.js';
import { hasText, type RenderedBody, type ResolvedStep } from './resolved-step.js';

/*
 * OpenAI Chat Completions wire format, modelled on test/fixtures/models/openai-chat/*.
 * Non-streaming: a `chat.completion`. Streaming: `chat.completion.chunk` lines (role chunk, content
 * deltas, per tool call a first delta with index/id/type/name and empty arguments then argument
 * fragments), a finish_reason chunk, a usage chunk with `choices: []`, `data: [DONE]`.
 */

const SYSTEM_FINGERPRINT = 'fp_51e1070cf2';

function finishReason(step: ResolvedStep): 'tool_calls' | 'stop' {
  return step.toolCalls.length > 0 ? 'tool_calls' : 'stop';
}

function usage(step: ResolvedStep): unknown {
  return {
    prompt_tokens: step.usage.inputTokens,
    completion_tokens: step.usage.outputTokens,
    total_tokens: step.usage.inputTokens + step.usage.outputTokens,
    prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 },
    completion_tokens_details: {
      reasoning_tokens: 0,
      audio_tokens: 0,
      accepted_prediction_tokens: 0,
      rejected_prediction_tokens: 0,
    },
  };
}

/** The non-streaming `chat.completion`, pretty-printed like the fixtures. */
export function renderOpenAIChatJson(step: ResolvedStep): RenderedBody {
  const message: Record<string, unknown> = {
    role: 'assistant',
    content: hasText(step) ? step.text : null,
    refusal: null,
    annotations: [],
  };
  if (step.toolCalls.length > 0) {
    message.tool_calls = step.toolCalls.map((call) => ({
      id: call.id,
      type: 'function',
      function: { name: call.name, arguments: JSON.stringify(call.input) },
    }));
  }
  const completion = {
    id: step.id,
    object: 'chat.completion',
    created: step.created,
    model: step.model,
    choices: [{ index: 0, message, logprobs: null, finish_reason: finishReason(step) }],
    usage: usage(step),
    service_tier: 'default',
    system_fingerprint: SYSTEM_FINGERPRINT,
  };
  return { contentType: 'application/json', body: `${JSON.stringify(completion, null, 2)}\n` };
}

/** The `stream: true` chunk stream (the SDK sends `stream_options.include_usage: true`). */
export function renderOpenAIChatSse(step: ResolvedStep): RenderedBody {
  const events: string[] = [];
  const chunk = (delta: unknown, finish: string | null = null): void => {
    events.push(
      sseEvent(
        JSON.stringify({
          id: step.id,
          object: 'chat.completion.chunk',
          created: step.created,
          model: step.model,
          service_tier: 'default',
          system_fingerprint: SYSTEM_FINGERPRINT,
          choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
          usage: null,
        }),
      ),
    );
  };
  chunk({ role: 'assistant', content: hasText(step) ? '' : null, refusal: null });
  if (hasText(step)) {
    for (const piece of chunkText(step.text)) chunk({ content: piece });
  }
  step.toolCalls.forEach((call, index) => {
    chunk({
      tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.name, arguments: '' } }],
    });
    for (const piece of chunkText(JSON.stringify(call.input))) {
      chunk({ tool_calls: [{ index, function: { arguments: piece } }] });
    }
  });
  chunk({}, finishReason(step));
  events.push(
    sseEvent(
      JSON.stringify({
        id: step.id,
        object: 'chat.completion.chunk',
        created: step.created,
        model: step.model,
        service_tier: 'default',
        system_fingerprint: SYSTEM_FINGERPRINT,
        choices: [],
        usage: usage(step),
      }),
    ),
  );
  events.push(sseEvent('[DONE]'));
  return { contentType: 'text/event-stream', body: events.join('') };
}
