// biome-ignore-all lint/suspicious/noTemplateCurlyInString: config text that holds ${VAR}
/**
 * Approval races on the built app (`node dist/src/main.js`, fake Slack, the real Anthropic client against
 * the model replay, real Redis and BullMQ) with the config file's MCP server a real stdio server from
 * test/support that logs every call with its service: 100 double Approve clicks, 100 Approve-vs-Deny
 * pairs, and 100 Approves racing the approval's 2 s timeout. Each ends with one decision and calls exactly
 * as it says: one when approved, none otherwise.
 */
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../support/engine-harness.js';
import type { FakeSlackCall } from '../support/fake-slack/index.js';
import { type FakeSlack, startFakeSlack } from '../support/fake-slack/index.js';
import { stdioServerYaml } from '../support/mcp-config.js';
import { type ModelReplay, startModelReplay } from '../support/model-replay/model-replay.js';
import { testRedisUrl } from '../support/redis.js';
import { freePort } from '../support/redis-server.js';
import { type ProductionApp, startProductionApp } from './support/production-app.js';
import { productionEnv, scopeEnv } from './support/production-env.js';
import { newThread, type TestThread } from './support/slack-thread.js';

const RACES = 100;
const BATCH = 10;

let fake: FakeSlack;
let replay: ModelReplay;
let app: ProductionApp;
let callsFile: string;

beforeAll(async () => {
  [fake, replay] = await Promise.all([startFakeSlack(), startModelReplay()]);
  const dir = mkdtempSync(join(tmpdir(), 'hp-races-'));
  callsFile = join(dir, 'calls');
  const config = join(dir, 'holdpoint.yaml');
  writeFileSync(
    config,
    `mcpServers:
${stdioServerYaml('deploy', '{ MCP_CALLS_FILE: "${MCP_CALLS_FILE}", MCP_CALLS_WITH_SERVICE: "1" }')}
approvals:
  - tools: ["deploy.rollback"]
    approvers: [U0ONCALL, U0LEAD]
    timeout: 2s
    onTimeout: deny
`,
  );
  // The model rolls back the service its thread names, then ends.
  replay.onRequest = (request) => {
    const body = JSON.stringify(request.body);
    if (body.includes('"tool_result"')) return { text: 'done' };
    const service = /svc-\d+/.exec(body)?.[0] ?? 'svc-unknown';
    return { toolCalls: [{ name: 'deploy_rollback', input: { service, version: '1' } }] };
  };
  const id = Math.random().toString(36).slice(2, 8);
  app = await startProductionApp(
    productionEnv({
      fake,
      replay,
      redisUrl: testRedisUrl(),
      port: await freePort(),
      model: 'anthropic',
      env: {
        HOLDPOINT_CONFIG: config,
        MCP_CALLS_FILE: callsFile,
        WORKER_CONCURRENCY: '16',
        LOG_LEVEL: 'warn',
        ...scopeEnv(`races-${id}`),
      },
    }),
  );
}, 60_000);
afterAll(async () => {
  await app?.stop();
  await Promise.all([replay?.close(), fake?.close()]);
});

let next = 0;

interface Race {
  service: string;
  thread: TestThread;
  ask: FakeSlackCall;
}

async function openRace(): Promise<Race> {
  const service = `svc-${++next}`;
  const thread = newThread(fake, `${service} is failing`);
  expect(await thread.mention(app, `<@U0BOT> roll back ${service}`)).toBe(200);
  return { service, thread, ask: await thread.waitForAskSettled(1, 30_000) };
}

function callsOf(service: string): number {
  if (!existsSync(callsFile)) return 0;
  return readFileSync(callsFile, 'utf8')
    .split('\n')
    .filter((line) => line === `rollback ${service}`).length;
}

/** Waits for the race's reply, then checks: one decision, and calls exactly as it says. */
async function settle(race: Race): Promise<'approved' | 'denied'> {
  try {
    await race.thread.waitForReply(30_000);
  } catch (error) {
    // The app logs at warn: what it said is the first thing to read when a race never replies.
    const said = app.output().trim().split('\n').slice(-40).join('\n');
    throw new Error(`${race.service}: no reply; the app's last log lines:\n${said}`, { cause: error });
  }
  const update = await waitFor(
    async () =>
      fake
        .callsTo('chat.update')
        .filter((call) => call.args.ts === race.ask.response.ts)
        .map((call) => JSON.stringify(call.args.blocks))
        .find((blocks) => /Approved by|Denied by|No decision/.test(blocks)),
    10_000,
    `the decision of ${race.service}`,
  );
  const approved = update.includes('Approved by');
  expect([race.service, callsOf(race.service)]).toEqual([race.service, approved ? 1 : 0]);
  return approved ? 'approved' : 'denied';
}

async function inBatches(run: () => Promise<'approved' | 'denied'>): Promise<Record<string, number>> {
  const outcomes: Record<string, number> = { approved: 0, denied: 0 };
  for (let done = 0; done < RACES; done += BATCH) {
    for (const result of await Promise.all(Array.from({ length: BATCH }, run)))
      outcomes[result] = (outcomes[result] ?? 0) + 1;
  }
  console.log(`outcomes: ${JSON.stringify(outcomes)}`);
  return outcomes;
}

describe('approval races on the built app: one decision, at most one call', () => {
  it(`${RACES} double Approve clicks: one call each`, async () => {
    const outcomes = await inBatches(async () => {
      const race = await openRace();
      const statuses = await Promise.all([
        race.thread.click(app, race.ask, 'Approve', { user: 'U0ONCALL' }),
        race.thread.click(app, race.ask, 'Approve', { user: 'U0LEAD' }),
      ]);
      expect(statuses).toEqual([200, 200]);
      return settle(race);
    });
    expect(outcomes.approved).toBe(RACES);
  }, 300_000);

  it(`${RACES} Approve vs Deny: one decision, the call only when it was Approve`, async () => {
    const outcomes = await inBatches(async () => {
      const race = await openRace();
      // Which click leaves first is random, and the other follows within a few ms.
      const approve = () => race.thread.click(app, race.ask, 'Approve', { user: 'U0ONCALL' });
      const deny = () => race.thread.click(app, race.ask, 'Deny', { user: 'U0LEAD' });
      const [first, second] = Math.random() < 0.5 ? [approve, deny] : [deny, approve];
      const lag = new Promise((resolve) => setTimeout(resolve, Math.random() * 3));
      await Promise.all([first(), lag.then(second)]);
      return settle(race);
    });
    expect((outcomes.approved ?? 0) + (outcomes.denied ?? 0)).toBe(RACES);
  }, 300_000);

  it(`${RACES} Approves racing the 2 s timeout (onTimeout deny)`, async () => {
    const outcomes = await inBatches(async () => {
      const race = await openRace();
      // The deadline is 2 s after the ask was shown (about when it was posted): click within ±50 ms of it.
      const wait = race.ask.time + 2000 - Date.now() - 50 + Math.random() * 100;
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, wait)));
      await race.thread.click(app, race.ask, 'Approve', { user: 'U0ONCALL' });
      return settle(race);
    });
    expect((outcomes.approved ?? 0) + (outcomes.denied ?? 0)).toBe(RACES);
  }, 300_000);
});
