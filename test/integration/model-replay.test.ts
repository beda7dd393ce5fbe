import { readFile } from 'node:fs/promises';
import {
  APICallError,
  generateText,
  jsonSchema,
  type LanguageModel,
  type ModelMessage,
  streamText,
  type ToolSet,
  tool,
} from 'ai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createLanguageModel } from '../../src/model/create-model.js';
import {
  expectedModelResult,
  MODEL_FIXTURES,
  modelFixturePath,
  recordedRequestBody,
} from '../support/model-replay/fixtures.js';
import {
  type ModelReplay,
  type ReplayProvider,
  startModelReplay,
} from '../support/model-replay/model-replay.js';
import { checkToolPairing } from '../support/model-replay/pairing.js';

/*
 * The replay server against the REAL AI SDK clients (ai 6, @ai-sdk/anthropic 3, @ai-sdk/openai 3):
 * anthropic(id) → /v1/messages, openai(id) → /v1/responses, openai.chat(id) → /v1/chat/completions,
 * each through generateText and streamText. `ask_question` is registered without `execute` and with a
 * non-validating jsonSchema, as the agent registers it (the decoder validates, not the SDK).
 */

type Mode = 'generate' | 'stream';
const MODES: Mode[] = ['generate', 'stream'];
const PROVIDERS: ReplayProvider[] = ['anthropic', 'openai-responses', 'openai-chat'];
const PATHS: Record<ReplayProvider, string> = {
  anthropic: '/v1/messages',
  'openai-chat': '/v1/chat/completions',
  'openai-responses': '/v1/responses',
};

const askQuestionSchema = { type: 'object', properties: { questions: {} }, required: ['questions'] } as const;
const TOOLS = {
  ask_question: tool({
    description: 'Ask the people in the Slack thread 1-3 questions.',
    inputSchema: jsonSchema<{ questions: unknown }>(askQuestionSchema),
  }),
} satisfies ToolSet;

const PROMPT = 'payments-api v2.15.0 is failing health checks in prod. Can you sort it out?';
const ANSWER = 'Deploy fix: <@U0ALICE> chose "Hotfix forward".';

let replay: ModelReplay;

beforeAll(async () => {
  replay = await startModelReplay();
});
afterAll(async () => {
  await replay.close();
});
beforeEach(() => {
  replay.reset();
});

function modelFor(provider: ReplayProvider): LanguageModel {
  switch (provider) {
    case 'anthropic':
      return createLanguageModel({
        provider: 'anthropic',
        modelId: 'claude-sonnet-4-5',
        apiKey: 'test',
        baseURL: replay.anthropicBaseUrl,
      });
    case 'openai-responses':
      return createLanguageModel({
        provider: 'openai',
        modelId: 'gpt-4.1',
        apiKey: 'test',
        baseURL: replay.openaiBaseUrl,
      });
    case 'openai-chat':
      return createLanguageModel({
        provider: 'openai-compatible',
        modelId: 'gpt-4.1',
        baseURL: replay.openaiBaseUrl,
      });
  }
}

interface ToolCallView {
  toolCallId: string;
  toolName: string;
  input: unknown;
  invalid: boolean | undefined;
  dynamic: boolean | undefined;
  errorName: string | undefined;
}

interface StepResult {
  text: string;
  finishReason: string;
  toolCalls: ToolCallView[];
  usage: { inputTokens: number | undefined; outputTokens: number | undefined };
  responseMessages: ModelMessage[];
  /** Errors streamText reported through onError (always empty for generateText, which throws). */
  streamErrors: unknown[];
}

function viewToolCall(call: {
  toolCallId: string;
  toolName: string;
  input: unknown;
  invalid?: boolean | undefined;
  dynamic?: boolean | undefined;
  error?: unknown;
}): ToolCallView {
  return {
    toolCallId: call.toolCallId,
    toolName: call.toolName,
    input: call.input,
    invalid: call.invalid,
    dynamic: call.dynamic,
    errorName: call.error instanceof Error ? call.error.name : undefined,
  };
}

