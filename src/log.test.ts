import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import {
  censorSecrets,
  createLogger,
  HELD_LOG_MAX_LINES,
  holdBackLog,
  REDACTED,
  scrubSecrets,
  withIds,
} from './log.js';

/** A destination that keeps every line in memory. */
function memoryStream(): { stream: Writable; lines: () => Record<string, unknown>[]; text: () => string } {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      chunks.push(chunk.toString('utf8'));
      callback();
    },
  });
  const text = (): string => chunks.join('');
  const lines = (): Record<string, unknown>[] =>
    text()
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
  return { stream, lines, text };
}

const SECRETS = [
  'xoxb-1111-2222-SECRETBOT',
  'xapp-1-A1-3333-SECRETAPP',
  'f00dSECRETSIGNING',
  'sk-ant-api03-SECRETANTHROPIC',
  'sk-proj-SECRETOPENAI0123456789',
  'SECRETREDISPASSWORD',
  'SECRETCOOKIE',
];

describe('createLogger', () => {
  it('writes no secret anywhere in a line full of them', () => {
    const memory = memoryStream();
    const logger = createLogger({ level: 'trace' }, memory.stream);
    const child = logger.child({ slack: { botToken: 'xoxb-1111-2222-SECRETBOT' } });
    child.info(
      {
        config: {
          slack: { botToken: SECRETS[0], appToken: SECRETS[1], signingSecret: SECRETS[2] },
          model: { apiKey: SECRETS[3] },
          redis: { url: `redis://:${SECRETS[5]}@redis:6379` },
        },
        SLACK_BOT_TOKEN: SECRETS[0],
        OPENAI_API_KEY: SECRETS[4],
        authorization: `Bearer ${SECRETS[0]}`,
        headers: { authorization: `Bearer ${SECRETS[4]}`, Cookie: SECRETS[6], 'x-api-key': SECRETS[3] },
        request: { deep: { deeper: { password: 'SECRETREDISPASSWORD', list: [{ token: SECRETS[1] }] } } },
        err: Object.assign(new Error(`call failed with token ${SECRETS[0]}`), {
          data: { headers: { Authorization: `Bearer ${SECRETS[3]}` } },
        }),
        note: `pasted ${SECRETS[4]} by mistake`,
      },
      'posting with %s failed',
      SECRETS[0],
    );
    child.error(new Error(`boom ${SECRETS[3]}`));
    const text = memory.text();
    expect(memory.lines()).toHaveLength(2);
    for (const secret of SECRETS) expect(text).not.toContain(secret);
    expect(text).not.toContain('SECRET');
    expect(text).toContain(REDACTED);
  });

  it('keeps ordinary fields, token counts and the message', () => {
    const memory = memoryStream();
    const logger = createLogger({ level: 'info' }, memory.stream);
    logger.info(
      { usage: { inputTokens: 12, outputTokens: 3 }, channel: 'C1', nested: { ok: true } },
      'step done',
    );
    expect(memory.lines()[0]).toMatchObject({
      level: 30,
      service: 'holdpoint',
      msg: 'step done',
      usage: { inputTokens: 12, outputTokens: 3 },
      channel: 'C1',
      nested: { ok: true },
    });
  });

  it('respects the level', () => {
    const memory = memoryStream();
    const logger = createLogger({ level: 'warn' }, memory.stream);
    logger.info('hidden');
    logger.warn('shown');
    expect(memory.lines().map((line) => line.msg)).toEqual(['shown']);
  });
});

describe('withIds', () => {
  it('puts the turn and ask ids on every line, leaving out missing ones', () => {
    const memory = memoryStream();
    const logger = createLogger({ level: 'info' }, memory.stream);
    const turnLogger = withIds(logger, { turnId: 'turn-1', askId: null });
    const askLogger = withIds(turnLogger, { askId: 'ask-1', jobId: undefined });
    turnLogger.info('a');
    askLogger.info('b');
    askLogger.warn({ extra: 1 }, 'c');
    const lines = memory.lines();
    expect(lines[0]).toMatchObject({ turnId: 'turn-1', msg: 'a' });
    expect(lines[0]).not.toHaveProperty('askId');
    expect(lines[1]).toMatchObject({ turnId: 'turn-1', askId: 'ask-1', msg: 'b' });
    expect(lines[2]).toMatchObject({ turnId: 'turn-1', askId: 'ask-1', extra: 1 });
    expect(lines[2]).not.toHaveProperty('jobId');
  });
});

