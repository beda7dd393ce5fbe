import { describe, expect, it } from 'vitest';
import { MemoryScheduler, MemoryStore, MemorySurface } from '../../test/support/memory-store.js';
import { newTurnRecord } from '../agent/new-turn-record.js';
import { TurnWaiter } from '../agent/turn-waiter.js';
import { decodeAskArguments } from '../ask/decode-ask-arguments.js';
import type { QuestionResolution } from '../ask/types.js';
import { type AskEvent, AskService } from './ask-service.js';
import { silentLogger } from './logger.js';
import { ProgramWaiter } from './program-waiter.js';
import { type AnswererPolicy, ASK_RECORD_VERSION, type AskDefinition, standaloneScope } from './types.js';

const T0 = Date.parse('2026-12-01T10:00:00.000Z');

function questions(count: number) {
  const decoded = decodeAskArguments({
    questions: Array.from({ length: count }, (_, i) => ({
      header: `Q${i}`,
      question: `Question ${i}?`,
      options: [{ label: 'A', recommended: true }, { label: 'B' }],
    })),
  });
  if (!decoded.ok) throw new Error('bad fixture');
  return decoded.ask.questions;
}

/** A paused turn with one open ask in memory, and an ask service over it. */
async function setup(options: { questions?: number; answerers?: AnswererPolicy; timeoutMs?: number } = {}) {
  let now = T0;
  const clock = () => now;
  const store = new MemoryStore(clock);
  const scheduler = new MemoryScheduler();
  const surface = new MemorySurface();
  const events: AskEvent[] = [];
  const asks: AskService = new AskService({
    store,
    timers: scheduler,
    surface,
    waiters: {
      turn: new TurnWaiter({ store, scheduler, now: clock }),
      api: new ProgramWaiter({
        store,
        show: (conversation, ask) => asks.show(conversation, ask),
        notifier: scheduler,
      }),
    },
    log: silentLogger,
    now: clock,
    showAttempts: 3,
    showRetryDelayMs: 1,
    observe: (event) => events.push(event),
  });
  const conversation = { surface: 'memory', channel: 'C1', threadTs: '1.1' };
  const at = new Date(now).toISOString();
  const turn = newTurnRecord({ turnId: 't1', conversation, requestedBy: 'U_REQ', messages: [], at });
  await store.createTurn(turn);
  const definition: AskDefinition = {
    version: ASK_RECORD_VERSION,
    askId: 'a1',
    scope: 't1',
    waiter: { kind: 'turn', turnId: 't1', toolCallId: 'call-1' },
    ordinal: 0,
    questions: questions(options.questions ?? 1),
    conversation,
    requestedBy: 'U_REQ',
    answerers: options.answerers ?? { mode: 'anyone' },
    timeoutMs: options.timeoutMs ?? 60_000,
    policy: 'recommended-or-first',
    createdAt: at,
  };
  await store.pauseTurn({ ...turn, status: 'paused', pendingAskId: 'a1' }, 1, definition);
  const stored = await store.getAsk('t1', 'a1');
  if (!stored) throw new Error('not stored');
  return {
    store,
    scheduler,
    surface,
    asks,
    events,
    ask: stored,
    conversation,
    advance: (ms: number) => {
      now += ms;
    },
  };
}

const answer = (userId: string, label = 'A'): QuestionResolution => ({
  status: 'answered',
  selected: [label],
  other: null,
  answeredBy: userId,
  answeredAt: new Date(T0).toISOString(),
  source: 'button',
  assumption: null,
});

