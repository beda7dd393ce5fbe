// biome-ignore-all lint/suspicious/noTemplateCurlyInString: config text that holds ${VAR}
/**
 * Per-channel settings on the built app: the config file's `channels:` entry for C0OPS sets its own system
 * prompt, ask timeout, answerers, tools and approval rules; `defaults:` sets the ask timeout for every other
 * channel; what neither sets comes from the environment. Checked on what the model is sent (prompt, tool
 * list), what the ask message says (who may answer, the deadline) and whether a call needs approval.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_SYSTEM_PROMPT } from '../../src/config/default-system-prompt.js';
import { type FakeSlack, startFakeSlack } from '../support/fake-slack/index.js';
import { stdioServerYaml } from '../support/mcp-config.js';
import { type ModelReplay, startModelReplay } from '../support/model-replay/model-replay.js';
import { freePort, type RedisServerHandle } from '../support/redis-server.js';
import { type ProductionApp, startProductionApp } from './support/production-app.js';
import { productionEnv, startComposeRedis } from './support/production-env.js';
import { newThread } from './support/slack-thread.js';

type Json = Record<string, unknown>;
let redis: RedisServerHandle;
let fake: FakeSlack;
let replay: ModelReplay;
let app: ProductionApp | undefined;
let dir: string;

beforeAll(async () => {
  [redis, fake, replay] = await Promise.all([startComposeRedis(), startFakeSlack(), startModelReplay()]);
  dir = mkdtempSync(join(tmpdir(), 'hp-channels-'));
  const config = join(dir, 'holdpoint.yaml');
  writeFileSync(
    config,
    `mcpServers:
${stdioServerYaml('deploy', '{ MCP_CALLS_FILE: "${MCP_CALLS_FILE}" }')}
defaults:
  askTimeout: 20m
channels:
  C0OPS:
    systemPrompt: "You are the ops channel's agent."
    askTimeout: 90s
    answerers: [U0ALICE, S0SRE]
    tools: ["deploy.status", "deploy.rollback"]
    approvals:
      - tools: ["deploy.status"]
        approvers: [U0LEAD]
`,
  );
  fake.seedUserGroup('S0SRE', ['U0DAN']);
  app = await startProductionApp(
    productionEnv({
      fake,
      replay,
      redisUrl: redis.url,
      port: await freePort(),
      model: 'anthropic',
      env: { HOLDPOINT_CONFIG: config, MCP_CALLS_FILE: join(dir, 'calls') },
    }),
  );
});
afterAll(async () => {
  await app?.stop('SIGKILL');
  await Promise.all([replay?.close(), fake?.close(), redis?.stop()]);
});
afterEach(() => replay.reset());

const ASK = {
  name: 'ask_question',
  input: { questions: [{ header: 'Deploy', question: 'Roll back?', options: ['Yes (Recommended)', 'No'] }] },
};

function systemText(body: unknown): string {
  const system = (body as { system?: unknown }).system;
  return typeof system === 'string' ? system : JSON.stringify(system);
}

function toolNames(body: unknown): string[] {
  return ((body as { tools?: Array<{ name: string }> }).tools ?? []).map((tool) => tool.name).sort();
}

function askText(call: { args: Json }): string {
  return JSON.stringify(call.args.blocks);
}

describe('per-channel settings on the built app', () => {
  it('C0OPS: its own prompt, tools, answerers and ask timeout', async () => {
    replay.enqueue('anthropic', { text: 'Asking.', toolCalls: [ASK] });
    const thread = newThread(fake, 'rollback?', 'C0OPS');
    expect(await thread.mention(app as ProductionApp)).toBe(200);
    const ask = await thread.waitForAsk(1, 15_000);
    const [request] = await replay.waitForRequests(1, 10_000);
    expect(systemText(request?.body)).toContain("You are the ops channel's agent.");
    expect(toolNames(request?.body)).toEqual(['ask_question', 'deploy_rollback', 'deploy_status']);
    expect(askText(ask)).toContain('Who can answer: <@U0ALICE>, <!subteam^S0SRE>');
    expect(askText(ask)).toMatch(/\(in 1 min 30 s|\(in 90 s|\(in 2 min/);
  });

  it('another channel: the environment prompt, every tool, anyone, and the ask timeout of defaults', async () => {
    replay.enqueue('anthropic', { text: 'Asking.', toolCalls: [ASK] });
    const thread = newThread(fake, 'rollback?', 'C0DEV');
    expect(await thread.mention(app as ProductionApp)).toBe(200);
    const ask = await thread.waitForAsk(1, 15_000);
    const [request] = await replay.waitForRequests(1, 10_000);
    expect(systemText(request?.body)).toContain(DEFAULT_SYSTEM_PROMPT.slice(0, 60));
    expect(toolNames(request?.body).length).toBeGreaterThan(3);
    expect(askText(ask)).not.toContain('Who can answer');
    expect(askText(ask)).toContain('(in 20 min)');
  });

  it("a channel's approval rule: deploy.status needs @lead's approval in C0OPS and runs at once elsewhere", async () => {
    const status = { name: 'deploy_status', input: { service: 'payments-api' } };
    replay.enqueue('anthropic', { text: 'Checking.', toolCalls: [status] }, { text: 'Healthy.' });
    const elsewhere = newThread(fake, 'status?', 'C0DEV');
    expect(await elsewhere.mention(app as ProductionApp)).toBe(200);
    await elsewhere.waitForReply(15_000);
    expect(elsewhere.askPosts()).toHaveLength(0);

    replay.reset();
    replay.enqueue('anthropic', { text: 'Checking.', toolCalls: [status] }, { text: 'Healthy.' });
    const ops = newThread(fake, 'status?', 'C0OPS');
    expect(await ops.mention(app as ProductionApp)).toBe(200);
    const approval = await ops.waitForAsk(1, 15_000);
    expect(askText(approval)).toContain('Who can approve: <@U0LEAD>');
    expect(askText(approval)).toContain('Approve deploy.status?');
  });
});
