import { describe, expect, it } from 'vitest';
import { NO_FOLLOW_UP } from '../asks/types.js';
import { decodeAskRequest } from './ask-request.js';

const DEFAULTS = {
  timeoutMs: 1_800_000,
  policy: 'recommended-or-first' as const,
  answerers: { mode: 'anyone' as const },
  followUp: NO_FOLLOW_UP,
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
    [
      { channel: 'C0OPS', questions: QUESTIONS, callbackUrl: 'http://169.254.169.254/latest/meta-data' },
      'invalid_request',
      'callbackUrl',
      'link-local address',
    ],
    // Our own words for every field, never zod's ("Invalid input: expected …").
    [null, 'invalid_request', '', 'the body: expected a JSON object with "questions"'],
    [[QUESTIONS], 'invalid_request', '', 'the body: expected a JSON object with "questions"'],
    [{ channel: 5, questions: QUESTIONS }, 'invalid_request', 'channel', 'channel: expected a channel id'],
    [{ user: 5, questions: QUESTIONS }, 'invalid_request', 'user', 'user: expected a user id'],
    [
      { channel: 'C0OPS', questions: QUESTIONS, answerers: 'me' },
      'invalid_request',
      'answerers',
      'use "anyone"',
    ],
    [
      { channel: 'C0OPS', questions: QUESTIONS, timeoutPolicy: 'maybe' },
      'invalid_request',
      'timeoutPolicy',
      'timeoutPolicy: expected one of recommended-or-first, recommended-only, no-answer',
    ],
    [
      { channel: 'C0OPS', questions: QUESTIONS, metadata: [1] },
      'invalid_request',
      'metadata',
      'a JSON object',
    ],
    [{ channel: 'C0OPS', questions: QUESTIONS, text: 5 }, 'invalid_request', 'text', '1 to 2000 characters'],
    [{ channel: 'C0OPS', questions: QUESTIONS, timeout: true }, 'invalid_request', 'timeout', 'a duration'],
  ])('%j is refused (%s at %s)', (body, code, path, message) => {
    const decoded = decodeAskRequest(body, DEFAULTS);
    expect(decoded.ok).toBe(false);
    if (decoded.ok) return;
    expect(decoded.problem).toMatchObject({ code, path });
    expect(decoded.problem.message).toContain(message);
    expect(decoded.problem.message).not.toMatch(/Invalid input|Invalid option/);
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

describe('decodeAskRequest: follow-ups', () => {
  const base = { channel: 'C0OPS', questions: [{ question: 'Ship?', options: ['Yes', 'No'] }] };
  const defaults = {
    timeoutMs: 1_800_000,
    policy: 'recommended-or-first' as const,
    answerers: { mode: 'anyone' as const },
    followUp: { ...NO_FOLLOW_UP, escalation: { afterMs: 60_000, userIds: ['U0LEAD'], groupIds: [] } },
  };

  it('takes quorum and an escalation, and null turns the configured escalation off', () => {
    const decoded = decodeAskRequest(
      { ...base, quorum: 2, escalation: { after: '20m', to: ['U0LEAD', 'S0SRE'] } },
      defaults,
    );
    expect(decoded.ok && decoded.request.followUp).toMatchObject({
      quorum: 2,
      escalation: { afterMs: 1_200_000, userIds: ['U0LEAD'], groupIds: ['S0SRE'] },
    });
    const off = decodeAskRequest({ ...base, escalation: null }, defaults);
    expect(off.ok && off.request.followUp.escalation).toBeNull();
  });

  it.each([
    [{ quorum: 0 }, 'quorum: expected a whole number from 1 to 20'],
    [{ escalation: { after: '20m' } }, 'escalation.to: expected a list of user ids'],
    [{ escalation: { after: 'soon', to: ['U0LEAD'] } }, 'escalation.after: "soon" is not a duration'],
    [{ escalation: { after: '20m', to: ['bob'] } }, 'escalation.to: use a list of user ids'],
  ])('refuses %j: %s', (extra, message) => {
    const decoded = decodeAskRequest({ ...base, ...extra }, defaults);
    expect(decoded.ok).toBe(false);
    if (!decoded.ok) expect(decoded.problem.message).toContain(message);
  });
});