describe('scrubSecrets', () => {
  it.each([
    ['token xoxb-1-2-abc here', `token ${REDACTED} here`],
    ['xoxp-9-abc', REDACTED],
    ['xapp-1-A1-abc', REDACTED],
    ['key sk-ant-api03-abc_DEF', `key ${REDACTED}`],
    ['sk-proj-0123456789abcdefXYZ', REDACTED],
    ['Authorization: Bearer abc.def-ghi', `Authorization: Bearer ${REDACTED}`],
    ['redis://:pw@h:6379 and rediss://u:p@h', `redis://:${REDACTED}@h:6379 and rediss://u:${REDACTED}@h`],
    ['ask-sk-short stays', 'ask-sk-short stays'],
    ['nothing secret', 'nothing secret'],
  ])('%j', (text, expected) => {
    expect(scrubSecrets(text)).toBe(expected);
  });
});

describe('censorSecrets', () => {
  it('handles cycles, depth and nulls', () => {
    const cyclic: Record<string, unknown> = { name: 'x', token: null };
    cyclic.self = cyclic;
    expect(censorSecrets(cyclic)).toEqual({ name: 'x', token: null, self: '[Circular]' });
    let deep: Record<string, unknown> = { leaf: 1 };
    for (let level = 0; level < 10; level += 1) deep = { next: deep };
    expect(JSON.stringify(censorSecrets(deep))).toContain('[Too deep]');
  });

  it('keeps shared (non-cyclic) references', () => {
    const shared = { a: 1 };
    expect(censorSecrets({ x: shared, y: shared })).toEqual({ x: { a: 1 }, y: { a: 1 } });
  });
});

describe('errors', () => {
  it('are logged with their type, message and own fields', () => {
    const memory = memoryStream();
    const logger = createLogger({ level: 'info' }, memory.stream);
    class SlackApiError extends Error {}
    logger.error(
      { err: Object.assign(new SlackApiError('ratelimited'), { code: 'slack_429' }) },
      'post failed',
    );
    logger.error(new TypeError('bad'));
    const [first, second] = memory.lines();
    expect(first?.err).toMatchObject({ type: 'SlackApiError', message: 'ratelimited', code: 'slack_429' });
    expect(second).toMatchObject({ msg: 'bad', err: { type: 'TypeError', message: 'bad' } });
  });
});

describe('provider errors in logs', () => {
  it('omit the request body (people’s messages) and cut long strings', () => {
    let out = '';
    const sink = new Writable({
      write(chunk, _encoding, done) {
        out += chunk.toString();
        done();
      },
    });
    const logger = createLogger({ level: 'info' }, sink);
    const error = Object.assign(new Error('provider said 500'), {
      requestBodyValues: { messages: [{ role: 'user', content: 'private conversation' }] },
      responseBody: 'x'.repeat(5000),
    });
    logger.error({ err: error }, 'turn job failed');
    expect(out).toContain('provider said 500');
    expect(out).not.toContain('private conversation');
    expect(out.length).toBeLessThan(4000);
  });
});

describe('holdBackLog', () => {
  it('holds lines until released, then writes them in order and passes later ones through', () => {
    const memory = memoryStream();
    const held = holdBackLog(memory.stream);
    const logger = createLogger({ level: 'info' }, held);
    logger.warn('first');
    logger.info('second');
    expect(memory.text()).toBe('');
    held.release();
    logger.info('third');
    expect(memory.lines().map((line) => line.msg)).toEqual(['first', 'second', 'third']);
    held.release();
    expect(memory.lines()).toHaveLength(3);
  });

  it('forgets the held lines when discarded, and passes later ones through', () => {
    const memory = memoryStream();
    const held = holdBackLog(memory.stream);
    const logger = createLogger({ level: 'info' }, held);
    logger.warn('Redis connection error; reconnecting');
    held.discard();
    logger.fatal('after');
    held.release();
    expect(memory.lines().map((line) => line.msg)).toEqual(['after']);
  });

  it(`releases everything once it holds more than ${HELD_LOG_MAX_LINES} lines`, () => {
    const memory = memoryStream();
    const held = holdBackLog(memory.stream);
    const logger = createLogger({ level: 'info' }, held);
    for (let index = 0; index < HELD_LOG_MAX_LINES; index += 1) logger.info(`line ${index}`);
    expect(memory.text()).toBe('');
    logger.info('one too many');
    expect(memory.lines()).toHaveLength(HELD_LOG_MAX_LINES + 1);
    expect(memory.lines().at(-1)?.msg).toBe('one too many');
  });
});
