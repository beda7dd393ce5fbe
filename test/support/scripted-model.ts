import type {
  LanguageModelV3CallOptions,
  LanguageModelV3Content,
  LanguageModelV3GenerateResult,
  LanguageModelV3StreamPart,
} from '@ai-sdk/provider';
import { simulateReadableStream } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';

/** One scripted model step: text and/or tool calls (inputs are JSON-stringified as providers send them). */
export interface ScriptedStep {
  text?: string;
  toolCalls?: Array<{ id?: string; name: string; input: unknown; rawInput?: string }>;
}

/** Decides the next step from the prompt the engine sent; `index` counts calls to this model. */
export type StepScript = (
  prompt: LanguageModelV3CallOptions['prompt'],
  index: number,
) => ScriptedStep | Promise<ScriptedStep>;

const USAGE = {
  inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 5, text: 5, reasoning: 0 },
};

/**
 * The AI SDK's own mock model (`MockLanguageModelV3`), answering each `doGenerate` from a script.
 * Every prompt is kept in `prompts` so tests can check what the model was sent.
 */
export function scriptedModel(
  script: StepScript,
): MockLanguageModelV3 & { prompts: LanguageModelV3CallOptions['prompt'][] } {
  let index = 0;
  const prompts: LanguageModelV3CallOptions['prompt'][] = [];
  const generate = async (options: LanguageModelV3CallOptions): Promise<LanguageModelV3GenerateResult> => {
    prompts.push(structuredClone(options.prompt));
    const step = await script(options.prompt, index++);
    const content: LanguageModelV3Content[] = [];
    if (step.text) content.push({ type: 'text', text: step.text });
    for (const [n, call] of (step.toolCalls ?? []).entries()) {
      content.push({
        type: 'tool-call',
        toolCallId: call.id ?? `call_${index}_${n}`,
        toolName: call.name,
        input: call.rawInput ?? JSON.stringify(call.input),
      });
    }
    const hasCalls = (step.toolCalls ?? []).length > 0;
    return {
      content,
      finishReason: { unified: hasCalls ? 'tool-calls' : 'stop', raw: hasCalls ? 'tool_use' : 'end_turn' },
      usage: USAGE,
      warnings: [],
    };
  };
  const model = new MockLanguageModelV3({
    provider: 'scripted',
    modelId: 'scripted-1',
    doGenerate: generate,
    // The same script as a stream: the text in a few deltas, then the tool calls, then finish.
    doStream: async (options) => {
      const result = await generate(options);
      const parts: LanguageModelV3StreamPart[] = [{ type: 'stream-start', warnings: [] }];
      for (const item of result.content) {
        if (item.type === 'text') {
          parts.push({ type: 'text-start', id: 'text-1' });
          for (const delta of textDeltas(item.text)) parts.push({ type: 'text-delta', id: 'text-1', delta });
          parts.push({ type: 'text-end', id: 'text-1' });
        } else if (item.type === 'tool-call') parts.push(item);
      }
      parts.push({ type: 'finish', finishReason: result.finishReason, usage: result.usage });
      return { stream: simulateReadableStream({ chunks: parts, chunkDelayInMs: null }) };
    },
  });
  return Object.assign(model, { prompts });
}

/** Splits text into deltas of up to 16 characters (never inside a surrogate pair). */
function textDeltas(text: string): string[] {
  const points = Array.from(text);
  const deltas: string[] = [];
  for (let start = 0; start < points.length; start += 16)
    deltas.push(points.slice(start, start + 16).join(''));
  return deltas;
}

/** The last message of a prompt. */
export function lastMessage(prompt: LanguageModelV3CallOptions['prompt']) {
  return prompt[prompt.length - 1];
}

/** The text of every tool result in the prompt's last message (empty when it is not a tool message). */
export function lastToolResults(
  prompt: LanguageModelV3CallOptions['prompt'],
): Array<{ toolName: string; text: string; isError: boolean }> {
  const last = lastMessage(prompt);
  if (last?.role !== 'tool') return [];
  return last.content.flatMap((part) => {
    if (part.type !== 'tool-result') return [];
    const output = part.output;
    const text =
      output.type === 'text' || output.type === 'error-text' ? output.value : JSON.stringify(output);
    return [{ toolName: part.toolName, text, isError: output.type.startsWith('error') }];
  });
}

/**
 * Pairing rule on a V3 prompt: every assistant tool call has exactly one result in the tool message(s)
 * that directly follow it. Returns the problems found.
 */
export function promptPairingProblems(prompt: LanguageModelV3CallOptions['prompt']): string[] {
  const problems: string[] = [];
  prompt.forEach((message, index) => {
    if (message.role !== 'assistant') return;
    const ids = message.content.flatMap((part) => (part.type === 'tool-call' ? [part.toolCallId] : []));
    if (ids.length === 0) return;
    const counts = new Map<string, number>();
    for (let next = index + 1; next < prompt.length && prompt[next]?.role === 'tool'; next++) {
      const tool = prompt[next];
      if (tool?.role !== 'tool') break;
      for (const part of tool.content) {
        if (part.type === 'tool-result') counts.set(part.toolCallId, (counts.get(part.toolCallId) ?? 0) + 1);
      }
    }
    for (const id of ids) {
      const count = counts.get(id) ?? 0;
      if (count !== 1) problems.push(`message ${index}: tool call ${id} has ${count} results`);
    }
  });
  return problems;
}

/**
 * The model most Slack tests need: its first step calls `ask_question` with `input`; once it has a tool
 * result it replies `final` (after `delayMs`, to stand for a slow continuation).
 */
export function askingModel(input: unknown, final = 'FINAL done', delayMs = 0) {
  return scriptedModel(async (prompt) => {
    if (lastToolResults(prompt).length === 0)
      return { text: 'Let me ask.', toolCalls: [{ name: 'ask_question', input }] };
    if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
    return { text: final };
  });
}
