/**
 * The turn loop over the in-memory fakes of its ports (no Redis, no BullMQ, no Slack): the AI SDK's mock
 * model, a memory store, scheduler and surface. The same flows run against real Redis in
 * test/integration/turn-flow.test.ts; these are the fast ones.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { MemoryScheduler, MemoryStore, MemorySurface } from '../../test/support/memory-store.js';
import { lastToolResults, type StepScript, scriptedModel } from '../../test/support/scripted-model.js';
import { askToolDefinitionFor } from '../ask/ask-schema.js';
import { parseAskResultJson } from '../ask/format-ask-result.js';
import { silentLogger } from '../asks/logger.js';
import { NO_FOLLOW_UP } from '../asks/types.js';
import { advanceTurn } from './advance-turn.js';
import { type EngineDeps, withAskService } from './engine-deps.js';
import { startTurn } from './thread-admission.js';
import { type AgentTool, createToolRegistry } from './tool-registry.js';
import type { TurnStart } from './turn-start.js';

const ASK = {
  questions: [
    {
      header: 'Deploy',
      question: 'What now?',
      options: [{ label: 'Roll back', recommended: true }, { label: 'Hotfix' }],
    },
  ],
};

function engine(script: StepScript, options: { stepLimit?: number; tools?: AgentTool[] } = {}) {
  /** Moves the engine's clock and the store's asks (timeouts fall due); leases keep real time. */
  const clock = { skewMs: 0 };
  const store = new MemoryStore(() => Date.now() + clock.skewMs);
  const scheduler = new MemoryScheduler();
  const surface = new MemorySurface();
  const model = scriptedModel(script);
  let ids = 0;
  const deps: EngineDeps = withAskService({
    store,
    surface,
    scheduler,
    model,
    tools: createToolRegistry(options.tools ?? []),
    askTool: askToolDefinitionFor('recommended-or-first'),
    config: {
      systemPrompt: 'test',
      stepLimit: options.stepLimit ?? 20,
      maxInvalidAsks: 3,
      askTimeoutMs: 60_000,
      timeoutPolicy: 'recommended-or-first',
      answerers: { mode: 'anyone' },
      followUp: NO_FOLLOW_UP,
      showAttempts: 3,
      showRetryDelayMs: 1,
      turnLeaseMs: 2000,
    },
    log: silentLogger,
    now: () => Date.now() + clock.skewMs,
    newId: () => `id-${++ids}`,
  });
  const start: TurnStart = {
    turnId: 'turn-1',
    conversation: { surface: 'memory', channel: 'C1', threadTs: '1.1' },
    requestedBy: 'U_REQ',
    trigger: { text: 'the deploy failed', ts: '1.1', userId: 'U_REQ' },
  };
  return { deps, store, scheduler, surface, model, start, clock };
}

const asking: StepScript = (prompt) =>
  lastToolResults(prompt).length === 0
    ? { text: 'Let me ask.', toolCalls: [{ name: 'ask_question', input: ASK }] }
    : { text: `FINAL ${lastToolResults(prompt)[0]?.text ?? ''}` };