/** One model call through the real SDK, in either mode, reduced to what the tests compare. */
async function runStep(
  provider: ReplayProvider,
  mode: Mode,
  messages: ModelMessage[],
  tools: ToolSet = TOOLS,
): Promise<StepResult> {
  const model = modelFor(provider);
  if (mode === 'generate') {
    const result = await generateText({ model, messages, tools, maxRetries: 0 });
    return {
      text: result.text,
      finishReason: result.finishReason,
      toolCalls: result.toolCalls.map(viewToolCall),
      usage: { inputTokens: result.usage.inputTokens, outputTokens: result.usage.outputTokens },
      responseMessages: result.response.messages,
      streamErrors: [],
    };
  }
  const streamErrors: unknown[] = [];
  const result = streamText({
    model,
    messages,
    tools,
    maxRetries: 0,
    onError: ({ error }) => {
      streamErrors.push(error);
    },
  });
  await result.consumeStream();
  const [text, finishReason, toolCalls, usage, response] = await Promise.all([
    result.text,
    result.finishReason,
    result.toolCalls,
    result.usage,
    result.response,
  ]);
  return {
    text,
    finishReason,
    toolCalls: toolCalls.map(viewToolCall),
    usage: { inputTokens: usage.inputTokens, outputTokens: usage.outputTokens },
    responseMessages: response.messages,
    streamErrors,
  };
}

/** The tool message the agent appends when a person answers: one tool-result per call id. */
function toolResultMessage(
  results: Array<{ toolCallId: string; toolName: string; text: string }>,
): ModelMessage {
  return {
    role: 'tool',
    content: results.map(({ toolCallId, toolName, text }) => ({
      type: 'tool-result',
      toolCallId,
      toolName,
      output: { type: 'text', value: text },
    })),
  };
}

const fixtureCases = (Object.entries(MODEL_FIXTURES) as Array<[ReplayProvider, readonly string[]]>).flatMap(
  ([provider, fixtures]) =>
    fixtures.flatMap((fixture) => MODES.map((mode) => [provider, fixture, mode] as const)),
);

describe('fixtures through the real SDK give what expected.json says', () => {
  it.each(fixtureCases)('%s %s (%s)', async (provider, fixture, mode) => {
    replay.enqueue(provider, fixture);
    const result = await runStep(provider, mode, [{ role: 'user', content: PROMPT }]);
    const expected = expectedModelResult(provider, fixture);

    expect(result.streamErrors).toEqual([]);
    expect(result.text).toBe(expected.text);
    expect(result.finishReason).toBe(expected.finishReason);
    expect(
      result.toolCalls.map(({ toolCallId, toolName, input }) => ({ toolCallId, toolName, input })),
    ).toEqual(expected.toolCalls);
    expect(result.usage).toEqual(expected.usage);

    expect(replay.requests).toHaveLength(1);
    const [request] = replay.requests;
    expect(request).toMatchObject({ provider, path: PATHS[provider], stream: mode === 'stream' });
    expect(request?.served).toBe(`fixture ${fixture}.${mode === 'stream' ? 'sse' : 'json'}`);
    // generateText omits `stream` entirely; streamText sends `stream: true`.
    const body = (request?.body ?? {}) as Record<string, unknown>;
    expect('stream' in body ? body.stream : 'absent').toBe(mode === 'stream' ? true : 'absent');
  });
});

describe('continuation after step (a): the tool result goes back and the request pairs', () => {
  it.each(PROVIDERS.flatMap((provider) => MODES.map((mode) => [provider, mode] as const)))(
    '%s (%s): the recorded continuation body, byte for byte as JSON',
    async (provider, mode) => {
      const [call] = expectedModelResult(provider, 'a-text-and-ask_question').toolCalls;
      if (call === undefined) throw new Error('fixture (a) has no tool call');
      replay.enqueue(provider, 'd-final-text');
      const result = await runStep(provider, mode, [
        { role: 'user', content: PROMPT },
        { role: 'assistant', content: [{ type: 'tool-call', ...call }] },
        toolResultMessage([{ toolCallId: call.toolCallId, toolName: call.toolName, text: ANSWER }]),
      ]);
      const [request] = await replay.waitForRequests(1);
      expect(request?.body).toEqual(recordedRequestBody(provider, 'd-final-text', mode));
      expect(checkToolPairing(provider, request?.body)).toEqual([]);

      const expected = expectedModelResult(provider, 'd-final-text');
      expect(result).toMatchObject({
        text: expected.text,
        finishReason: 'stop',
        toolCalls: [],
        usage: expected.usage,
      });
    },
  );

  it.each(PROVIDERS.flatMap((provider) => MODES.map((mode) => [provider, mode] as const)))(
    '%s (%s): response.messages of step (a) plus the answer',
    async (provider, mode) => {
      replay.enqueue(provider, 'a-text-and-ask_question', 'd-final-text');
      const first = await runStep(provider, mode, [{ role: 'user', content: PROMPT }]);
      const [call] = first.toolCalls;
      if (call === undefined) throw new Error('step (a) returned no tool call');
      const second = await runStep(provider, mode, [
        { role: 'user', content: PROMPT },
        ...first.responseMessages,
        toolResultMessage([{ toolCallId: call.toolCallId, toolName: call.toolName, text: ANSWER }]),
      ]);
      const requests = await replay.waitForRequests(2);
      expect(checkToolPairing(provider, requests[1]?.body)).toEqual([]);
      expect(JSON.stringify(requests[1]?.body)).toContain(call.toolCallId);
      expect(JSON.stringify(requests[1]?.body)).toContain(JSON.stringify(ANSWER).slice(1, -1));
      expect(second.text).toBe(expectedModelResult(provider, 'd-final-text').text);
      expect(second.finishReason).toBe('stop');
    },
  );
});