describe('AskService.show', () => {
  it('shows once, records where and when, and adds the timeout job at shown + timeout', async () => {
    const h = await setup({ timeoutMs: 30_000 });
    expect(await h.asks.show(h.conversation, h.ask)).toBe(true);
    const shown = await h.store.getAsk('t1', 'a1');
    expect(shown).toMatchObject({ shownAt: T0, deadline: T0 + 30_000, messageRef: 'msg-a1' });
    expect(h.scheduler.jobs.get('timeout-a1')).toEqual({
      kind: 'timeout',
      turnId: 't1',
      askId: 'a1',
      dueAt: T0 + 30_000,
    });
  });

  it('after every try fails, resolves each question as not shown, so the waiter is told nobody saw it', async () => {
    const h = await setup({ questions: 2 });
    h.surface.failShows = 3;
    expect(await h.asks.show(h.conversation, h.ask)).toBe(false);
    const after = await h.store.getAsk('t1', 'a1');
    expect(after?.status).toBe('resolved');
    expect(after?.resolutions.map((r) => r?.source)).toEqual(['not_shown', 'not_shown']);
    expect(h.scheduler.jobs.has('timeout-a1')).toBe(false);
  });

  it('a failure followed by a success shows it once', async () => {
    const h = await setup();
    h.surface.failShows = 1;
    expect(await h.asks.show(h.conversation, h.ask)).toBe(true);
    expect(h.surface.events.filter((e) => e.type === 'showAsk')).toHaveLength(1);
  });
});

describe('AskService.answer', () => {
  it('the first answer to a question wins; the last open question completes the ask and resumes the turn once', async () => {
    const h = await setup({ questions: 2 });
    await h.asks.show(h.conversation, h.ask);
    const first = await h.asks.answer({
      turnId: 't1',
      askId: 'a1',
      questionIndex: 0,
      resolution: answer('U1', 'B'),
    });
    expect(first.status).toBe('recorded');
    expect(h.scheduler.jobs.has('resume-a1')).toBe(false);
    const again = await h.asks.answer({
      turnId: 't1',
      askId: 'a1',
      questionIndex: 0,
      resolution: answer('U2'),
    });
    expect(again.status).toBe('already-resolved');
    expect(again.ask?.resolutions[0]?.answeredBy).toBe('U1');
    const last = await h.asks.answer({
      turnId: 't1',
      askId: 'a1',
      questionIndex: 1,
      resolution: answer('U2'),
    });
    expect(last.status).toBe('completed');
    expect(h.scheduler.jobs.get('resume-a1')).toEqual({
      kind: 'resume',
      turnId: 't1',
      askId: 'a1',
      recover: false,
    });
    expect((await h.store.getAsk('t1', 'a1'))?.resumeQueuedAt).toBe(T0);
    expect(h.scheduler.canceled).toEqual(['a1']);
    expect(h.events).toEqual([{ type: 'ask-resolved', how: 'answered', waitedMs: 0 }]);
    const late = await h.asks.answer({
      turnId: 't1',
      askId: 'a1',
      questionIndex: 1,
      resolution: answer('U3'),
    });
    expect(late.status).toBe('closed');
  });

  const policies: Array<[string, AnswererPolicy, string, boolean, string]> = [
    ['requester: the requester', { mode: 'requester' }, 'U_REQ', false, 'completed'],
    ['requester: someone else', { mode: 'requester' }, 'U_OTHER', false, 'forbidden'],
    ['list: a listed user', { mode: 'list', userIds: ['U_OK'], groupIds: [] }, 'U_OK', false, 'completed'],
    ['list: in an allowed group', { mode: 'list', userIds: [], groupIds: ['S1'] }, 'U_G', true, 'completed'],
    ['list: neither', { mode: 'list', userIds: ['U_OK'], groupIds: ['S1'] }, 'U_NO', false, 'forbidden'],
  ];
  for (const [name, answerers, userId, inAllowedGroup, status] of policies) {
    it(`answerer policy ${name} -> ${status}`, async () => {
      const h = await setup({ answerers });
      const result = await h.asks.answer({
        turnId: 't1',
        askId: 'a1',
        questionIndex: 0,
        resolution: answer(userId),
        inAllowedGroup,
      });
      expect(result.status).toBe(status);
      expect(h.scheduler.jobs.has('resume-a1')).toBe(status === 'completed');
    });
  }
});

