import { describe, expect, it } from 'vitest';
import { decodeAskRequest } from './ask-request.js';

const DEFAULTS = {
  timeoutMs: 1_800_000,
  policy: 'recommended-or-first' as const,
  answerers: { mode: 'anyone' as const },
};
const QUESTIONS = [{ question: 'Ship?', options: ['Ship it (Recommended)', 'Hold'] }];

describe('decodeAskRequest', () => {
  it.each([
    ['90', 90_000],
    [90, 90_000],
    ['15m', 900_000],
  ])('timeout %j is %i ms', (timeout, ms) => {
    const decoded = decodeAskRequest({ channel: 'C0OPS', questions: QUESTIONS, timeout }, DEFAULTS);
    expect(decoded.ok && decoded.request.timeoutMs).toBe(ms);
  });

  it.each([
    [{ channel: 'C0OPS' }, 'invalid_ask', 'questions', 'questions: required'],
    [{ questions: QUESTIONS }, 'invalid_request', 'channel', 'give exactly one of'],
    [
      { channel: 'C0OPS', user: 'U0BOB', questions: QUESTIONS },
      'invalid_request',
      'channel',
      'give exactly one of',
    ],
    [{ channel: 'C0OPS', questions: QUESTIONS, timeout: 0.5 }, 'invalid_request', 'timeout', '1s to 7d'],
    [{ channel: 'C0OPS', questions: QUESTIONS, nope: 1 }, 'invalid_request', 'nope', 'unknown field "nope"'],
    [
      { channel: 'C0OPS', questions: QUESTIONS, callbackUrl: 'ftp://x' },
      'invalid_request',
      'callbackUrl',
      'http or https',
    ],
    [{ channel: 'nope', questions: QUESTIONS }, 'invalid_request', 'channel', 'channel id'],
  ])('%j is refused (%s at %s)', (body, code, path, message) => {
    const decoded = decodeAskRequest(body, DEFAULTS);
    expect(decoded.ok).toBe(false);
    if (decoded.ok) return;
    expect(decoded.problem).toMatchObject({ code, path });
    expect(decoded.problem.message).toContain(message);
  });

  it("an invalid ask carries the model's own error text and the first issue's path", () => {
    const decoded = decodeAskRequest(
      { channel: 'C0OPS', questions: [{ question: 'Q?', options: ['only'] }] },
      DEFAULTS,
    );
    expect(decoded.ok).toBe(false);
    if (decoded.ok) return;
    expect(decoded.problem.code).toBe('invalid_ask');
    expect(decoded.problem.path).toBe('questions[0].options');
    expect(decoded.problem.message).toMatch(/^ask_question was not called correctly/);
  });
});