describe('fixture (b): questions as a JSON string', () => {
  it.each(MODES)(
    'non-validating jsonSchema: a valid call whose raw input keeps the string (%s)',
    async (mode) => {
      replay.enqueue('anthropic', 'b-questions-json-string');
      const result = await runStep('anthropic', mode, [{ role: 'user', content: PROMPT }]);
      const expected = expectedModelResult('anthropic', 'b-questions-json-string');
      expect(result.toolCalls).toEqual([
        {
          ...expected.toolCalls[0],
          invalid: undefined,
          dynamic: undefined,
          errorName: undefined,
        },
      ]);
      expect(result.toolCalls[0]?.input).toEqual({ questions: expect.any(String) });
    },
  );

  it.each(MODES)(
    'validating zod schema: an invalid dynamic call that still carries the raw input (%s)',
    async (mode) => {
      replay.enqueue('anthropic', 'b-questions-json-string');
      const strictTools = {
        ask_question: tool({
          description: 'Ask the people in the Slack thread 1-3 questions.',
          inputSchema: z.object({ questions: z.array(z.object({ question: z.string() })) }),
        }),
      };
      const result = await runStep('anthropic', mode, [{ role: 'user', content: PROMPT }], strictTools);
      const expected = expectedModelResult('anthropic', 'b-questions-json-string');
      expect(result.toolCalls).toEqual([
        { ...expected.toolCalls[0], invalid: true, dynamic: true, errorName: 'AI_InvalidToolInputError' },
      ]);
    },
  );
});

describe('fixture (c): an unregistered tool next to ask_question', () => {
  const LOOKUP_ID = 'toolu_01Lk3vB9nM2xQ7rT5yW8pZcD';
  const ASK_ID = 'toolu_01Fa6hJ2kS9dQ4mV7xB3nR8t';

  it.each(MODES)(
    'the SDK marks lookup_runbook invalid and answers it itself in response.messages (%s)',
    async (mode) => {
      replay.enqueue('anthropic', 'c-parallel-lookup_runbook-and-ask_question');
      const result = await runStep('anthropic', mode, [{ role: 'user', content: PROMPT }]);
      expect(
        result.toolCalls.map(({ toolCallId, invalid, dynamic, errorName }) => ({
          toolCallId,
          invalid,
          dynamic,
          errorName,
        })),
      ).toEqual([
        { toolCallId: LOOKUP_ID, invalid: true, dynamic: true, errorName: 'AI_NoSuchToolError' },
        { toolCallId: ASK_ID, invalid: undefined, dynamic: undefined, errorName: undefined },
      ]);
      expect(result.responseMessages.at(-1)).toEqual({
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: LOOKUP_ID,
            toolName: 'lookup_runbook',
            output: {
              type: 'error-text',
              value: "Model tried to call unavailable tool 'lookup_runbook'. Available tools: ask_question.",
            },
          },
        ],
      });
    },
  );

  it.each(MODES)(
    'keeping the SDK result and answering only ask_question pairs; answering lookup_runbook again duplicates (%s)',
    async (mode) => {
      replay.enqueue(
        'anthropic',
        'c-parallel-lookup_runbook-and-ask_question',
        'd-final-text',
        'd-final-text',
      );
      const first = await runStep('anthropic', mode, [{ role: 'user', content: PROMPT }]);
      const history: ModelMessage[] = [{ role: 'user', content: PROMPT }, ...first.responseMessages];

      await runStep('anthropic', mode, [
        ...history,
        toolResultMessage([{ toolCallId: ASK_ID, toolName: 'ask_question', text: ANSWER }]),
      ]);
      await runStep('anthropic', mode, [
        ...history,
        toolResultMessage([
          { toolCallId: LOOKUP_ID, toolName: 'lookup_runbook', text: 'interrupted, not run' },
          { toolCallId: ASK_ID, toolName: 'ask_question', text: ANSWER },
        ]),
      ]);
      const requests = await replay.waitForRequests(3);
      expect(checkToolPairing('anthropic', requests[1]?.body)).toEqual([]);
      expect(checkToolPairing('anthropic', requests[2]?.body)).toEqual([
        `messages[2] (user) has a duplicate tool_result for ${LOOKUP_ID}`,
      ]);
    },
  );
});

