import {
  generateText,
  jsonSchema,
  type LanguageModel,
  type ModelMessage,
  stepCountIs,
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
}

/**
 * Runs exactly one model step through the AI SDK (`generateText` with `stopWhen: stepCountIs(1)`).
 * No tool has an `execute`, so the SDK never runs tools: the engine does, after deciding whether the
 * step pauses. `ask_question` is advertised with its strict JSON Schema but not validated by the SDK
 * (our lenient decoder sees the raw input). Registered tools are validated by their zod schemas, and
 * the SDK answers invalid or unknown calls itself in `responseMessages`.
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
  const result = await generateText({
    model: options.model,
    system: options.system,
    messages: options.messages,
    tools,
    stopWhen: stepCountIs(1),
    maxRetries: options.maxRetries ?? 2,
    abortSignal: options.abortSignal,
  });
  return {
    responseMessages: result.response.messages,
    text: result.text,
    finishReason: result.finishReason,
  };
}