describe('AskService.cancel', () => {
  it('only the requester cancels; the turn resumes once with every open question canceled', async () => {
    const h = await setup({ questions: 2 });
    await h.asks.answer({ turnId: 't1', askId: 'a1', questionIndex: 0, resolution: answer('U1') });
    expect((await h.asks.cancel({ turnId: 't1', askId: 'a1', userId: 'U1' })).status).toBe('forbidden');
    const canceled = await h.asks.cancel({ turnId: 't1', askId: 'a1', userId: 'U_REQ' });
    expect(canceled.status).toBe('completed');
    expect(canceled.ask?.resolutions.map((r) => r?.status)).toEqual(['answered', 'canceled']);
    expect(h.scheduler.jobs.has('resume-a1')).toBe(true);
  });
});

describe('AskService.timeout', () => {
  it('before the deadline: not due, and the timeout job is there for the deadline', async () => {
    const h = await setup({ timeoutMs: 1000 });
    await h.asks.show(h.conversation, h.ask);
    h.scheduler.take('timeout-a1');
    h.advance(999);
    expect(await h.asks.timeout('t1', 'a1')).toBe('not-due');
    expect(h.scheduler.jobs.get('timeout-a1')).toMatchObject({ dueAt: T0 + 1000 });
  });

  it('at the deadline: open questions are assumed (answers given stay), the turn resumes and the message is synced', async () => {
    const h = await setup({ questions: 2, timeoutMs: 1000 });
    await h.asks.show(h.conversation, h.ask);
    await h.asks.answer({ turnId: 't1', askId: 'a1', questionIndex: 0, resolution: answer('U1', 'B') });
    h.advance(1000);
    expect(await h.asks.timeout('t1', 'a1')).toBe('resolved');
    const after = await h.store.getAsk('t1', 'a1');
    expect(after?.resolutions.map((r) => [r?.status, r?.selected])).toEqual([
      ['answered', ['B']],
      ['assumed', ['A']],
    ]);
    expect(h.scheduler.jobs.has('resume-a1')).toBe(true);
    expect(h.surface.events.at(-1)).toEqual({
      type: 'syncAsk',
      askId: 'a1',
      statuses: ['answered', 'assumed'],
    });
    expect(h.events.at(-1)).toEqual({
      type: 'ask-resolved',
      how: 'assumed',
      waitedMs: null,
      policy: 'recommended-or-first',
    });
    // The job running again changes nothing and resumes nothing twice.
    expect(await h.asks.timeout('t1', 'a1')).toBe('already-resolved');
    expect([...h.scheduler.jobs.keys()].filter((id) => id.startsWith('resume'))).toEqual(['resume-a1']);
  });

  it('an ask that no longer exists is missing', async () => {
    const h = await setup();
    expect(await h.asks.timeout('t1', 'nope')).toBe('missing');
  });
});

describe('AskService.sweep', () => {
  it('resolves an overdue ask whose timeout job was lost, and re-adds a resume a crash skipped', async () => {
    const h = await setup({ timeoutMs: 1000 });
    await h.asks.show(h.conversation, h.ask);
    h.scheduler.take('timeout-a1');
    h.advance(5000);
    // Resolved, then seen again in the same sweep among the unresumed asks (adding the resume twice adds one job).
    expect(await h.asks.sweep({ unshownGraceMs: 60_000 })).toEqual({ timedOut: 1, resumed: 1, reshown: 0 });
    expect(h.scheduler.take('resume-a1')).toBeDefined();
    // The resume job was lost (say Redis restarted without it): the next sweep adds it again.
    expect(await h.asks.sweep({ unshownGraceMs: 60_000 })).toEqual({ timedOut: 0, resumed: 1, reshown: 0 });
    expect(h.scheduler.jobs.get('resume-a1')).toMatchObject({ recover: true });
  });

  it('an ask a crash left unshown is handed to its waiter to show, after the grace period', async () => {
    const h = await setup();
    expect(await h.asks.sweep({ unshownGraceMs: 60_000 })).toEqual({ timedOut: 0, resumed: 0, reshown: 0 });
    h.advance(60_000);
    expect(await h.asks.sweep({ unshownGraceMs: 60_000 })).toEqual({ timedOut: 0, resumed: 0, reshown: 1 });
    expect(h.scheduler.jobs.get('resume-a1')).toMatchObject({ recover: true });
  });

  it('a resolved ask whose turn moved on leaves the index and resumes nothing', async () => {
    const h = await setup();
    await h.asks.answer({ turnId: 't1', askId: 'a1', questionIndex: 0, resolution: answer('U1') });
    h.scheduler.take('resume-a1');
    const turn = await h.store.getTurn('t1');
    if (!turn) throw new Error('no turn');
    await h.store.commitTurn({ ...turn, status: 'running', pendingAskId: null }, turn.rev);
    expect(await h.asks.sweep({ unshownGraceMs: 60_000 })).toEqual({ timedOut: 0, resumed: 1, reshown: 0 });
    expect(h.scheduler.jobs.has('resume-a1')).toBe(false);
    expect(await h.store.listUnresumedAsks(10)).toEqual([]);
  });
});

