// biome-ignore-all lint/suspicious/noTemplateCurlyInString: config text that holds ${VAR}
/**
 * Tools that act, on the built app (`node dist/src/main.js`): the config file (HOLDPOINT_CONFIG) names a
 * real stdio MCP server from test/support, which counts its calls in a file; the model is the real
 * `@ai-sdk/anthropic` client against the model replay; Slack is the fake Web API with signed clicks.
 * A read-only tool runs without an approval; a gated one pauses on an approval and runs once when
 * approved, never when denied or timed out with onTimeout deny; only approvers decide; a worker killed in
 * the middle of a call does not run it again unless the tool is idempotent; a server that is down at
 * start-up leaves the bot serving; a bad config file stops the start with each problem and its line.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { waitFor } from '../support/engine-harness.js';
import { type FakeSlack, startFakeSlack } from '../support/fake-slack/index.js';
import { stdioServerYaml } from '../support/mcp-config.js';
import { type ModelReplay, startModelReplay } from '../support/model-replay/model-replay.js';
import { checkToolPairing } from '../support/model-replay/pairing.js';
import { freePort, type RedisServerHandle } from '../support/redis-server.js';
import { TEST_SIGNING_SECRET } from '../support/slack-harness.js';
import { answerModalValues, viewSubmissionRequest } from '../support/slack-payloads.js';
import { type ProductionApp, runProductionAppToExit, startProductionApp } from './support/production-app.js';
import { productionEnv, scopeEnv, startComposeRedis } from './support/production-env.js';
import { newThread } from './support/slack-thread.js';
import { trailingToolResults } from './support/wire.js';

let redis: RedisServerHandle;
let fake: FakeSlack;
let replay: ModelReplay;
let dir: string;
/** Each test's own queue and key prefixes (its apps share them; a killed app's leftovers stay out of the next test). */
let scope: string;
const running: ProductionApp[] = [];

beforeAll(async () => {
  [redis, fake, replay] = await Promise.all([startComposeRedis(), startFakeSlack(), startModelReplay()]);
});
afterAll(async () => {
  await Promise.all([replay?.close(), fake?.close(), redis?.stop()]);
});
beforeEach(() => {
  replay.reset();
  dir = mkdtempSync(join(tmpdir(), 'hp-tools-'));
  scope = `tools-${Math.random().toString(36).slice(2, 10)}`;
});
afterEach(async () => {
  await Promise.all(running.splice(0).map((app) => app.stop('SIGKILL')));
});

/** The config file: the deploy server, and `rules` (YAML lines under `approvals:`). */
function configFile(rules: string, extraServers = '', callTimeout = '20s'): string {
  const path = join(dir, 'holdpoint.yaml');
  writeFileSync(
    path,
    `mcpServers:
${stdioServerYaml('deploy', '{ MCP_CALLS_FILE: "${MCP_CALLS_FILE}", MCP_HOLD_FILE: "${MCP_HOLD_FILE}" }', [`callTimeout: ${callTimeout}`])}
${extraServers}
approvals:
${rules || '  []'}
`,
  );
  return path;
}

function toolEnv(config: string, env: Record<string, string> = {}): Promise<Record<string, string>> {
  return freePort().then((port) =>
    productionEnv({
      fake,
      replay,
      redisUrl: redis.url,
      port,
      model: 'anthropic',
      env: {
        HOLDPOINT_CONFIG: config,
        ...scopeEnv(scope),
        MCP_CALLS_FILE: join(dir, 'calls'),
        MCP_HOLD_FILE: join(dir, 'hold'),
        ...env,
      },
    }),
  );
}

async function start(config: string, env: Record<string, string> = {}): Promise<ProductionApp> {
  const app = await startProductionApp(await toolEnv(config, env));
  running.push(app);
  return app;
}

/** Tool calls the MCP server received, in order (across its restarts). */
function calls(): string[] {
  const path = join(dir, 'calls');
  return existsSync(path) ? readFileSync(path, 'utf8').split('\n').filter(Boolean) : [];
}

const ROLLBACK = { name: 'deploy_rollback', input: { service: 'payments-api', version: '2.40' } };

