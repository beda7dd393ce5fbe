import {
  generateText,
  jsonSchema,
  type LanguageModel,
  type ModelMessage,
  stepCountIs,
  streamText,
  type ToolSet,
  tool,
} from 'ai';
import type { AskToolDefinition } from '../ask/ask-schema.js';
import type { ToolRegistry } from './tool-registry.js';

/** What one model step produced. */
export interface ModelStepResult {
  /** The messages the SDK appended: the assistant message, and a tool message when the SDK itself answered invalid calls. */
  responseMessages: ModelMessage[];
  /** The assistant's text of this step. */
  text: string;
  finishReason: string;
}

/** Options of {@link runModelStep}. */
export interface ModelStepOptions {
  model: LanguageModel;
  system: string;
  messages: ModelMessage[];
  tools: ToolRegistry;
  askTool: AskToolDefinition;
  /** Retries of the SDK for transient provider errors (default 2); the job retries on top with backoff. */
  maxRetries?: number;
  abortSignal?: AbortSignal | undefined;
  /**
   * Called with each piece of the step's text as the model writes it (the step then streams, with
   * `streamText`); awaited in order. Without it the step is one `generateText` call.
   */
  onText?: (delta: string) => Promise<void>;
}

/**
 * Runs exactly one model step through the AI SDK (`generateText` with `stopWhen: stepCountIs(1)`).
 * No tool has an `execute`, so the SDK never runs tools: the engine does, after deciding whether the
 * step pauses. `ask_question` is advertised with its strict JSON Schema but not validated by the SDK
 * (our lenient decoder sees the raw input). Registered tools are validated by their zod schemas, and
 * the SDK answers invalid or unknown calls itself in `responseMessages`.
 * With `onText` the same step streams (`streamText`), and the result is the same once the stream ends.
 * @throws the AI SDK's errors (e.g. `APICallError`) when the provider fails after `maxRetries`.
 */
export async function runModelStep(options: ModelStepOptions): Promise<ModelStepResult> {
  const tools: ToolSet = {
    [options.askTool.name]: tool({
      description: options.askTool.description,
      inputSchema: jsonSchema(options.askTool.inputSchema),
    }),
  };
  for (const agentTool of options.tools.values()) {
    tools[agentTool.name] = tool({ description: agentTool.description, inputSchema: agentTool.inputSchema });
  }
  const settings = {
    model: options.model,
    system: options.system,
    messages: options.messages,
    tools,
    stopWhen: stepCountIs(1),
    maxRetries: options.maxRetries ?? 2,
    abortSignal: options.abortSignal,
  };
  if (options.onText) return streamStep(settings, options.onText);
  const result = await generateText(settings);
  return {
    responseMessages: result.response.messages,
    text: result.text,
    finishReason: result.finishReason,
  };
}

/**
 * One step through `streamText`: text deltas go to `onText` in order while the model writes; a provider
 * error ends the step with that error (the SDK would otherwise only report it to `onError`).
 */
async function streamStep(
  settings: Parameters<typeof generateText>[0] & { tools: ToolSet },
  onText: (delta: string) => Promise<void>,
): Promise<ModelStepResult> {
  let failure: { error: unknown } | null = null;
  const result = streamText({
    ...settings,
    onError: ({ error }) => {
      failure ??= { error };
    },
  });
  for await (const part of result.fullStream) {
    if (part.type === 'text-delta' && part.text.length > 0) await onText(part.text);
    else if (part.type === 'error') failure ??= { error: part.error };
  }
  if (failure) throw (failure as { error: unknown }).error;
  const [response, text, finishReason] = await Promise.all([
    result.response,
    result.text,
    result.finishReason,
  ]);
  return { responseMessages: response.messages, text, finishReason };
}
