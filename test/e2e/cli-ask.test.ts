/**
 * `holdpoint ask` against the running app (real runtime, fake Slack): each exit code a shell script gates
 * on, from a real answer, a timeout, a cancel and an invalid ask.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ASK_EXIT, askCommand } from '../../src/cli/ask-command.js';
import type { CliIo } from '../../src/cli/cli-io.js';
import { waitFor } from '../support/engine-harness.js';
import { testRedisUrl } from '../support/redis.js';
import { scriptedModel } from '../support/scripted-model.js';
import {
  clickMessageRequest,
  firstAskTs,
  type SlackHarness,
  startSlackHarness,
} from '../support/slack-harness.js';

const TOKEN = 't'.repeat(40);

let harness: SlackHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

function recordingIo(): CliIo & { out: string[]; err: string[] } {
  const out: string[] = [];
  const err: string[] = [];
  return {
    out,
    err,
    stdout: (text) => out.push(text),
    stderr: (text) => err.push(text),
    readStdin: async () => '',
    readFile: async () => '',
  };
}

async function start(): Promise<{
  h: SlackHarness;
  run: (
    argv: string[],
    files?: Record<string, string>,
  ) => { io: ReturnType<typeof recordingIo>; code: Promise<number> };
}> {
  const h = await startSlackHarness({
    redisUrl: testRedisUrl(),
    model: scriptedModel(() => ({ text: 'unused' })),
    env: { API_TOKENS: `release:${TOKEN}` },
    // Only the resolution's announcement can return a waiting call within the test.
    tuning: { askPollIntervalMs: 600_000 },
  });
  harness = h;
  const command = askCommand({ HOLDPOINT_URL: h.baseUrl, HOLDPOINT_TOKEN: TOKEN });
  return {
    h,
    run: (argv, files = {}) => {
      const io = recordingIo();
      io.readFile = async (path) => {
        const text = files[path];
        if (text === undefined) throw new Error(`ENOENT: no such file, open '${path}'`);
        return text;
      };
      return { io, code: command.run(argv, io) };
    },
  };
}

const ASK = [
  '--channel',
  'C0OPS',
  '--header',
  'Deploy',
  '--question',
  'Ship 2.41?',
  '--option',
  'Ship it (Recommended)',
  '--option',
  'Hold',
];

/** The id the command printed on stderr once the ask was posted. */
async function askedId(io: { err: string[] }): Promise<string> {
  const line = await waitFor(
    async () => io.err.find((text) => text.startsWith('asked: ')),
    10_000,
    'the ask id on stderr',
  );
  return line.slice('asked: '.length).split(' ')[0] ?? '';
}