describe('an ask of its own scope (a program waits on it)', () => {
  function programAsk(
    askId: string,
    conversation: { surface: string; channel: string; threadTs: string },
  ): AskDefinition {
    return {
      version: ASK_RECORD_VERSION,
      askId,
      scope: standaloneScope(askId),
      waiter: { kind: 'api', clientName: 'deploy-script' },
      ordinal: 0,
      questions: questions(1),
      conversation,
      requestedBy: 'deploy-script',
      answerers: { mode: 'anyone' },
      timeoutMs: 1000,
      policy: 'recommended-or-first',
      createdAt: new Date(T0).toISOString(),
    };
  }

  it('opens once and is shown once; an answer resolves it, resumes no turn, and takes it out of the index', async () => {
    const h = await setup();
    const definition = programAsk('p1', h.conversation);
    const opened = await h.asks.open(h.conversation, definition);
    expect(opened).toMatchObject({ scope: 'ask-p1', status: 'open', shownAt: T0, messageRef: 'msg-p1' });
    expect(await h.asks.open(h.conversation, definition)).toMatchObject({ shownAt: T0 });
    expect(h.surface.events.filter((e) => e.type === 'showAsk' && e.askId === 'p1')).toHaveLength(1);
    expect(h.scheduler.jobs.has('timeout-p1')).toBe(true);

    const result = await h.asks.answer({
      turnId: 'ask-p1',
      askId: 'p1',
      questionIndex: 0,
      resolution: answer('U1', 'B'),
    });
    expect(result.status).toBe('completed');
    expect([...h.scheduler.jobs.keys()].filter((id) => id.startsWith('resume'))).toEqual([]);
    expect(await h.store.listUnresumedAsks(10)).toEqual([]);
    await h.asks.sweep({ unshownGraceMs: 0 });
    expect(h.surface.events.filter((e) => e.type === 'showAsk' && e.askId === 'p1')).toHaveLength(1);
    expect((await h.store.getAsk('ask-p1', 'p1'))?.resolutions[0]).toMatchObject({ selected: ['B'] });
  });

  it("times out by its policy like a turn's ask; one a crash left unshown is shown by the sweep", async () => {
    const h = await setup();
    await h.asks.open(h.conversation, programAsk('p2', h.conversation));
    h.advance(1000);
    expect(await h.asks.timeout('ask-p2', 'p2')).toBe('resolved');
    expect((await h.store.getAsk('ask-p2', 'p2'))?.resolutions[0]).toMatchObject({
      status: 'assumed',
      selected: ['A'],
    });

    await h.store.openAsk(programAsk('p3', h.conversation));
    h.advance(60_000);
    await h.asks.sweep({ unshownGraceMs: 60_000 });
    expect((await h.store.getAsk('ask-p3', 'p3'))?.messageRef).toBe('msg-p3');
  });
});
