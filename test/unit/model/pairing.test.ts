import { describe, expect, it } from 'vitest';
import { recordedRequestBody } from '../../support/model-replay/fixtures.js';
import { checkToolPairing } from '../../support/model-replay/pairing.js';
import type { ReplayProvider } from '../../support/model-replay/types.js';

const user = (text: string) => ({ role: 'user', content: [{ type: 'text', text }] });
const toolUse = (id: string, name = 'ask_question') => ({ type: 'tool_use', id, name, input: {} });
const toolResult = (id: string, extra: Record<string, unknown> = {}) => ({
  type: 'tool_result',
  tool_use_id: id,
  content: 'ok',
  ...extra,
});
/** The C27 transcript: text, then tool_use toolu_A (search_docs) and toolu_B (ask_question). */
const c27Assistant = {
  role: 'assistant',
  content: [
    { type: 'text', text: 'Let me check the docs and ask you one thing.' },
    toolUse('toolu_A', 'search_docs'),
    toolUse('toolu_B'),
  ],
};
const anthropic = (...messages: unknown[]) => ({ model: 'claude-sonnet-4-5', max_tokens: 64000, messages });

const chatCall = (id: string) => ({
  id,
  type: 'function',
  function: { name: 'ask_question', arguments: '{}' },
});
const chatAssistant = (...ids: string[]) => ({
  role: 'assistant',
  content: null,
  tool_calls: ids.map(chatCall),
});
const chatTool = (id: string) => ({ role: 'tool', tool_call_id: id, content: 'ok' });
const chat = (...messages: unknown[]) => ({ model: 'gpt-4.1', messages });

const call = (id: string) => ({ type: 'function_call', call_id: id, name: 'ask_question', arguments: '{}' });
const output = (id: string) => ({ type: 'function_call_output', call_id: id, output: 'ok' });
const responsesInput = (...input: unknown[]) => ({ model: 'gpt-4.1', input });
const responsesUser = { role: 'user', content: [{ type: 'input_text', text: 'hi' }] };