describe('the turn loop over in-memory ports', () => {
  it('asks, waits, resumes with the answer once, and posts one reply', async () => {
    const e = engine(asking);
    const paused = await startTurn(e.deps, e.start);
    expect(paused).toMatchObject({ state: 'paused' });
    const askId = paused.state === 'paused' ? paused.askId : '';
    const ask = await e.store.getAsk('turn-1', askId);
    expect(ask?.messageRef).toBe(`msg-${askId}`);
    expect(e.scheduler.jobs.has(`timeout-${askId}`)).toBe(true);
    // One timeout add per pause: the show adds it, and the pause does not add it again.
    expect(e.scheduler.timeoutAdds).toBe(1);

    // Advancing again while the ask is open changes nothing and calls no model.
    expect(await advanceTurn(e.deps, 'turn-1')).toEqual({ state: 'paused', askId });
    expect(e.model.doGenerateCalls).toHaveLength(1);

    const result = await e.deps.asks.answer({
      turnId: 'turn-1',
      askId,
      questionIndex: 0,
      resolution: {
        status: 'answered',
        selected: ['Hotfix'],
        other: null,
        answeredBy: 'U_BOB',
        answeredAt: new Date().toISOString(),
        source: 'button',
        assumption: null,
      },
    });
    expect(result.status).toBe('completed');
    expect(e.scheduler.take(`resume-${askId}`)).toBeDefined();

    expect(await advanceTurn(e.deps, 'turn-1')).toEqual({ state: 'completed' });
    expect(await advanceTurn(e.deps, 'turn-1')).toEqual({ state: 'completed' });
    expect(e.model.doGenerateCalls).toHaveLength(2);
    const replies = e.surface.events.filter((event) => event.type === 'postMessage');
    expect(replies).toHaveLength(1);
    const reply = replies[0]?.type === 'postMessage' ? replies[0].text : '';
    expect(parseAskResultJson(reply.replace(/^FINAL /, ''))?.answers[0]).toMatchObject({
      status: 'answered',
      selected: ['Hotfix'],
      answeredBy: 'U_BOB',
    });
    // The message was brought up to date before the turn went on.
    expect(e.surface.events.filter((event) => event.type === 'syncAsk').at(-1)).toMatchObject({
      statuses: ['answered'],
    });
    expect(await e.store.threadHolder('memory-C1-1.1')).toBeNull();
  });

  it('a second process finds the lease taken and is told busy', async () => {
    const e = engine(asking);
    await e.store.createTurn({
      version: 2,
      turnId: 'turn-1',
      rev: 1,
      status: 'running',
      conversation: e.start.conversation,
      requestedBy: 'U_REQ',
      messages: [{ role: 'user', content: 'x' }],
      pendingAskId: null,
      stepCount: 0,
      invalidAskCount: 0,
      askCount: 0,
      outbox: [],
      createdAt: new Date().toISOString(),
      updatedAt: new Date().toISOString(),
    });
    expect(await e.store.acquireTurnLease('turn-1', 'other-process', 10_000)).toBe(true);
    expect(await advanceTurn(e.deps, 'turn-1')).toEqual({ state: 'busy' });
    expect(e.model.doGenerateCalls).toHaveLength(0);
  });

  it('three invalid asks end the turn with a message; the model got each error', async () => {
    const e = engine(() => ({ toolCalls: [{ name: 'ask_question', input: { questions: [] } }] }));
    expect(await startTurn(e.deps, e.start)).toEqual({ state: 'failed' });
    expect(e.model.doGenerateCalls).toHaveLength(3);
    const errors = e.model.prompts.slice(1).map((prompt) => lastToolResults(prompt)[0]);
    expect(errors.every((result) => result?.isError)).toBe(true);
    const replies = e.surface.events.filter((event) => event.type === 'postMessage');
    expect(replies).toMatchObject([{ kind: 'error' }]);
  });

  it('the step limit ends a turn whose model never stops calling tools; each call ran once', async () => {
    let runs = 0;
    const e = engine(() => ({ toolCalls: [{ name: 'lookup', input: { q: 'x' } }] }), {
      stepLimit: 2,
      tools: [
        {
          name: 'lookup',
          description: 'looks something up',
          inputSchema: z.object({ q: z.string() }),
          execute: async () => `result ${++runs}`,
        },
      ],
    });
    expect(await startTurn(e.deps, e.start)).toEqual({ state: 'failed' });
    expect(runs).toBe(2);
    expect(e.model.doGenerateCalls).toHaveLength(2);
    const replies = e.surface.events.filter((event) => event.type === 'postMessage');
    expect(replies).toMatchObject([{ kind: 'error' }]);
    expect(replies[0]?.type === 'postMessage' ? replies[0].text : '').toContain('step limit');
  });

  describe('approvals over in-memory ports', () => {
    const answer = (selected: string[], other: string | null = null) => ({
      status: 'answered' as const,
      selected,
      other,
      answeredBy: 'U_ONCALL',
      answeredAt: new Date().toISOString(),
      source: 'button' as const,
      assumption: null,
    });

    function gatedEngine(onTimeout: 'deny' | 'approve' = 'deny') {
      const runs: string[] = [];
      const tool = (name: string, approval: boolean): AgentTool => ({
        name,
        description: name,
        inputSchema: z.object({ service: z.string() }),
        source: { server: 'deploy', tool: name.replace('deploy_', '') },
        approval: approval
          ? {
              approvers: ['U_ONCALL', 'S_SRE'],
              timeoutMs: 900_000,
              onTimeout,
              quorum: 1,
              escalation: null,
              reason: 'rule',
            }
          : null,
        execute: async (input) => {
          runs.push(name);
          return `${name} ok for ${(input as { service: string }).service}`;
        },
      });
      const e = engine(
        (prompt) =>
          lastToolResults(prompt).length === 0
            ? {
                text: 'The deploy is failing; I will check and roll back.',
                toolCalls: [
                  { name: 'deploy_status', input: { service: 'api' } },
                  { name: 'deploy_rollback', input: { service: 'api' } },
                ],
              }
            : {
                text: `FINAL ${lastToolResults(prompt)
                  .map((r) => `${r.isError ? 'ERR' : 'OK'}:${r.text}`)
                  .join(' | ')}`,
              },
        { tools: [tool('deploy_status', false), tool('deploy_rollback', true)] },
      );
      return { ...e, runs };
    }

    async function pausedOnApproval(e: ReturnType<typeof gatedEngine>) {
      const paused = await startTurn(e.deps, e.start);
      expect(paused).toMatchObject({ state: 'paused' });
      const askId = paused.state === 'paused' ? paused.askId : '';
      return { askId, ask: await e.store.getAsk('turn-1', askId) };
    }

    function finalReply(e: ReturnType<typeof gatedEngine>): string {
      const reply = e.surface.events.find((event) => event.type === 'postMessage');
      return reply?.type === 'postMessage' ? reply.text : '';
    }

    it('the ungated call runs, the gated one waits for an approval ask of its approvers; Approve runs it once', async () => {
      const e = gatedEngine();
      const { askId, ask } = await pausedOnApproval(e);
      expect(e.runs).toEqual(['deploy_status']);
      expect(ask?.approval?.calls).toMatchObject([
        { toolName: 'deploy_rollback', server: 'deploy', tool: 'rollback', input: { service: 'api' } },
      ]);
      expect(ask?.answerers).toEqual({ mode: 'list', userIds: ['U_ONCALL'], groupIds: ['S_SRE'] });
      expect(ask?.timeoutMs).toBe(900_000);
      expect(ask?.questions[0]).toMatchObject({
        header: 'Approve deploy.rollback?',
        purpose: 'The deploy is failing; I will check and roll back.',
        options: [
          { label: 'Approve', recommended: false },
          { label: 'Deny', recommended: true },
        ],
      });
      await e.deps.asks.answer({
        turnId: 'turn-1',
        askId,
        questionIndex: 0,
        resolution: answer(['Approve']),
      });
      expect(await advanceTurn(e.deps, 'turn-1')).toEqual({ state: 'completed' });
      expect(e.runs).toEqual(['deploy_status', 'deploy_rollback']);
      expect(finalReply(e)).toBe(
        'FINAL OK:deploy_status ok for api | OK:(Approved by U_ONCALL.) deploy_rollback ok for api',
      );
    });

    it('a resume retried after a crash between the call and the commit does not call the tool again', async () => {
      const e = gatedEngine();
      const { askId } = await pausedOnApproval(e);
      await e.deps.asks.answer({
        turnId: 'turn-1',
        askId,
        questionIndex: 0,
        resolution: answer(['Approve']),
      });
      // The first resume dies right after the tool returned: its commit never happens.
      const commit = e.store.commitTurn.bind(e.store);
      e.store.commitTurn = async () => {
        throw new Error('killed before the commit');
      };
      await expect(advanceTurn(e.deps, 'turn-1')).rejects.toThrow('killed');
      e.store.commitTurn = commit;
      expect(await advanceTurn(e.deps, 'turn-1')).toEqual({ state: 'completed' });
      expect(e.runs).toEqual(['deploy_status', 'deploy_rollback']);
      expect(finalReply(e)).toContain('OK:(Approved by U_ONCALL.) deploy_rollback ok for api');
    });

    it.each([
      [['Deny'], null, 'ERR:Not run: U_ONCALL denied deploy_rollback. Nothing was executed.'],
      [
        ['Deny'],
        'wait for the freeze to end',
        'ERR:Not run: U_ONCALL denied deploy_rollback, saying: "wait for the freeze to end". Nothing was executed.',
      ],
    ])('%j with reason %j: the tool is never called and the model is told', async (selected, other, text) => {
      const e = gatedEngine();
      const { askId } = await pausedOnApproval(e);
      await e.deps.asks.answer({
        turnId: 'turn-1',
        askId,
        questionIndex: 0,
        resolution: answer(selected, other),
      });
      expect(await advanceTurn(e.deps, 'turn-1')).toEqual({ state: 'completed' });
      expect(e.runs).toEqual(['deploy_status']);
      expect(finalReply(e)).toContain(text);
    });

    it.each([
      [
        'deny',
        ['deploy_status'],
        'ERR:Not run: nobody approved deploy_rollback within 15 minutes, and the default is to deny.',
      ],
      [
        'approve',
        ['deploy_status', 'deploy_rollback'],
        'OK:(Nobody answered within 15 minutes; approved by default, as its rule says.) deploy_rollback ok',
      ],
    ] as const)('timeout with onTimeout %s', async (onTimeout, runs, text) => {
      const e = gatedEngine(onTimeout);
      const { askId } = await pausedOnApproval(e);
      // Due: the timeout job runs at the deadline.
      e.clock.skewMs = 900_000 + 1000;
      expect(await e.deps.asks.timeout('turn-1', askId)).toBe('resolved');
      expect(await advanceTurn(e.deps, 'turn-1')).toEqual({ state: 'completed' });
      expect(e.runs).toEqual(runs);
      expect(finalReply(e)).toContain(text);
    });
  });

  describe('gated calls of different rules in one step', () => {
    it('each gets its own approval with its own approvers and timeout, one after the other', async () => {
      const runs: string[] = [];
      const gatedTool = (name: string, approval: AgentTool['approval']): AgentTool => ({
        name,
        description: name,
        inputSchema: z.object({}),
        approval,
        execute: async () => {
          runs.push(name);
          return `${name} ran`;
        },
      });
      const e = engine(
        (prompt) =>
          lastToolResults(prompt).length === 0
            ? {
                toolCalls: [
                  { name: 'evil_throws', input: {} },
                  { name: 'evil_nuke', input: {} },
                ],
              }
            : { text: 'FINAL' },
        {
          tools: [
            gatedTool('evil_throws', {
              approvers: null,
              timeoutMs: 6000,
              onTimeout: 'approve',
              quorum: 1,
              escalation: null,
              reason: 'rule',
            }),
            gatedTool('evil_nuke', {
              approvers: ['U_BOB'],
              timeoutMs: 3_600_000,
              onTimeout: 'deny',
              quorum: 1,
              escalation: null,
              reason: 'rule',
            }),
          ],
        },
      );
      const first = await startTurn(e.deps, e.start);
      const firstId = first.state === 'paused' ? first.askId : '';
      const firstAsk = await e.store.getAsk('turn-1', firstId);
      expect(firstAsk?.approval?.calls.map((c) => c.toolName)).toEqual(['evil_throws']);
      expect(firstAsk?.answerers).toEqual({ mode: 'requester' });
      expect(firstAsk?.timeoutMs).toBe(6000);
      const approve = {
        status: 'answered' as const,
        selected: ['Approve'],
        other: null,
        answeredBy: 'U_REQ',
        answeredAt: new Date().toISOString(),
        source: 'button' as const,
        assumption: null,
      };
      await e.deps.asks.answer({ turnId: 'turn-1', askId: firstId, questionIndex: 0, resolution: approve });
      const second = await advanceTurn(e.deps, 'turn-1');
      expect(second.state).toBe('paused');
      const secondId = second.state === 'paused' ? second.askId : '';
      const secondAsk = await e.store.getAsk('turn-1', secondId);
      expect(secondAsk?.approval?.calls.map((c) => c.toolName)).toEqual(['evil_nuke']);
      expect(secondAsk?.answerers).toEqual({ mode: 'list', userIds: ['U_BOB'], groupIds: [] });
      expect(secondAsk?.timeoutMs).toBe(3_600_000);
      // The requester who approved the first may not approve the second.
      const refused = await e.deps.asks.answer({
        turnId: 'turn-1',
        askId: secondId,
        questionIndex: 0,
        resolution: approve,
      });
      expect(refused.status).toBe('forbidden');
      expect(runs).toEqual(['evil_throws']);
    });
  });

  describe('tool calls across a crash during the call', () => {
    it.each([
      [false, 0, 'ERR:deploy_rollback was started, but its outcome is unknown'],
      [true, 1, 'OK:deploy_rollback ok'],
    ])(
      'idempotent %s: the retry does not ask the model again; the tool runs %i time(s)',
      async (idempotent, runs, text) => {
        let count = 0;
        const e = engine(
          (prompt) =>
            lastToolResults(prompt).length === 0
              ? { toolCalls: [{ name: 'deploy_rollback', input: { service: 'api' } }] }
              : {
                  text: `FINAL ${lastToolResults(prompt)
                    .map((r) => `${r.isError ? 'ERR' : 'OK'}:${r.text}`)
                    .join(' | ')}`,
                },
          {
            tools: [
              {
                name: 'deploy_rollback',
                description: 'rollback',
                inputSchema: z.object({ service: z.string() }),
                hints: { readOnly: false, destructive: false, idempotent },
                execute: async () => {
                  count++;
                  return 'deploy_rollback ok';
                },
              },
            ],
          },
        );
        // The process dies once its claim on the call is stored, before the call returns.
        let crashed = false;
        e.deps.onCheckpoint = (name) => {
          if (name === 'during-tool-call' && !crashed) {
            crashed = true;
            throw new Error('SIGKILL');
          }
        };
        await expect(startTurn(e.deps, e.start)).rejects.toThrow('SIGKILL');
        expect(await advanceTurn(e.deps, 'turn-1')).toEqual({ state: 'completed' });
        expect(e.model.doGenerateCalls).toHaveLength(2);
        expect(count).toBe(runs);
        const reply = e.surface.events.find((event) => event.type === 'postMessage');
        expect(reply?.type === 'postMessage' ? reply.text : '').toContain(text);
      },
    );
  });
});