describe('generated steps round-trip through the SDK', () => {
  const customInput = {
    questions: [
      {
        header: 'Cache',
        question: 'Flush the CDN cache for checkout.example.com now? 🚦',
        options: [
          { label: 'Flush now', description: 'About 2 min of cold-cache latency.' },
          { label: 'Wait', description: 'Let the TTL (15 min) expire.', recommended: true },
        ],
        multiSelect: false,
      },
    ],
  };

  it.each(PROVIDERS.flatMap((provider) => MODES.map((mode) => [provider, mode] as const)))(
    '%s (%s): text + ask_question, then the final text after the answer',
    async (provider, mode) => {
      replay.enqueue(
        provider,
        {
          text: 'Before I touch the CDN, one question.',
          toolCalls: [{ name: 'ask_question', input: customInput }],
        },
        { text: 'Flushed. Latency is back to normal.', usage: { inputTokens: 1234, outputTokens: 12 } },
      );
      const first = await runStep(provider, mode, [{ role: 'user', content: 'The checkout page is stale.' }]);
      expect(first.streamErrors).toEqual([]);
      expect(first).toMatchObject({
        text: 'Before I touch the CDN, one question.',
        finishReason: 'tool-calls',
        usage: { inputTokens: 1000, outputTokens: 50 },
      });
      expect(first.toolCalls).toEqual([
        {
          toolCallId: expect.stringMatching(provider === 'anthropic' ? /^toolu_01/ : /^call_/),
          toolName: 'ask_question',
          input: customInput,
          invalid: undefined,
          dynamic: undefined,
          errorName: undefined,
        },
      ]);
      const [call] = first.toolCalls;
      if (call === undefined) throw new Error('no tool call');

      const second = await runStep(provider, mode, [
        { role: 'user', content: 'The checkout page is stale.' },
        ...first.responseMessages,
        toolResultMessage([
          { toolCallId: call.toolCallId, toolName: 'ask_question', text: 'Cache: chose "Flush now".' },
        ]),
      ]);
      expect(second).toMatchObject({
        text: 'Flushed. Latency is back to normal.',
        finishReason: 'stop',
        toolCalls: [],
        usage: { inputTokens: 1234, outputTokens: 12 },
        streamErrors: [],
      });
      const requests = await replay.waitForRequests(2);
      expect(requests.map((request) => request.served)).toEqual(['step', 'step']);
      expect(checkToolPairing(provider, requests[1]?.body)).toEqual([]);
      expect(JSON.stringify(requests[1]?.body)).toContain(call.toolCallId);
    },
  );

  it.each(PROVIDERS.flatMap((provider) => MODES.map((mode) => [provider, mode] as const)))(
    '%s (%s): parallel calls with given ids and no text, in order',
    async (provider, mode) => {
      const tools = {
        ...TOOLS,
        lookup_runbook: tool({ inputSchema: jsonSchema<{ service: string }>({ type: 'object' }) }),
      };
      replay.enqueue(provider, {
        toolCalls: [
          { name: 'lookup_runbook', input: { service: 'payments' }, id: 'call_given_1' },
          { name: 'ask_question', input: customInput, id: 'call_given_2' },
        ],
      });
      const result = await runStep(provider, mode, [{ role: 'user', content: 'go' }], tools);
      expect(result.text).toBe('');
      expect(result.finishReason).toBe('tool-calls');
      expect(
        result.toolCalls.map(({ toolCallId, toolName, input }) => ({ toolCallId, toolName, input })),
      ).toEqual([
        { toolCallId: 'call_given_1', toolName: 'lookup_runbook', input: { service: 'payments' } },
        { toolCallId: 'call_given_2', toolName: 'ask_question', input: customInput },
      ]);
    },
  );
});

