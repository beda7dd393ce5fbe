import { readFileSync } from 'node:fs';
import { modelMessageSchema } from 'ai';
import { describe, expect, it } from 'vitest';
import type { TurnRecord } from '../agent/turn-record.js';
import type { AskDefinition } from '../asks/types.js';
import { StateError } from '../errors.js';
import {
  deserializeAskDefinition,
  deserializeQuestionResolution,
  deserializeTurnRecord,
  serializeAskDefinition,
  serializeTurnRecord,
} from './schemas.js';

const fixtureText = readFileSync(new URL('../../test/fixtures/state/turn-v1.json', import.meta.url), 'utf8');
const KEY = 'hp:{t:T1}:turn';

const turn: TurnRecord = {
  version: 2,
  turnId: 'T1',
  rev: 3,
  status: 'paused',
  conversation: { surface: 'slack', channel: 'C1', threadTs: '1700000000.000100', teamId: 'T0001' },
  requestedBy: 'U1',
  messages: [
    { role: 'system', content: 'You are holdpoint.' },
    { role: 'user', content: [{ type: 'text', text: 'roll back payments' }] },
    {
      role: 'assistant',
      content: [
        {
          type: 'reasoning',
          text: 'Check the runbook first.',
          providerOptions: { anthropic: { signature: 'EqQBCkgIARABGAIiQL8nTq3yC4Ff3n1vZ0mJ0Q9y7aWk2s0d' } },
        },
        { type: 'text', text: 'Checking.', providerOptions: { openai: { itemId: 'msg_123' } } },
        { type: 'tool-call', toolCallId: 'toolu_A', toolName: 'lookup_runbook', input: { q: 'rollback' } },
        {
          type: 'tool-call',
          toolCallId: 'toolu_B',
          toolName: 'ask_question',
          input: { questions: [{ question: 'Which release?', options: ['v1', 'v2'] }] },
        },
      ],
    },
    {
      role: 'tool',
      content: [
        {
          type: 'tool-result',
          toolCallId: 'toolu_A',
          toolName: 'lookup_runbook',
          output: { type: 'text', value: 'Not run: the turn paused for a question.' },
        },
      ],
    },
  ],
  pendingAskId: 'ask-0',
  stepCount: 1,
  invalidAskCount: 0,
  askCount: 1,
  outbox: [{ key: 'reply-T1', kind: 'reply', text: 'Done', state: 'pending' }],
  createdAt: '2023-11-14T22:13:20.000Z',
  updatedAt: '2023-11-14T22:13:23.512+00:00',
};

const ask: AskDefinition = {
  version: 2,
  askId: 'ask-0',
  scope: 'T1',
  waiter: { kind: 'turn', turnId: 'T1', toolCallId: 'toolu_B' },
  ordinal: 0,
  questions: [
    {
      header: 'Release',
      question: 'Which release?',
      kind: 'choice',
      multiSelect: false,
      purpose: null,
      options: [
        { label: 'v2', description: 'last green', recommended: true },
        { label: 'v1', description: null, recommended: false },
      ],
    },
    {
      header: null,
      question: 'Anything else?',
      kind: 'free_text',
      multiSelect: false,
      purpose: 'context',
      options: null,
    },
  ],
  conversation: { surface: 'slack', channel: 'C1', threadTs: '1700000000.000100' },
  requestedBy: 'U1',
  answerers: { mode: 'list', userIds: ['U1', 'U2'], groupIds: ['S1'] },
  timeoutMs: 1_800_000,
  policy: 'recommended-or-first',
  createdAt: '2023-11-14T22:13:23.000Z',
};

