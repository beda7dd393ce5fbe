import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { chunkText } from '../../support/model-replay/chunk-text.js';
import { MODEL_FIXTURES, modelFixturePath } from '../../support/model-replay/fixtures.js';
import { type ParsedSseEvent, parseSse } from '../../support/model-replay/parse-sse.js';
import { renderStep, resolveStep } from '../../support/model-replay/render-step.js';
import type { ResolvedStep, ResolvedToolCall } from '../../support/model-replay/resolved-step.js';
import type { ReplayProvider } from '../../support/model-replay/types.js';

/*
 * The renderers must produce the fixtures' wire format. For every fixture we take its content (ids,
 * text, tool calls, usage) from the fixture's JSON file, render it, and compare: the JSON byte for byte,
 * the SSE event by event after joining each run of deltas (the fixtures' chunk boundaries are their own).
 */

type Json = Record<string, unknown>;

function readJson(path: string): Json {
  return JSON.parse(readFileSync(path, 'utf8')) as Json;
}

function list(value: unknown): Json[] {
  return Array.isArray(value) ? (value as Json[]) : [];
}

function stepFromFixture(provider: ReplayProvider, fixture: string): ResolvedStep {
  const json = readJson(modelFixturePath(provider, fixture, false));
  const base = {
    id: String(json.id),
    model: String(json.model),
    messageItemId: '',
    created: 0,
    tools: [] as unknown[],
  };
  if (provider === 'anthropic') {
    const content = list(json.content);
    const usage = json.usage as Json;
    return {
      ...base,
      text: content.find((block) => block.type === 'text')?.text as string | undefined,
      toolCalls: content
        .filter((block) => block.type === 'tool_use')
        .map((block) => ({ id: String(block.id), itemId: '', name: String(block.name), input: block.input })),
      usage: { inputTokens: Number(usage.input_tokens), outputTokens: Number(usage.output_tokens) },
    };
  }
  if (provider === 'openai-chat') {
    const message = (list(json.choices)[0] as Json).message as Json;
    const usage = json.usage as Json;
    return {
      ...base,
      created: Number(json.created),
      text: typeof message.content === 'string' ? message.content : undefined,
      toolCalls: list(message.tool_calls).map((call) => {
        const fn = call.function as Json;
        return {
          id: String(call.id),
          itemId: '',
          name: String(fn.name),
          input: JSON.parse(String(fn.arguments)),
        };
      }),
      usage: { inputTokens: Number(usage.prompt_tokens), outputTokens: Number(usage.completion_tokens) },
    };
  }
  const output = list(json.output);
  const message = output.find((item) => item.type === 'message');
  const usage = json.usage as Json;
  return {
    ...base,
    created: Number(json.created_at),
    messageItemId: message === undefined ? '' : String(message.id),
    text: message === undefined ? undefined : String(list(message.content)[0]?.text),
    toolCalls: output
      .filter((item) => item.type === 'function_call')
      .map(
        (item): ResolvedToolCall => ({
          id: String(item.call_id),
          itemId: String(item.id),
          name: String(item.name),
          input: JSON.parse(String(item.arguments)),
        }),
      ),
    usage: { inputTokens: Number(usage.input_tokens), outputTokens: Number(usage.output_tokens) },
    tools: list(json.tools),
  };
}

/** A key for events whose payload is a delta that may be split anywhere; `undefined` for other events. */
function deltaKey(
  event: ParsedSseEvent,
): { key: string; piece: string; strip: (data: Json) => Json } | undefined {
  const data = event.data as Json;
  if (data.type === 'content_block_delta') {
    const delta = data.delta as Json;
    const field = delta.type === 'text_delta' ? 'text' : 'partial_json';
    return {
      key: `anthropic:${String(data.index)}:${String(delta.type)}`,
      piece: String(delta[field]),
      strip: (d) => ({ ...d, delta: { ...(d.delta as Json), [field]: '' } }),
    };
  }
  if (data.object === 'chat.completion.chunk') {
    const delta = (list(data.choices)[0]?.delta ?? {}) as Json;
    if (typeof delta.content === 'string' && delta.role === undefined) {
      return { key: 'chat:content', piece: delta.content, strip: (d) => ({ ...d, choices: [] }) };
    }
    const call = list(delta.tool_calls)[0];
    if (call !== undefined && call.id === undefined) {
      return {
        key: `chat:args:${String(call.index)}`,
        piece: String((call.function as Json).arguments),
        strip: (d) => ({ ...d, choices: [] }),
      };
    }
    return undefined;
  }
  if (typeof data.type === 'string' && data.type.endsWith('.delta')) {
    return {
      key: `${data.type}:${String(data.item_id)}`,
      piece: String(data.delta),
      strip: ({ delta: _delta, ...rest }) => rest,
    };
  }
  return undefined;
}

