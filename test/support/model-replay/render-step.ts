import { fakeHexId, fakeId } from './fake-id.js';
import { renderAnthropicJson, renderAnthropicSse } from './render-anthropic.js';
import { renderOpenAIChatJson, renderOpenAIChatSse } from './render-openai-chat.js';
import { renderOpenAIResponsesJson, renderOpenAIResponsesSse } from './render-openai-responses.js';
import type { RenderedBody, ResolvedStep } from './resolved-step.js';
import type { GeneratedStep, ReplayProvider } from './types.js';

/** Default usage for a generated step without `usage`. */
export const DEFAULT_STEP_USAGE = { inputTokens: 1000, outputTokens: 50 } as const;

/**
 * Fixes ids, model name, time and usage for a generated step. Ids are deterministic in `seed` (the
 * server passes a per-server step counter) and shaped like the provider's: Anthropic `msg_01…` /
 * `toolu_01…`, Chat `chatcmpl-…` / `call_…`, Responses `resp_…` / `msg_…` / `fc_…` / `call_…`.
 * `requestBody` supplies the echoed `model` and (Responses) `tools`.
 */
export function resolveStep(
  provider: ReplayProvider,
  step: GeneratedStep,
  seed: number,
  requestBody: unknown,
  nowSeconds: number,
): ResolvedStep {
  const request =
    typeof requestBody === 'object' && requestBody !== null ? (requestBody as Record<string, unknown>) : {};
  const model = typeof request.model === 'string' ? request.model : 'replay-model';
  const tools =
    provider === 'openai-responses' && Array.isArray(request.tools) ? echoTools(request.tools) : [];
  const id =
    provider === 'anthropic'
      ? `msg_01${fakeId(`msg${seed}`, 22)}`
      : provider === 'openai-chat'
        ? `chatcmpl-${fakeId(`chatcmpl${seed}`, 29)}`
        : `resp_${fakeHexId(`resp${seed}`, 48)}`;
  return {
    id,
    messageItemId: `msg_${fakeHexId(`item${seed}`, 48)}`,
    model,
    created: nowSeconds,
    text: step.text,
    toolCalls: (step.toolCalls ?? []).map((call, index) => ({
      id:
        call.id ??
        (provider === 'anthropic'
          ? `toolu_01${fakeId(`toolu${seed}.${index}`, 22)}`
          : `call_${fakeId(`call${seed}.${index}`, 24)}`),
      itemId: `fc_${fakeHexId(`fc${seed}.${index}`, 48)}`,
      name: call.name,
      input: call.input,
    })),
    usage: step.usage ?? DEFAULT_STEP_USAGE,
    tools,
  };
}

/** The Responses API echoes request tools with `strict` filled in. */
function echoTools(tools: unknown[]): unknown[] {
  return tools.map((tool) =>
    typeof tool === 'object' && tool !== null && !('strict' in tool) ? { ...tool, strict: false } : tool,
  );
}

/** Renders a resolved step for `provider`, as JSON or as an SSE stream. */
export function renderStep(provider: ReplayProvider, step: ResolvedStep, stream: boolean): RenderedBody {
  switch (provider) {
    case 'anthropic':
      return stream ? renderAnthropicSse(step) : renderAnthropicJson(step);
    case 'openai-chat':
      return stream ? renderOpenAIChatSse(step) : renderOpenAIChatJson(step);
    case 'openai-responses':
      return stream ? renderOpenAIResponsesSse(step) : renderOpenAIResponsesJson(step);
  }
}