describe('turn records', () => {
  it('round-trips a version-2 turn exactly (ids, provider metadata, ISO dates)', () => {
    const back = deserializeTurnRecord(serializeTurnRecord(turn), KEY);
    expect(back).toStrictEqual(turn);
  });

  it('reads the historical version-1 fixture as version 2', () => {
    const v1 = JSON.parse(fixtureText) as Record<string, unknown>;
    const upgraded = deserializeTurnRecord(fixtureText, KEY);
    const { version: _v, status: _s, ...unchanged } = v1;
    expect(upgraded).toStrictEqual({ ...unchanged, version: 2, status: 'paused', askCount: 1, outbox: [] });
  });

  it('keeps the fixture realistic: every message is a valid AI SDK ModelMessage', async () => {
    const v1 = JSON.parse(fixtureText) as { messages: unknown[] };
    for (const message of v1.messages) {
      expect((await modelMessageSchema.safeParseAsync(message)).success).toBe(true);
    }
  });

  it('keeps tool-call ids and the thinking signature of the fixture', () => {
    const upgraded = deserializeTurnRecord(fixtureText, KEY);
    const assistant = upgraded.messages[2];
    expect(assistant?.role).toBe('assistant');
    expect(JSON.stringify(assistant)).toContain('toolu_01Z9y8X7w6V5u4T3s2R1qPoN');
    expect(JSON.stringify(assistant)).toContain('"signature":"EqQBCkgIARABGAIiQL8nTq3y');
  });

  it.each([
    [
      'an unknown version',
      { ...turn, version: 3 },
      'state_unknown_version',
      /version 3.*hp:\{t:T1\}:turn|hp:\{t:T1\}:turn.*version 3/,
    ],
    ['no version', { ...turn, version: undefined }, 'state_unknown_version', /undefined/],
    ['a string version', { ...turn, version: '2' }, 'state_unknown_version', /"2"/],
    ['a bad status', { ...turn, status: 'waiting' }, 'state_invalid_record', /status/],
    ['a message without role', { ...turn, messages: [{ content: 'x' }] }, 'state_invalid_record', /messages/],
    ['a non-ISO date', { ...turn, createdAt: 'yesterday' }, 'state_invalid_record', /createdAt/],
  ])('refuses %s with a StateError', (_name, value, code, message) => {
    let caught: unknown;
    try {
      deserializeTurnRecord(JSON.stringify(value), KEY);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(StateError);
    expect((caught as StateError).code).toBe(code);
    expect((caught as StateError).message).toMatch(message);
    expect((caught as StateError).message).toContain(KEY);
  });

  it('refuses text that is not JSON', () => {
    expect(() => deserializeTurnRecord('{"version":', KEY)).toThrow(
      expect.objectContaining({ code: 'state_corrupt_record' }),
    );
  });
});

describe('ask definitions and resolutions', () => {
  it('round-trips an ask definition', () => {
    expect(deserializeAskDefinition(serializeAskDefinition(ask), 'k')).toStrictEqual(ask);
  });

  it("reads a version-1 definition (a turn's ask) as version 2: the turn is its scope and its waiter", () => {
    const { scope: _scope, waiter: _waiter, ...rest } = ask;
    const v1 = { ...rest, version: 1, turnId: 'T1', toolCallId: 'toolu_B' };
    expect(deserializeAskDefinition(JSON.stringify(v1), 'k')).toStrictEqual(ask);
  });

  it('refuses an unknown ask version', () => {
    expect(() => deserializeAskDefinition(JSON.stringify({ ...ask, version: 3 }), 'k')).toThrow(
      expect.objectContaining({ code: 'state_unknown_version' }),
    );
  });

  it('reads a resolution and refuses a bad one', () => {
    const resolution = {
      status: 'answered',
      selected: ['v2'],
      other: null,
      answeredBy: 'U2',
      answeredAt: '2023-11-14T22:14:00.000Z',
      source: 'button',
      assumption: null,
    };
    expect(deserializeQuestionResolution(JSON.stringify(resolution), 'k')).toStrictEqual(resolution);
    expect(() =>
      deserializeQuestionResolution(JSON.stringify({ ...resolution, source: 'telepathy' }), 'k'),
    ).toThrow(StateError);
  });
});
