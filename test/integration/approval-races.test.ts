/**
 * Approval races on the real runtime (Bolt receiver, BullMQ worker, Redis, fake Slack) with the config
 * file's MCP server being a real Streamable HTTP server (test/support) that logs every call: 100 double
 * Approve clicks, 100 Approve-vs-Deny pairs and 100 Approves racing the approval's timeout. Each ends with
 * one decision and at most one call: exactly one when the decision was Approve, none otherwise.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseActionValue } from '../../src/slack/blocks/action-ids.js';
import { waitFor } from '../support/engine-harness.js';
import { startMcpHttpServer, type TestMcpHttpServer } from '../support/mcp-http-server.js';
import { testRedisUrl } from '../support/redis.js';
import { lastToolResults, scriptedModel } from '../support/scripted-model.js';
import {
  clickRequest,
  mentionAndWaitForAsk,
  type PostedAsk,
  type SlackHarness,
  startSlackHarness,
} from '../support/slack-harness.js';

const TOKEN = 'r'.repeat(40);
const RACES = 100;
const BATCH = 10;

let server: TestMcpHttpServer;
let harness: SlackHarness;
let next = 0;

beforeAll(async () => {
  server = await startMcpHttpServer(TOKEN);
  const dir = mkdtempSync(join(tmpdir(), 'hp-races-'));
  const config = join(dir, 'holdpoint.yaml');
  writeFileSync(
    config,
    `mcpServers:
  deploy: { url: "${server.url}", headers: { Authorization: "Bearer \${DEPLOY_TOKEN}" } }
approvals:
  - tools: ["deploy.rollback"]
    approvers: [U0ONCALL, U0LEAD]
    timeout: 2s
    onTimeout: deny
`,
  );
  // The model rolls back the service its thread names, then ends.
  const model = scriptedModel((prompt) => {
    if (lastToolResults(prompt).length > 0) return { text: 'done' };
    const user = JSON.stringify(prompt.filter((message) => message.role === 'user').at(-1));
    const service = /svc-\d+/.exec(user)?.[0] ?? 'svc-unknown';
    return { toolCalls: [{ name: 'deploy_rollback', input: { service, version: '1' } }] };
  });
  harness = await startSlackHarness({
    redisUrl: testRedisUrl(),
    model,
    env: { HOLDPOINT_CONFIG: config, DEPLOY_TOKEN: TOKEN, WORKER_CONCURRENCY: '16' },
  });
}, 60_000);
afterAll(async () => {
  await harness?.close();
  await server?.close();
});

interface Race {
  posted: PostedAsk;
  service: string;
  channel: string;
  ts: string;
  turnId: string;
  askId: string;
}

async function openRace(): Promise<Race> {
  const n = ++next;
  const service = `svc-${n}`;
  const threadTs = `${1790000000 + n}.000100`;
  const ask = await mentionAndWaitForAsk(harness, {
    eventId: `Ev0RACE${n}`,
    threadTs,
    text: `<@U0BOT> roll back ${service}`,
  });
  const approve = JSON.stringify(ask.blocks).match(/"value":"(v1\|[^"]+)"/)?.[1] ?? '';
  const ref = parseActionValue(approve);
  if (!ref) throw new Error(`no action value in ${JSON.stringify(ask.blocks)}`);
  return { posted: ask, service, channel: ask.channel, ts: ask.ts, turnId: ref.turnId, askId: ref.askId };
}

async function click(race: Race, user: string, label: 'Approve' | 'Deny'): Promise<number> {
  const actionId = label === 'Approve' ? 'hp.option.0.0' : 'hp.option.0.1';
  // With the blocks as posted: a click that lands after the timeout comes from the message the person saw.
  return (await harness.send(clickRequest(harness, race.posted, user, actionId))).status;
}

/** Waits until the race's turn ended, then checks: one decision, and calls exactly as it says. */
async function settle(race: Race): Promise<'approved' | 'denied'> {
  await waitFor(
    async () => (await harness.store.getTurn(race.turnId))?.status === 'completed',
    30_000,
    `turn of ${race.service} completed`,
  );
  const ask = await harness.store.getAsk(race.turnId, race.askId);
  const resolution = ask?.resolutions[0];
  const approved = resolution?.selected.includes('Approve') === true && resolution.other === null;
  const calls = server.log.filter((call) => call.args.service === race.service).length;
  expect([race.service, calls]).toEqual([race.service, approved ? 1 : 0]);
  return approved ? 'approved' : 'denied';
}

async function inBatches(run: () => Promise<'approved' | 'denied'>): Promise<Map<string, number>> {
  const outcomes = new Map<string, number>();
  for (let done = 0; done < RACES; done += BATCH) {
    const results = await Promise.all(Array.from({ length: BATCH }, run));
    for (const result of results) outcomes.set(result, (outcomes.get(result) ?? 0) + 1);
  }
  return outcomes;
}

describe('approval races: one decision, at most one call', () => {
  it(`${RACES} double Approve clicks: one call each`, async () => {
    const outcomes = await inBatches(async () => {
      const race = await openRace();
      const statuses = await Promise.all([
        click(race, 'U0ONCALL', 'Approve'),
        click(race, 'U0LEAD', 'Approve'),
      ]);
      expect(statuses).toEqual([200, 200]);
      return settle(race);
    });
    expect(outcomes.get('approved')).toBe(RACES);
  }, 240_000);

  it(`${RACES} Approve vs Deny: whichever Redis saw first, and the call only when it was Approve`, async () => {
    const outcomes = await inBatches(async () => {
      const race = await openRace();
      await Promise.all([click(race, 'U0ONCALL', 'Approve'), click(race, 'U0LEAD', 'Deny')]);
      return settle(race);
    });
    expect((outcomes.get('approved') ?? 0) + (outcomes.get('denied') ?? 0)).toBe(RACES);
  }, 240_000);

  it(`${RACES} Approves racing the 2 s timeout (onTimeout deny)`, async () => {
    const outcomes = await inBatches(async () => {
      const race = await openRace();
      const ask = await harness.store.getAsk(race.turnId, race.askId);
      const wait = (ask?.deadline ?? Date.now()) - Date.now() - 20 + Math.random() * 40;
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, wait)));
      await click(race, 'U0ONCALL', 'Approve');
      return settle(race);
    });
    expect((outcomes.get('approved') ?? 0) + (outcomes.get('denied') ?? 0)).toBe(RACES);
  }, 240_000);
});
