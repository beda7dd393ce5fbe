import type { ModelMessage } from 'ai';
import { describe, expect, it } from 'vitest';
import { planStep } from './plan-step.js';

const VALID_ASK = { questions: [{ header: 'Go', question: 'Proceed?', options: ['Yes', 'No'] }] };
const INVALID_ASK = { questions: [] };

function assistant(...calls: Array<{ id: string; name: string; input: unknown }>): ModelMessage {
  return {
    role: 'assistant',
    content: [
      { type: 'text', text: 'thinking aloud' },
      ...calls.map((call) => ({
        type: 'tool-call' as const,
        toolCallId: call.id,
        toolName: call.name,
        input: call.input,
      })),
    ],
  };
}

function sdkError(id: string, name: string): ModelMessage {
  return {
    role: 'tool',
    content: [
      {
        type: 'tool-result',
        toolCallId: id,
        toolName: name,
        output: { type: 'error-text', value: 'sdk says no' },
      },
    ],
  };
}

function resultText(part: { output: { type: string; value?: unknown } }): string {
  return String(part.output.value);
}

describe('planStep', () => {
  it('a step without tool calls is the final reply', () => {
    const plan = planStep(
      [{ role: 'assistant', content: [{ type: 'text', text: 'done' }] }],
      'ask_question',
      'done',
    );
    expect(plan).toMatchObject({ kind: 'final', text: 'done' });
  });

  const cases: Array<{
    name: string;
    messages: ModelMessage[];
    kind: 'pause' | 'tools';
    askCallId?: string;
    toRun?: string[];
    results: Array<[string, 'text' | 'error-text', RegExp]>;
    invalidAsks: number;
  }> = [
    {
      name: 'a valid ask alone pauses with no other results',
      messages: [assistant({ id: 'a', name: 'ask_question', input: VALID_ASK })],
      kind: 'pause',
      askCallId: 'a',
      results: [],
      invalidAsks: 0,
    },
    {
      name: 'a valid ask holds back the other tool call of the step',
      messages: [
        assistant(
          { id: 't', name: 'lookup', input: {} },
          { id: 'a', name: 'ask_question', input: VALID_ASK },
        ),
      ],
      kind: 'pause',
      askCallId: 'a',
      results: [['t', 'error-text', /held back/]],
      invalidAsks: 0,
    },
    {
      name: 'the SDK answer to an unknown tool is kept, not duplicated',
      messages: [
        assistant(
          { id: 'u', name: 'unknown_tool', input: {} },
          { id: 'a', name: 'ask_question', input: VALID_ASK },
        ),
        sdkError('u', 'unknown_tool'),
      ],
      kind: 'pause',
      askCallId: 'a',
      results: [['u', 'error-text', /sdk says no/]],
      invalidAsks: 0,
    },
    {
      name: 'a second valid ask in the step gets an error asking to batch',
      messages: [
        assistant(
          { id: 'a1', name: 'ask_question', input: VALID_ASK },
          { id: 'a2', name: 'ask_question', input: VALID_ASK },
        ),
      ],
      kind: 'pause',
      askCallId: 'a1',
      results: [['a2', 'error-text', /one ask_question call/]],
      invalidAsks: 0,
    },
    {
      name: 'an invalid ask before a valid one is answered with its error and counted',
      messages: [
        assistant(
          { id: 'bad', name: 'ask_question', input: INVALID_ASK },
          { id: 'ok', name: 'ask_question', input: VALID_ASK },
        ),
      ],
      kind: 'pause',
      askCallId: 'ok',
      results: [['bad', 'error-text', /questions/]],
      invalidAsks: 1,
    },
    {
      name: 'an invalid ask does not pause: the other calls run',
      messages: [
        assistant(
          { id: 'bad', name: 'ask_question', input: INVALID_ASK },
          { id: 't', name: 'lookup', input: {} },
        ),
      ],
      kind: 'tools',
      toRun: ['t'],
      results: [['bad', 'error-text', /questions/]],
      invalidAsks: 1,
    },
    {
      name: 'our decoder replaces the SDK verdict for ask_question (arguments that are not JSON)',
      messages: [
        assistant({ id: 'a', name: 'ask_question', input: 'not json {' }),
        sdkError('a', 'ask_question'),
      ],
      kind: 'tools',
      toRun: [],
      results: [['a', 'error-text', /example/i]],
      invalidAsks: 1,
    },
  ];

  for (const testCase of cases) {
    it(testCase.name, () => {
      const plan = planStep(testCase.messages, 'ask_question', '');
      expect(plan.kind).toBe(testCase.kind);
      const results = plan.kind === 'pause' ? plan.otherResults : plan.kind === 'tools' ? plan.decided : [];
      expect(results.map((part) => [part.toolCallId, part.output.type])).toEqual(
        testCase.results.map(([id, type]) => [id, type]),
      );
      testCase.results.forEach(([, , pattern], index) => {
        expect(resultText(results[index] as { output: { type: string; value?: unknown } })).toMatch(pattern);
      });
      if (plan.kind === 'pause') {
        expect(plan.askCall.toolCallId).toBe(testCase.askCallId);
        expect(plan.invalidAsks).toBe(testCase.invalidAsks);
      }
      if (plan.kind === 'tools') {
        expect(plan.toRun.map((call) => call.toolCallId)).toEqual(testCase.toRun);
        expect(plan.invalidAsks).toBe(testCase.invalidAsks);
      }
    });
  }
});