/** Joins runs of deltas into one event carrying the joined text, and drops `sequence_number`. */
function normalize(
  events: ParsedSseEvent[],
): Array<{ event: string | undefined; data: unknown; joined?: string }> {
  const out: Array<{ event: string | undefined; data: unknown; joined?: string; key?: string }> = [];
  for (const event of events) {
    const data =
      typeof event.data === 'object' && event.data !== null
        ? (({ sequence_number: _sequence, ...rest }) => rest)(event.data as Json)
        : event.data;
    const delta = deltaKey(event);
    const last = out.at(-1);
    if (delta !== undefined && last?.key === delta.key) {
      last.joined = `${last.joined ?? ''}${delta.piece}`;
      continue;
    }
    if (delta !== undefined) {
      out.push({ event: event.event, data: delta.strip(data as Json), joined: delta.piece, key: delta.key });
    } else {
      out.push({ event: event.event, data });
    }
  }
  return out.map(({ key: _key, ...rest }) => rest);
}

const cases = (Object.entries(MODEL_FIXTURES) as Array<[ReplayProvider, readonly string[]]>).flatMap(
  ([provider, fixtures]) => fixtures.map((fixture) => [provider, fixture] as const),
);

describe('renderStep reproduces the fixtures', () => {
  it.each(cases)('%s %s: JSON byte for byte', (provider, fixture) => {
    const rendered = renderStep(provider, stepFromFixture(provider, fixture), false);
    expect(rendered.contentType).toBe('application/json');
    expect(rendered.body).toBe(readFileSync(modelFixturePath(provider, fixture, false), 'utf8'));
  });

  it.each(cases)('%s %s: SSE events, event names and framing', (provider, fixture) => {
    const rendered = renderStep(provider, stepFromFixture(provider, fixture), true);
    expect(rendered.contentType).toBe('text/event-stream');
    const expected = parseSse(readFileSync(modelFixturePath(provider, fixture, true), 'utf8'));
    const actual = parseSse(rendered.body);
    expect(normalize(actual)).toEqual(normalize(expected));
  });

  it.each(cases.filter(([provider]) => provider === 'openai-responses'))(
    '%s %s: sequence_number counts 0, 1, 2, ...',
    (provider, fixture) => {
      const events = parseSse(renderStep(provider, stepFromFixture(provider, fixture), true).body);
      expect(events.map((event) => (event.data as Json).sequence_number)).toEqual(
        events.map((_event, index) => index),
      );
    },
  );

  it.each(cases.filter(([provider]) => provider === 'anthropic'))(
    '%s %s: each tool input stream starts with an empty partial_json, like the API',
    (provider, fixture) => {
      const firstPieces = (body: string): string[] => {
        const seen = new Set<unknown>();
        const pieces: string[] = [];
        for (const { data } of parseSse(body)) {
          const event = data as Json;
          const delta = event.delta as Json | undefined;
          if (
            event.type === 'content_block_delta' &&
            delta?.type === 'input_json_delta' &&
            !seen.has(event.index)
          ) {
            seen.add(event.index);
            pieces.push(String(delta.partial_json));
          }
        }
        return pieces;
      };
      const rendered = renderStep(provider, stepFromFixture(provider, fixture), true).body;
      const expected = firstPieces(readFileSync(modelFixturePath(provider, fixture, true), 'utf8'));
      expect(firstPieces(rendered)).toEqual(expected);
      expect(expected.every((piece) => piece === '')).toBe(true);
    },
  );
});

describe('resolveStep', () => {
  it.each<[ReplayProvider, RegExp, RegExp]>([
    ['anthropic', /^msg_01[0-9A-Za-z]{22}$/, /^toolu_01[0-9A-Za-z]{22}$/],
    ['openai-chat', /^chatcmpl-[0-9A-Za-z]{29}$/, /^call_[0-9A-Za-z]{24}$/],
    ['openai-responses', /^resp_[0-9a-f]{48}$/, /^call_[0-9A-Za-z]{24}$/],
  ])(
    '%s ids look like the provider’s, are deterministic and distinct per call',
    (provider, messageId, callId) => {
      const step = {
        text: 'x',
        toolCalls: [
          { name: 'a', input: {} },
          { name: 'b', input: {} },
        ],
      };
      const first = resolveStep(provider, step, 1, { model: 'm' }, 0);
      expect(first.id).toMatch(messageId);
      expect(first.toolCalls.map((call) => call.id)).toEqual([
        expect.stringMatching(callId),
        expect.stringMatching(callId),
      ]);
      expect(first.toolCalls[0]?.id).not.toBe(first.toolCalls[1]?.id);
      expect(resolveStep(provider, step, 1, { model: 'm' }, 0)).toEqual(first);
      expect(resolveStep(provider, step, 2, { model: 'm' }, 0).id).not.toBe(first.id);
    },
  );

  it('keeps a given call id, echoes the request model and defaults usage to 1000/50', () => {
    const step = resolveStep(
      'anthropic',
      { toolCalls: [{ name: 'a', input: {}, id: 'toolu_given' }] },
      1,
      { model: 'claude-x' },
      0,
    );
    expect(step.toolCalls[0]?.id).toBe('toolu_given');
    expect(step.model).toBe('claude-x');
    expect(step.usage).toEqual({ inputTokens: 1000, outputTokens: 50 });
  });
});

describe('chunkText', () => {
  it.each([
    ['', []],
    ['abc', ['abc']],
    ['The v2.15.0 rollout', ['The v2.15', '.0 ', 'rollo', 'ut']],
    ['😀😀😀😀😀😀😀😀😀😀', ['😀😀😀😀😀😀😀😀😀', '😀']],
  ])('%j -> %j', (text, pieces) => {
    expect(chunkText(text)).toEqual(pieces);
  });
});