describe('checkToolPairing', () => {
  it.each<[ReplayProvider, 'generate' | 'stream']>([
    ['anthropic', 'generate'],
    ['anthropic', 'stream'],
    ['openai-chat', 'generate'],
    ['openai-chat', 'stream'],
    ['openai-responses', 'generate'],
    ['openai-responses', 'stream'],
  ])('accepts the recorded %s %s continuation request for step (d)', (provider, mode) => {
    expect(checkToolPairing(provider, recordedRequestBody(provider, 'd-final-text', mode))).toEqual([]);
  });

  it.each<[string, ReplayProvider, unknown, string[]]>([
    // Anthropic
    [
      'C27 (a): both ids answered, results before text',
      'anthropic',
      anthropic(user('hi'), c27Assistant, {
        role: 'user',
        content: [toolResult('toolu_A'), toolResult('toolu_B'), { type: 'text', text: 'more' }],
      }),
      [],
    ],
    [
      'C27 (b): toolu_A answered with a synthetic is_error result',
      'anthropic',
      anthropic(user('hi'), c27Assistant, {
        role: 'user',
        content: [
          toolResult('toolu_A', { is_error: true, content: 'interrupted, not run' }),
          toolResult('toolu_B'),
        ],
      }),
      [],
    ],
    [
      'C27 broken: only toolu_B answered',
      'anthropic',
      anthropic(user('hi'), c27Assistant, { role: 'user', content: [toolResult('toolu_B')] }),
      ['messages[1] (assistant) tool_use toolu_A has no tool_result in messages[2]'],
    ],
    [
      'the transcript ends with the tool_use message',
      'anthropic',
      anthropic(user('hi'), c27Assistant),
      ['messages[1] (assistant) has tool_use toolu_A, toolu_B but no message follows it'],
    ],
    [
      'the next message is not a user message',
      'anthropic',
      anthropic(user('hi'), c27Assistant, { role: 'assistant', content: [{ type: 'text', text: 'x' }] }),
      ['messages[1] (assistant) has tool_use ids but messages[2] is assistant, not user'],
    ],
    [
      'the results come in a later user message, not the very next one',
      'anthropic',
      anthropic(user('hi'), c27Assistant, user('anything?'), {
        role: 'user',
        content: [toolResult('toolu_A'), toolResult('toolu_B')],
      }),
      [
        'messages[1] (assistant) tool_use toolu_A has no tool_result in messages[2]',
        'messages[1] (assistant) tool_use toolu_B has no tool_result in messages[2]',
        'messages[3] (user) has tool_result toolu_A with no matching tool_use in the previous assistant message',
        'messages[3] (user) has tool_result toolu_B with no matching tool_use in the previous assistant message',
      ],
    ],
    [
      'a text block before a tool_result',
      'anthropic',
      anthropic(user('hi'), c27Assistant, {
        role: 'user',
        content: [toolResult('toolu_A'), { type: 'text', text: 'note' }, toolResult('toolu_B')],
      }),
      ['messages[2] (user) has tool_result toolu_B after a text block'],
    ],
    [
      'a duplicate tool_result (the SDK already answered an invalid call and we answered again)',
      'anthropic',
      anthropic(user('hi'), c27Assistant, {
        role: 'user',
        content: [toolResult('toolu_A'), toolResult('toolu_B'), toolResult('toolu_A')],
      }),
      ['messages[2] (user) has a duplicate tool_result for toolu_A'],
    ],
    [
      'an empty user content array',
      'anthropic',
      anthropic(
        user('hi'),
        { role: 'assistant', content: [{ type: 'text', text: 'ok' }] },
        { role: 'user', content: [] },
      ),
      ['messages[2] (user) has an empty content array'],
    ],
    ['no messages array', 'anthropic', { model: 'x' }, ['body.messages is not an array']],
    ['not an object', 'anthropic', 'nope', ['request body is not a JSON object']],
    // OpenAI Chat Completions
    [
      'parallel calls, both answered',
      'openai-chat',
      chat(user('hi'), chatAssistant('call_A', 'call_B'), chatTool('call_B'), chatTool('call_A')),
      [],
    ],
    [
      'a call without a tool message',
      'openai-chat',
      chat(user('hi'), chatAssistant('call_A', 'call_B'), chatTool('call_B'), {
        role: 'user',
        content: 'hi',
      }),
      ['messages[1] (assistant) tool_call call_A has no tool message after it'],
    ],
    [
      'a user message between the call and its result',
      'openai-chat',
      chat(user('hi'), chatAssistant('call_A'), { role: 'user', content: 'hello?' }, chatTool('call_A')),
      [
        'messages[1] (assistant) tool_call call_A has no tool message after it',
        'messages[3] (tool) answers call_A but does not follow an assistant message with tool_calls',
      ],
    ],
    [
      'a duplicate tool message',
      'openai-chat',
      chat(user('hi'), chatAssistant('call_A'), chatTool('call_A'), chatTool('call_A')),
      ['messages[3] (tool) is a duplicate result for call_A'],
    ],
    [
      'a tool message for an id that was not called',
      'openai-chat',
      chat(user('hi'), chatAssistant('call_A'), chatTool('call_A'), chatTool('call_Z')),
      ['messages[3] (tool) answers call_Z, which messages[1] did not call'],
    ],
    [
      'the conversation ends with unanswered calls',
      'openai-chat',
      chat(user('hi'), chatAssistant('call_A')),
      ['messages[1] (assistant) tool_call call_A has no tool message after it'],
    ],
    // OpenAI Responses
    [
      'two calls, each answered once',
      'openai-responses',
      responsesInput(responsesUser, call('call_A'), call('call_B'), output('call_B'), output('call_A')),
      [],
    ],
    [
      'a call without an output',
      'openai-responses',
      responsesInput(responsesUser, call('call_A'), call('call_B'), output('call_B')),
      ['input[1] function_call call_A has no function_call_output after it'],
    ],
    [
      'two outputs for one call',
      'openai-responses',
      responsesInput(responsesUser, call('call_A'), output('call_A'), output('call_A')),
      ['function_call call_A has 2 function_call_output items'],
    ],
    [
      'an output before its call',
      'openai-responses',
      responsesInput(responsesUser, output('call_A'), call('call_A')),
      [
        'input[1] function_call_output call_A has no function_call before it',
        'input[2] function_call call_A has no function_call_output after it',
      ],
    ],
    [
      'an output whose call is behind an item_reference is not flagged',
      'openai-responses',
      responsesInput(responsesUser, { type: 'item_reference', id: 'fc_1' }, output('call_A')),
      [],
    ],
  ])('%s (%s)', (_name, provider, body, expected) => {
    expect(checkToolPairing(provider, body)).toEqual(expected);
  });
});
