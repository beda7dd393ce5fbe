import type { ModelMessage } from 'ai';
import { describe, expect, it } from 'vitest';
import { withMissingResultsClosed } from './end-turn.js';
import { errorResult, pairingProblems, textResult, withToolResult } from './tool-messages.js';

const call = (id: string, name = 'tool') => ({
  type: 'tool-call' as const,
  toolCallId: id,
  toolName: name,
  input: {},
});
const assistant = (...ids: string[]): ModelMessage => ({
  role: 'assistant',
  content: ids.map((id) => call(id)),
});
const tool = (...ids: string[]): ModelMessage => ({
  role: 'tool',
  content: ids.map((id) => textResult({ toolCallId: id, toolName: 'tool' }, `result ${id}`)),
});
const user: ModelMessage = { role: 'user', content: 'hi' };

describe('pairingProblems', () => {
  const cases: Array<[string, ModelMessage[], string[], number]> = [
    ['every call answered', [user, assistant('a', 'b'), tool('a', 'b')], [], 0],
    ['results split over two tool messages', [user, assistant('a', 'b'), tool('a'), tool('b')], [], 0],
    ['a missing result', [user, assistant('a', 'b'), tool('a')], [], 1],
    ['a missing result that is allowed (the pending ask)', [user, assistant('a', 'b'), tool('a')], ['b'], 0],
    ['a duplicate result', [user, assistant('a'), tool('a', 'a')], [], 1],
    ['a result after a user message does not count', [user, assistant('a'), user, tool('a')], [], 1],
  ];
  for (const [name, messages, allowed, count] of cases) {
    it(name, () => expect(pairingProblems(messages, allowed)).toHaveLength(count));
  }
});

describe('withToolResult', () => {
  it('adds the ask result to the tool message after its call, in call order', () => {
    const messages = [user, assistant('a', 'ask', 'c'), tool('c', 'a')];
    const next = withToolResult(
      messages,
      textResult({ toolCallId: 'ask', toolName: 'ask_question' }, 'answer'),
    );
    expect(next).toHaveLength(3);
    const results =
      next[2]?.role === 'tool'
        ? next[2].content.map((part) => (part.type === 'tool-result' ? part.toolCallId : ''))
        : [];
    expect(results).toEqual(['a', 'ask', 'c']);
    expect(pairingProblems(next)).toEqual([]);
  });

  it('creates the tool message when the ask was the only call of its step', () => {
    const messages = [user, assistant('ask')];
    const next = withToolResult(
      messages,
      textResult({ toolCallId: 'ask', toolName: 'ask_question' }, 'answer'),
    );
    expect(next.map((message) => message.role)).toEqual(['user', 'assistant', 'tool']);
    expect(pairingProblems(next)).toEqual([]);
  });

  it('replaces, never duplicates, an existing result for the same call', () => {
    const messages = [user, assistant('a'), tool('a')];
    const next = withToolResult(messages, errorResult({ toolCallId: 'a', toolName: 'tool' }, 'again'));
    expect(pairingProblems(next)).toEqual([]);
    expect(JSON.stringify(next[2])).toContain('again');
  });
});

describe('withMissingResultsClosed', () => {
  it('gives every unanswered call an "interrupted" error result so the request stays valid (C27)', () => {
    const messages = [user, assistant('a', 'b'), tool('a'), user, assistant('c')];
    const closed = withMissingResultsClosed(messages);
    expect(pairingProblems(closed)).toEqual([]);
    expect(JSON.stringify(closed)).toMatch(/Interrupted/);
    expect(pairingProblems(messages)).toHaveLength(2);
  });
});