describe('replay server behaviour', () => {
  it.each<[ReplayProvider, string]>([
    ['anthropic', 'a-text-and-ask_question'],
    ['openai-chat', 'a-text-and-ask_question'],
    ['openai-responses', 'd-final-text'],
  ])('serves %s %s byte for byte with the right content type', async (provider, fixture) => {
    for (const stream of [false, true]) {
      replay.enqueue(provider, fixture);
      const response = await fetch(`${replay.openaiBaseUrl}${PATHS[provider].slice('/v1'.length)}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(stream ? { model: 'm', stream: true } : { model: 'm' }),
      });
      expect(response.headers.get('content-type')).toBe(stream ? 'text/event-stream' : 'application/json');
      expect(Buffer.from(await response.arrayBuffer())).toEqual(
        await readFile(modelFixturePath(provider, fixture, stream)),
      );
    }
  });

  it.each(PROVIDERS)(
    '%s: a scripted 429 surfaces as an APICallError with the provider envelope',
    async (provider) => {
      replay.enqueue(provider, { status: 429, headers: { 'retry-after': '1' } });
      const error = await runStep(provider, 'generate', [{ role: 'user', content: 'hi' }]).catch(
        (caught: unknown) => caught,
      );
      expect(APICallError.isInstance(error)).toBe(true);
      expect(error).toMatchObject({
        statusCode: 429,
        message: 'model-replay: scripted HTTP 429',
        isRetryable: true,
      });
    },
  );

  it('an empty script answers 500 saying nothing was scripted, in generate and stream mode', async () => {
    const error = await runStep('anthropic', 'generate', [{ role: 'user', content: 'hi' }]).catch(
      (caught: unknown) => caught,
    );
    expect(error).toMatchObject({
      statusCode: 500,
      message: expect.stringContaining('no response scripted for POST /v1/messages'),
    });

    const streamed = await runStep('openai-chat', 'stream', [{ role: 'user', content: 'hi' }]).catch(
      (caught: unknown) => caught,
    );
    // streamText does not throw for an HTTP error: onError receives it, and the awaited result then rejects.
    expect(streamed).toMatchObject({ name: 'AI_NoOutputGeneratedError' });
    expect(replay.requests.map((request) => request.served)).toEqual(['unscripted', 'unscripted']);
  });

  it('onRequest decides from the request when the script is empty; the script goes first', async () => {
    replay.onRequest = (request) => {
      const messages = (request.body as { messages: Array<{ role: string }> }).messages;
      return messages.some((message) => message.role === 'tool')
        ? { text: 'after the answer' }
        : 'a-text-and-ask_question';
    };
    replay.enqueue('openai-chat', { text: 'scripted first' });
    const scripted = await runStep('openai-chat', 'generate', [{ role: 'user', content: PROMPT }]);
    const first = await runStep('openai-chat', 'generate', [{ role: 'user', content: PROMPT }]);
    const [call] = first.toolCalls;
    if (call === undefined) throw new Error('no tool call');
    const second = await runStep('openai-chat', 'generate', [
      { role: 'user', content: PROMPT },
      ...first.responseMessages,
      toolResultMessage([{ toolCallId: call.toolCallId, toolName: 'ask_question', text: ANSWER }]),
    ]);
    expect([scripted.text, first.finishReason, second.text]).toEqual([
      'scripted first',
      'tool-calls',
      'after the answer',
    ]);
    expect(replay.requests.map((request) => request.served)).toEqual([
      'step',
      'fixture a-text-and-ask_question.json',
      'step',
    ]);
    expect(replay.pending()).toBe(0);
  });

  it('records provider, path, body, headers and time; waitForRequests resolves on arrival and times out loudly', async () => {
    const before = Date.now();
    replay.enqueue('anthropic', { text: 'slow', delayMs: 200 });
    const pending = runStep('anthropic', 'generate', [{ role: 'user', content: 'hi' }]);
    const [request] = await replay.waitForRequests(1, 1_000);
    expect(request).toMatchObject({
      provider: 'anthropic',
      method: 'POST',
      path: '/v1/messages',
      served: 'step',
      stream: false,
    });
    expect(request?.headers['x-api-key']).toBe('test');
    expect(request?.headers['anthropic-version']).toBe('2023-06-01');
    expect(request?.time).toBeGreaterThanOrEqual(before);
    expect(request?.body).toMatchObject({ model: 'claude-sonnet-4-5', messages: [{ role: 'user' }] });
    expect((await pending).text).toBe('slow');

    await expect(replay.waitForRequests(2, 50)).rejects.toThrow(
      'model-replay: waited 50 ms for 2 request(s), got 1: anthropic step',
    );
  });

  it('answers 404 for an unknown path and does not record it', async () => {
    const response = await fetch(`${replay.openaiBaseUrl}/embeddings`, { method: 'POST', body: '{}' });
    expect(response.status).toBe(404);
    expect(replay.requests).toHaveLength(0);
  });
});