/** The model calls `call` in its first step and then ends with a text naming what it got. */
function modelCalls(call: { name: string; input: unknown }): void {
  replay.enqueue(
    'anthropic',
    { text: 'Checks fail on 3 of 5 pods; acting on it.', toolCalls: [call] },
    { text: 'Done.' },
  );
}

/** The tool result the model got in its second request. */
async function toolResultSent(): Promise<{ text: string; isError?: boolean }> {
  const requests = await replay.waitForRequests(2, 30_000);
  for (const request of requests)
    expect(checkToolPairing(request.provider, request.body), request.served).toEqual([]);
  const [result] = trailingToolResults('anthropic', requests[1]?.body);
  return { text: result?.text ?? '', isError: result?.isError ?? undefined };
}

describe('tools from the config file on the built app', () => {
  it('a read-only tool runs without an approval; its result reaches the model; /readyz shows each server', async () => {
    const config = configFile('', '  ghost:\n    command: /nonexistent/mcp-server\n');
    const app = await start(config);
    modelCalls({ name: 'deploy_status', input: { service: 'payments-api' } });
    const thread = newThread(fake);
    expect(await thread.mention(app)).toBe(200);
    expect((await toolResultSent()).text).toBe('payments-api 2.41 is healthy');
    await thread.waitForReply();
    expect(thread.askPosts()).toHaveLength(0);
    expect(calls()).toEqual(['status']);
    const ready = await app.get('/readyz');
    expect(ready.status).toBe(200);
    const checks = (
      JSON.parse(ready.body) as { checks: Array<{ name: string; ok: boolean; detail?: string }> }
    ).checks;
    expect(checks.find((c) => c.name === 'mcp:deploy')).toMatchObject({
      ok: true,
      detail: 'connected, 7 tools',
    });
    expect(checks.find((c) => c.name === 'mcp:ghost')).toMatchObject({ ok: false, optional: true });
    expect(
      app.logs().some((line) => line.msg?.includes('MCP server is down') && line.mcpServer === 'ghost'),
    ).toBe(true);
  }, 60_000);

  it('a gated tool: nothing runs before the click; a non-approver is refused; Approve runs it once', async () => {
    const app = await start(configFile('  - tools: ["deploy.roll*"]\n    approvers: [U0ONCALL]\n'));
    modelCalls(ROLLBACK);
    const thread = newThread(fake);
    expect(await thread.mention(app)).toBe(200);
    const ask = await thread.waitForAskSettled();
    const blocks = JSON.stringify(ask.args.blocks);
    expect(blocks).toContain('Approve deploy.rollback?');
    expect(blocks).toContain('Who can approve: <@U0ONCALL>');
    expect(blocks).toContain('payments-api');
    expect(calls()).toEqual([]);

    expect(await thread.click(app, ask, 'Approve', { user: 'U0BOB' })).toBe(200);
    const refusal = await fake.waitForCall(
      'chat.postEphemeral',
      (call) => call.args.user === 'U0BOB',
      10_000,
    );
    expect(String(refusal.args.text)).toContain('U0ONCALL');
    expect(calls()).toEqual([]);
    expect(await thread.click(app, ask, 'Approve', { user: 'U0ONCALL' })).toBe(200);
    const result = await toolResultSent();
    expect(result).toMatchObject({ text: '(Approved by U0ONCALL.) rolled back payments-api to 2.40' });
    await thread.waitForReply();
    expect(calls()).toEqual(['rollback']);
    // The refused click changed nothing: one decision, by the approver.
    const updates = fake.callsTo('chat.update').filter((call) => call.args.ts === ask.response.ts);
    // The message says who approved and what happened.
    await fake.waitForCall(
      'chat.update',
      (call) => call.args.ts === ask.response.ts && JSON.stringify(call.args.blocks).includes('ran: ok'),
      10_000,
    );
    expect(JSON.stringify(updates.at(-1)?.args.blocks)).toContain('Approved by <@U0ONCALL>');
  }, 60_000);

  it('Deny and "Deny with reason…": the tool is never called and the model is told by whom and why', async () => {
    const app = await start(configFile('  - tools: ["deploy.rollback"]\n'));
    modelCalls(ROLLBACK);
    const thread = newThread(fake);
    expect(await thread.mention(app)).toBe(200);
    const ask = await thread.waitForAskSettled();
    expect(await thread.click(app, ask, 'Deny with reason', { user: 'U0ALICE' })).toBe(200);
    const opened = await fake.waitForCall('views.open', undefined, 10_000);
    const view = opened.args.view as { private_metadata: string; title: { text: string } };
    expect(view.title.text).toBe('Deny with reason');
    const submit = viewSubmissionRequest(
      {
        user: 'U0ALICE',
        callbackId: 'hp.modal.answer',
        privateMetadata: view.private_metadata,
        values: answerModalValues('change freeze until 18:00 <!channel>'),
      },
      { secret: TEST_SIGNING_SECRET },
    );
    expect((await app.send(submit)).status).toBe(200);
    const result = await toolResultSent();
    expect(result.isError).toBe(true);
    expect(result.text).toBe(
      'Not run: U0ALICE denied deploy_rollback, saying: "change freeze until 18:00 <!channel>". Nothing was executed.',
    );
    await thread.waitForReply();
    expect(calls()).toEqual([]);
    const update = fake
      .callsTo('chat.update')
      .filter((call) => call.args.ts === ask.response.ts)
      .at(-1);
    expect(JSON.stringify(update?.args.blocks)).toContain(
      'Denied by <@U0ALICE>: “change freeze until 18:00 &lt;!channel&gt;”',
    );

    replay.reset();
    modelCalls(ROLLBACK);
    const second = newThread(fake);
    expect(await second.mention(app)).toBe(200);
    const plain = await second.waitForAskSettled();
    expect(await second.click(app, plain, 'Deny', { user: 'U0ALICE' })).toBe(200);
    expect(await toolResultSent()).toEqual({
      text: 'Not run: U0ALICE denied deploy_rollback. Nothing was executed.',
      isError: true,
    });
    expect(calls()).toEqual([]);
  }, 60_000);

  it('long arguments are cut in the approval, and "Show all" opens them whole', async () => {
    const app = await start(configFile('  - tools: ["deploy.rollback"]\n'));
    const version = `2.40-${'x'.repeat(4000)}`;
    modelCalls({ name: 'deploy_rollback', input: { service: 'payments-api', version } });
    const thread = newThread(fake);
    expect(await thread.mention(app)).toBe(200);
    const ask = await thread.waitForAskSettled();
    expect(JSON.stringify(ask.args.blocks)).not.toContain(version);
    expect(await thread.click(app, ask, 'Show all', { user: 'U0BOB' })).toBe(200);
    const opened = await fake.waitForCall(
      'views.open',
      (call) => (call.args.view as { title: { text: string } }).title.text === 'Arguments',
      10_000,
    );
    const whole = JSON.stringify((opened.args.view as { blocks: unknown }).blocks).replaceAll('\\n', '');
    expect(whole).toContain('x'.repeat(2000));
    expect(calls()).toEqual([]);
  }, 60_000);

  it.each([
    ['deny', [], 'Not run: nobody approved deploy_rollback within 2 seconds, and the default is to deny.'],
    [
      'approve',
      ['rollback'],
      '(Nobody answered within 2 seconds; approved by default, as its rule says.) rolled back',
    ],
  ])(
    'nobody decides, onTimeout %s',
    async (onTimeout, expected, text) => {
      const app = await start(
        configFile(`  - tools: ["deploy.rollback"]\n    timeout: 2s\n    onTimeout: ${onTimeout}\n`),
      );
      modelCalls(ROLLBACK);
      const thread = newThread(fake);
      expect(await thread.mention(app)).toBe(200);
      expect((await toolResultSent()).text).toContain(text);
      await thread.waitForReply();
      expect(calls()).toEqual(expected);
    },
    60_000,
  );

  it.each([
    ['deploy_rollback', false, ['rollback'], 'was started, but its outcome is unknown'],
    ['deploy_restart', true, ['restart', 'restart'], 'restarted payments-api'],
  ])(
    '%s (idempotent %s): the worker SIGKILLed during the call; after the restart it runs %j',
    async (tool, _idempotent, expected, text) => {
      const config = configFile('  - tools: ["deploy.*"]\n    approval: never\n');
      writeFileSync(join(dir, 'hold'), '');
      const first = await start(config);
      modelCalls({ name: tool, input: { service: 'payments-api', version: '2.40' } });
      const thread = newThread(fake);
      expect(await thread.mention(first)).toBe(200);
      const started = Date.now();
      while (calls().length === 0) {
        if (Date.now() - started > 20_000) throw new Error('the tool call never reached the server');
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      await first.stop('SIGKILL');
      rmSync(join(dir, 'hold'));
      await start(config);
      expect((await toolResultSent()).text).toContain(text);
      await thread.waitForReply(30_000);
      expect(calls()).toEqual(expected);
      // The model was asked twice (the step, then after the result): never again for the same step.
      expect(replay.requests).toHaveLength(2);
    },
    90_000,
  );

  it('a huge output, a call that hangs past its timeout and a server that crashes mid-call: error results, the bot serves on', async () => {
    const app = await start(configFile('', '', '2s'));
    replay.enqueue(
      'anthropic',
      {
        toolCalls: [
          { name: 'deploy_huge', input: {} },
          { name: 'deploy_slow', input: {} },
          { name: 'deploy_crash', input: {} },
        ],
      },
      { text: 'Done.' },
    );
    const thread = newThread(fake);
    expect(await thread.mention(app)).toBe(200);
    const requests = await replay.waitForRequests(2, 30_000);
    const results = trailingToolResults('anthropic', requests[1]?.body);
    expect(results.map((r) => r.isError === true)).toEqual([false, true, true]);
    expect(results[1]?.text).toContain('MCP server "deploy" did not answer slow within 2 s');
    expect(results[2]?.text).toContain('MCP server "deploy" stopped during crash');
    expect(results[2]?.text).toContain('the call may have had an effect');
    expect(results[0]?.text).toContain('[output cut: 50,000 characters, the first 16,000 shown]');
    await thread.waitForReply();
    expect(app.logs().some((line) => line.mcpServer === 'deploy' && line.level >= 40)).toBe(true);
    // It comes back: once /readyz shows it connected, the next turn's read-only call works.
    await waitFor(
      async () => (await app.get('/readyz')).body.includes('"name":"mcp:deploy","ok":true'),
      15_000,
      'the deploy server reconnected',
    );
    replay.reset();
    modelCalls({ name: 'deploy_status', input: { service: 'payments-api' } });
    const again = newThread(fake);
    expect(await again.mention(app)).toBe(200);
    expect((await toolResultSent()).text).toBe('payments-api 2.41 is healthy');
  }, 60_000);

  it('a bad config file stops the start with every problem and its line', async () => {
    const path = join(dir, 'bad.yaml');
    writeFileSync(
      path,
      'mcpServers:\n  deploy:\n    comand: node\n  gh:\n    url: https://x.example/mcp\n    headers: { Authorization: "Bearer ${GH_TOKEN}" }\napprovals:\n  - tools: ["deploy.["]\n',
    );
    const exit = await runProductionAppToExit(await toolEnv(path));
    expect(exit.code).not.toBe(0);
    const text = exit.stdout + exit.stderr;
    expect(text).toContain('bad.yaml line 3: mcpServers.deploy: unknown key "comand"');
    expect(text).toContain('bad.yaml line 6: mcpServers.gh.headers.Authorization: ${GH_TOKEN} is not set');
    expect(text).toContain('bad.yaml line 8: approvals[0].tools[0]: "deploy.[" is not a valid glob');
  }, 30_000);

  it('MCP tools whose names collide for the model stop the start, naming them', async () => {
    const path = join(dir, 'collide.yaml');
    writeFileSync(path, `mcpServers:\n${stdioServerYaml('deploy', '{ MCP_COLLIDE: "1" }')}\n`);
    const exit = await runProductionAppToExit(await toolEnv(path));
    expect(exit.code).not.toBe(0);
    expect(exit.stdout + exit.stderr).toContain('deploy.status_v2 -> deploy_status_v2');
  }, 30_000);
});