describe('holdpoint ask', () => {
  it('exits 0 when a person answers, printing the answer', async () => {
    const { h, run } = await start();
    const { io, code } = run(ASK);
    await askedId(io);
    const click = clickMessageRequest(h, 'C0OPS', await firstAskTs(h), 'U0BOB', 'hp.option.0.1');
    expect((await h.send(click)).status).toBe(200);
    expect(await code).toBe(ASK_EXIT.answered);
    expect(io.out.join('')).toBe('Deploy: Hold (answered by U0BOB)\n');
  }, 15_000);

  it('exits 3 when nobody answers in time (the recommended option is assumed)', async () => {
    const { run } = await start();
    const { io, code } = run([...ASK, '--timeout', '1s', '--json']);
    expect(await code).toBe(ASK_EXIT.assumed);
    expect(JSON.parse(io.out.join(''))).toMatchObject({
      status: 'resolved',
      answers: [{ status: 'assumed', selected: ['Ship it'] }],
    });
  }, 15_000);

  it('a FILE is a POST /v1/asks body: its channel, timeout and metadata count; flags win', async () => {
    const { h, run } = await start();
    const body = {
      channel: 'C0ELSEWHERE',
      timeout: '1s',
      metadata: { build: 7 },
      questions: [{ header: 'Deploy', question: 'Ship 2.41?', options: ['Ship it (Recommended)', 'Hold'] }],
    };
    const { io, code } = run(['--channel', 'C0OPS', '--json', 'ask.json'], {
      'ask.json': JSON.stringify(body),
    });
    expect(await code).toBe(ASK_EXIT.assumed);
    expect(JSON.parse(io.out.join(''))).toMatchObject({
      channel: 'C0OPS',
      metadata: { build: 7 },
      answers: [{ status: 'assumed', selected: ['Ship it'] }],
    });
    // Without the flag, the file's channel is used.
    const fromFile = run(['ask.json'], {
      'ask.json': JSON.stringify({ ...body, channel: 'C0OPS', timeout: 1 }),
    });
    expect(await fromFile.code).toBe(ASK_EXIT.assumed);
    expect(h.fake.callsTo('chat.postMessage').filter((c) => c.args.channel === 'C0OPS')).toHaveLength(2);
  }, 20_000);

  it('exits 4 when the ask is canceled (holdpoint ask cancel ID exits 0)', async () => {
    const { run } = await start();
    const { io, code } = run(ASK);
    const id = await askedId(io);
    const cancel = run(['cancel', id]);
    expect(await cancel.code).toBe(0);
    expect(await code).toBe(ASK_EXIT.canceled);
  });

  it('exits 2 for an invalid ask, with the precise error on stderr and nothing posted', async () => {
    const { h, run } = await start();
    const { io, code } = run(['--channel', 'C0OPS', '--question', 'Ship?', '--option', 'Only one']);
    expect(await code).toBe(ASK_EXIT.invalid);
    expect(io.err.join('')).toContain('questions[0].options');
    expect(h.fake.callsTo('chat.postMessage')).toHaveLength(0);
  });

  it.each([
    [['--channel', 'C0OPS', '--user', 'U0BOB', '--question', 'Q?'], 'give --channel or --user, not both'],
    [['--question', 'Q?', 'ask.json'], '--question cannot be used with a FILE'],
    [['a.json', 'b.json'], 'one FILE at most'],
  ])('exits 2 for conflicting arguments %j, posting nothing', async (argv, message) => {
    const { h, run } = await start();
    const { io, code } = run(argv, { 'ask.json': '{}', 'a.json': '{}', 'b.json': '{}' });
    expect(await code).toBe(ASK_EXIT.invalid);
    expect(io.err.join('')).toContain(message);
    expect(h.fake.callsTo('chat.postMessage')).toHaveLength(0);
  });

  it('exits 1 with what to check when HOLDPOINT_URL has no scheme or the server has no API', async () => {
    const io = recordingIo();
    expect(await askCommand({ HOLDPOINT_URL: 'localhost:3000', HOLDPOINT_TOKEN: TOKEN }).run(ASK, io)).toBe(
      1,
    );
    expect(io.err.join('')).toContain('HOLDPOINT_URL=localhost:3000 is not an http:// or https:// URL');
    const h = await startSlackHarness({
      redisUrl: testRedisUrl(),
      model: scriptedModel(() => ({ text: 'unused' })),
    });
    harness = h;
    const off = recordingIo();
    expect(await askCommand({ HOLDPOINT_URL: h.baseUrl, HOLDPOINT_TOKEN: TOKEN }).run(ASK, off)).toBe(1);
    expect(off.err.join('')).toContain('check HOLDPOINT_URL, and that the server has API_TOKENS set');
  });

  it('exits 1 when the token is refused', async () => {
    const h = await startSlackHarness({
      redisUrl: testRedisUrl(),
      model: scriptedModel(() => ({ text: 'unused' })),
      env: { API_TOKENS: `release:${TOKEN}` },
    });
    harness = h;
    const io = recordingIo();
    const code = await askCommand({ HOLDPOINT_URL: h.baseUrl, HOLDPOINT_TOKEN: 'w'.repeat(40) }).run(ASK, io);
    expect(code).toBe(ASK_EXIT.failed);
    expect(io.err.join('')).toContain('401');
  });

  it('exits 1 (not 2) when the server cannot be reached', async () => {
    const io = recordingIo();
    const code = await askCommand({ HOLDPOINT_URL: 'http://127.0.0.1:9', HOLDPOINT_TOKEN: TOKEN }).run(
      ASK,
      io,
    );
    expect(code).toBe(ASK_EXIT.failed);
    expect(io.err.join('')).toContain('cannot reach');
  });
});
