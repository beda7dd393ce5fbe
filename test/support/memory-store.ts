/**
 * In-memory fakes of the engine's ports, for fast unit tests of the ask service and the turn loop. They
 * keep the contracts of the Redis adapters (src/store/): compare-and-set on the turn's rev, answer-once
 * with the answerer policy, first-call-wins markers, the overdue and unresumed listings. Real Redis stays
 * for the store, queue, race and crash tests.
 */
import type { ModelMessage } from 'ai';
import type { EngineStore } from '../../src/agent/engine-deps.js';
import type { Scheduler } from '../../src/agent/scheduler.js';
import type { ActivityTarget, Surface, TurnActivity, TurnTrigger } from '../../src/agent/surface.js';
import type { TurnRecord } from '../../src/agent/turn-record.js';
import type { TurnStart } from '../../src/agent/turn-start.js';
import type { CommitResult, ToolCallRun } from '../../src/agent/turn-store.js';
import type { QuestionResolution } from '../../src/ask/types.js';
import type { AskNotice } from '../../src/asks/ask-ports.js';
import type { AnswerOptions, AskChange } from '../../src/asks/ask-store.js';
import type { ConversationRef } from '../../src/asks/conversation.js';
import {
  type AnswerOverride,
  type AskDefinition,
  type AskRecord,
  type AskTransitionResult,
  type AskTransitionStatus,
  canceledResolution,
  openAskState,
} from '../../src/asks/types.js';

const clone = <T>(value: T): T => structuredClone(value);

/** {@link EngineStore} in memory. `now` is the store's clock (leases and indexes use it). */
export class MemoryStore implements EngineStore {
  readonly turns = new Map<string, TurnRecord>();
  readonly asks = new Map<string, AskRecord & { indexed: boolean }>();
  readonly leases = new Map<string, { token: string; until: number }>();
  readonly holders = new Map<string, string>();
  readonly inboxes = new Map<string, string[]>();

  constructor(private readonly now: () => number = () => Date.now()) {}

  async createTurn(turn: TurnRecord): Promise<boolean> {
    if (this.turns.has(turn.turnId)) return false;
    this.turns.set(turn.turnId, clone({ ...turn, rev: 1 }));
    return true;
  }

  async getTurn(turnId: string): Promise<TurnRecord | null> {
    const turn = this.turns.get(turnId);
    return turn ? clone(turn) : null;
  }

  async commitTurn(next: TurnRecord, expectedRev: number): Promise<CommitResult> {
    const stored = this.turns.get(next.turnId);
    if (!stored) return { ok: false, reason: 'not-found', rev: null };
    if (stored.rev !== expectedRev) return { ok: false, reason: 'conflict', rev: stored.rev };
    this.turns.set(next.turnId, clone({ ...next, rev: expectedRev + 1 }));
    return { ok: true, rev: expectedRev + 1 };
  }

  async openAsk(ask: AskDefinition): Promise<boolean> {
    if (this.asks.has(this.#askKey(ask.scope, ask.askId))) return false;
    this.#putAsk(ask);
    return true;
  }

  async pauseTurn(next: TurnRecord, expectedRev: number, ask: AskDefinition): Promise<CommitResult> {
    const committed = await this.commitTurn(next, expectedRev);
    if (committed.ok) this.#putAsk(ask);
    return committed;
  }

  #putAsk(ask: AskDefinition): void {
    this.asks.set(this.#askKey(ask.scope, ask.askId), {
      ...clone(ask),
      ...openAskState(ask),
      indexed: true,
    });
  }

  async getAsk(turnId: string, askId: string): Promise<AskRecord | null> {
    const ask = this.asks.get(this.#askKey(turnId, askId));
    return ask ? this.#record(ask) : null;
  }

  async markAskShown(turnId: string, askId: string, shownAt: number, messageRef: string | null) {
    const ask = this.asks.get(this.#askKey(turnId, askId));
    if (!ask) return null;
    if (ask.shownAt === null) {
      ask.shownAt = shownAt;
      ask.deadline = shownAt + ask.timeoutMs;
      ask.messageRef = messageRef;
    }
    return this.#record(ask);
  }

  async answerQuestion(
    turnId: string,
    askId: string,
    questionIndex: number,
    resolution: QuestionResolution,
    options: AnswerOptions = {},
  ): Promise<AskTransitionResult> {
    const ask = this.asks.get(this.#askKey(turnId, askId));
    if (!ask) return { status: 'not-found', ask: null };
    if ((options.quorum ?? 1) > 1) throw new Error('MemoryStore does not count quorum votes (use Redis)');
    if (questionIndex < 0 || questionIndex >= ask.questions.length)
      throw new Error('question index out of range');
    let status: AskTransitionStatus;
    if (ask.status !== 'open') status = 'closed';
    else if (ask.resolutions[questionIndex]) status = 'already-resolved';
    else if (!this.#allowed(ask, resolution.answeredBy, options.inAllowedGroup ?? false))
      status = 'forbidden';
    else {
      ask.resolutions[questionIndex] = clone(resolution);
      status = ask.resolutions.every((r) => r !== null) ? 'completed' : 'recorded';
      if (status === 'completed') {
        ask.status = 'resolved';
        ask.resolvedAt = this.now();
      }
    }
    return { status, ask: this.#record(ask) };
  }

  async resolveOpenQuestions(
    turnId: string,
    askId: string,
    fallbacks: QuestionResolution[],
    options: { onlyIfDue?: boolean } = {},
  ): Promise<AskTransitionResult> {
    const ask = this.asks.get(this.#askKey(turnId, askId));
    if (!ask) return { status: 'not-found' as const, ask: null };
    if (ask.status !== 'open') return { status: 'closed' as const, ask: this.#record(ask) };
    if (options.onlyIfDue && ask.deadline !== null && ask.deadline > this.now())
      return { status: 'not-due' as const, ask: this.#record(ask) };
    ask.resolutions = ask.resolutions.map((r, i) => r ?? clone(fallbacks[i] ?? null));
    ask.status = 'resolved';
    ask.resolvedAt = this.now();
    return { status: 'completed' as const, ask: this.#record(ask) };
  }

  async cancelAsk(
    turnId: string,
    askId: string,
    byUserId: string,
    at: string,
    options: { uninstalled?: boolean } = {},
  ): Promise<AskTransitionResult> {
    const ask = this.asks.get(this.#askKey(turnId, askId));
    if (!ask) return { status: 'not-found', ask: null };
    if (ask.status !== 'open') return { status: 'closed', ask: this.#record(ask) };
    if (!options.uninstalled && (!byUserId || byUserId !== ask.requestedBy))
      return { status: 'forbidden', ask: this.#record(ask) };
    const canceled = canceledResolution(options.uninstalled ? null : byUserId, at);
    ask.resolutions = ask.resolutions.map((r) => r ?? clone(canceled));
    ask.status = 'resolved';
    return { status: 'completed', ask: this.#record(ask) };
  }

  async markResumeQueued(turnId: string, askId: string, at: number): Promise<boolean> {
    const ask = this.asks.get(this.#askKey(turnId, askId));
    if (!ask || ask.resumeQueuedAt !== null) return false;
    ask.resumeQueuedAt = at;
    return true;
  }

  async listOverdueAsks(now: number, unshownGraceMs: number, limit: number) {
    return [...this.asks.values()]
      .filter(
        (ask) =>
          ask.indexed &&
          ask.status === 'open' &&
          (ask.deadline === null ? Date.parse(ask.createdAt) <= now - unshownGraceMs : ask.deadline <= now),
      )
      .slice(0, limit)
      .map((ask) => ({ turnId: ask.scope, askId: ask.askId }));
  }

  async listUnresumedAsks(limit: number) {
    return [...this.asks.values()]
      .filter((ask) => ask.indexed && ask.status === 'resolved')
      .slice(0, limit)
      .map((ask) => ({ turnId: ask.scope, askId: ask.askId }));
  }

  async unindexAsk(turnId: string, askId: string): Promise<void> {
    const ask = this.asks.get(this.#askKey(turnId, askId));
    if (ask) ask.indexed = false;
  }

  async admitToThread(threadKey: string, turnId: string, item: string): Promise<'start' | 'queued'> {
    const holder = this.holders.get(threadKey);
    if (holder === undefined || holder === turnId) {
      this.holders.set(threadKey, turnId);
      return 'start';
    }
    const inbox = this.inboxes.get(threadKey) ?? [];
    if (!inbox.includes(item)) inbox.push(item);
    this.inboxes.set(threadKey, inbox);
    return 'queued';
  }

  async releaseThread(threadKey: string, turnId: string): Promise<string | null> {
    if (this.holders.get(threadKey) !== turnId) return null;
    const next = this.inboxes.get(threadKey)?.shift();
    if (next === undefined) {
      this.holders.delete(threadKey);
      return null;
    }
    this.holders.set(threadKey, (JSON.parse(next) as { turnId: string }).turnId);
    return next;
  }

  async threadHolder(threadKey: string): Promise<string | null> {
    return this.holders.get(threadKey) ?? null;
  }

  readonly toolCalls = new Map<string, ToolCallRun>();

  async claimToolCall(
    turnId: string,
    toolCallId: string,
  ): Promise<{ claimed: true } | { claimed: false; run: ToolCallRun }> {
    const key = `${turnId}:${toolCallId}`;
    const run = this.toolCalls.get(key);
    if (run) return { claimed: false, run };
    this.toolCalls.set(key, { state: 'started' });
    return { claimed: true };
  }

  async finishToolCall(
    turnId: string,
    toolCallId: string,
    outcome: { output: string; isError: boolean },
  ): Promise<void> {
    this.toolCalls.set(`${turnId}:${toolCallId}`, { state: 'finished', ...outcome });
  }

  async acquireTurnLease(turnId: string, token: string, ttlMs: number): Promise<boolean> {
    const lease = this.leases.get(turnId);
    if (lease && lease.until > this.now()) return false;
    this.leases.set(turnId, { token, until: this.now() + ttlMs });
    return true;
  }

  async renewTurnLease(turnId: string, token: string, ttlMs: number): Promise<boolean> {
    const lease = this.leases.get(turnId);
    if (lease?.token !== token || lease.until <= this.now()) return false;
    lease.until = this.now() + ttlMs;
    return true;
  }

  async releaseTurnLease(turnId: string, token: string): Promise<void> {
    if (this.leases.get(turnId)?.token === token) this.leases.delete(turnId);
  }

  #askKey(turnId: string, askId: string): string {
    return `${turnId}|${askId}`;
  }

  #record(ask: AskRecord & { indexed: boolean }): AskRecord {
    const { indexed: _indexed, ...record } = clone(ask);
    return record;
  }

  #allowed(ask: AskRecord, userId: string | null, inAllowedGroup: boolean): boolean {
    const policy = ask.answerers;
    if (policy.mode === 'anyone') return true;
    if (userId === null || userId === '') return false;
    if (inAllowedGroup || ask.delegates.includes(userId)) return true;
    if (policy.mode === 'requester') return userId === ask.requestedBy;
    return policy.userIds.includes(userId);
  }

  async extendAsk(
    turnId: string,
    askId: string,
    input: { byUserId: string; addMs: number; latestDeadline: number; inAllowedGroup: boolean },
  ): Promise<AskChange<'extended' | 'closed' | 'forbidden' | 'at-limit'>> {
    const ask = this.asks.get(this.#askKey(turnId, askId));
    if (!ask) return { status: 'not-found', ask: null };
    const now = this.now();
    if (ask.status !== 'open' || ask.deadline === null || ask.deadline <= now)
      return { status: 'closed', ask: this.#record(ask) };
    if (!this.#allowed(ask, input.byUserId, input.inAllowedGroup))
      return { status: 'forbidden', ask: this.#record(ask) };
    const moved = ask.deadline + input.addMs;
    if (moved > input.latestDeadline) return { status: 'at-limit', ask: this.#record(ask) };
    ask.deadline = moved;
    ask.extendedBy = input.byUserId;
    ask.changes++;
    return { status: 'extended', ask: this.#record(ask) };
  }

  async claimNudge(
    turnId: string,
    askId: string,
    pointId: string,
  ): Promise<AskChange<'claimed' | 'claimed-before' | 'closed'>> {
    const ask = this.asks.get(this.#askKey(turnId, askId));
    if (!ask) return { status: 'not-found', ask: null };
    if (ask.status !== 'open') return { status: 'closed', ask: this.#record(ask) };
    if (ask.nudged.includes(pointId)) return { status: 'claimed-before', ask: this.#record(ask) };
    ask.nudged.push(pointId);
    ask.changes++;
    return { status: 'claimed', ask: this.#record(ask) };
  }

  async addDelegate(
    turnId: string,
    askId: string,
    input: { byUserId: string; inAllowedGroup: boolean; delegateId: string },
  ): Promise<AskChange<'added' | 'unchanged' | 'closed' | 'forbidden'>> {
    const ask = this.asks.get(this.#askKey(turnId, askId));
    if (!ask) return { status: 'not-found', ask: null };
    if (ask.status !== 'open') return { status: 'closed', ask: this.#record(ask) };
    if (!this.#allowed(ask, input.byUserId, input.inAllowedGroup))
      return { status: 'forbidden', ask: this.#record(ask) };
    if (ask.delegates.includes(input.delegateId)) return { status: 'unchanged', ask: this.#record(ask) };
    ask.delegates.push(input.delegateId);
    ask.changes++;
    return { status: 'added', ask: this.#record(ask) };
  }

  async overrideAnswer(
    turnId: string,
    askId: string,
    questionIndex: number,
    override: AnswerOverride,
    options: { inAllowedGroup: boolean; windowMs: number },
  ): Promise<AskChange<'recorded' | 'closed' | 'not-assumed' | 'forbidden' | 'duplicate'>> {
    const ask = this.asks.get(this.#askKey(turnId, askId));
    if (!ask) return { status: 'not-found', ask: null };
    if (ask.status !== 'resolved' || this.now() > (ask.resolvedAt ?? 0) + options.windowMs)
      return { status: 'closed', ask: this.#record(ask) };
    if (ask.resolutions[questionIndex]?.status !== 'assumed')
      return { status: 'not-assumed', ask: this.#record(ask) };
    if (!this.#allowed(ask, override.by, options.inAllowedGroup))
      return { status: 'forbidden', ask: this.#record(ask) };
    if (ask.overrides[questionIndex]) return { status: 'duplicate', ask: this.#record(ask) };
    ask.overrides[questionIndex] = clone(override);
    ask.changes++;
    return { status: 'recorded', ask: this.#record(ask) };
  }
}

/** One piece of later work the fake scheduler was asked for. */
export type ScheduledJob =
  | { kind: 'turn'; start: TurnStart }
  | { kind: 'resume'; turnId: string; askId: string; recover: boolean }
  | { kind: 'timeout'; turnId: string; askId: string; dueAt: number }
  | { kind: 'nudge'; turnId: string; askId: string; dueAt: number }
  | { kind: 'webhook'; scope: string; askId: string; questionIndex?: number };

/** {@link Scheduler} that records jobs by deterministic id (adding an id twice keeps the first, as BullMQ does). */
export class MemoryScheduler implements Scheduler {
  readonly jobs = new Map<string, ScheduledJob>();
  readonly canceled: string[] = [];

  async startTurn(start: TurnStart): Promise<void> {
    if (!this.jobs.has(`turn-${start.turnId}`))
      this.jobs.set(`turn-${start.turnId}`, { kind: 'turn', start });
  }

  async resume(turnId: string, askId: string, options: { recover?: boolean } = {}): Promise<void> {
    const id = `resume-${askId}`;
    if (!this.jobs.has(id))
      this.jobs.set(id, { kind: 'resume', turnId, askId, recover: options.recover ?? false });
  }

  /** Calls of {@link timeout}, de-duplicated or not. */
  timeoutAdds = 0;

  async timeout(turnId: string, askId: string, dueAt: number): Promise<void> {
    this.timeoutAdds++;
    const id = `timeout-${askId}`;
    if (!this.jobs.has(id)) this.jobs.set(id, { kind: 'timeout', turnId, askId, dueAt });
  }

  async notifyProgram(scope: string, askId: string): Promise<void> {
    const id = `webhook-${askId}`;
    if (!this.jobs.has(id)) this.jobs.set(id, { kind: 'webhook', scope, askId });
  }

  async nudge(turnId: string, askId: string, dueAt: number): Promise<void> {
    const id = `nudge-${askId}`;
    if (!this.jobs.has(id)) this.jobs.set(id, { kind: 'nudge', turnId, askId, dueAt });
  }

  async notifyOverride(scope: string, askId: string, questionIndex: number): Promise<void> {
    const id = `override-${askId}-q${questionIndex}`;
    if (!this.jobs.has(id)) this.jobs.set(id, { kind: 'webhook', scope, askId, questionIndex });
  }

  async cancelTimeout(_turnId: string, askId: string): Promise<void> {
    if (this.jobs.delete(`timeout-${askId}`)) this.canceled.push(askId);
  }

  /** Takes a job out (as a worker would, to run it). */
  take(id: string): ScheduledJob | undefined {
    const job = this.jobs.get(id);
    this.jobs.delete(id);
    return job;
  }
}

/** What the fake surface was asked to do. */
export type MemorySurfaceEvent =
  | { type: 'showAsk'; askId: string }
  | { type: 'syncAsk'; askId: string; statuses: Array<string | null> }
  | { type: 'postMessage'; key: string; kind: 'reply' | 'error'; text: string }
  | { type: 'setActivity'; activity: TurnActivity }
  | { type: 'notice'; key: string; kind: AskNotice['kind'] };

/** {@link Surface} in memory. `failShows` makes the next N `showAsk` calls throw. */
export class MemorySurface implements Surface {
  readonly events: MemorySurfaceEvent[] = [];
  readonly posted = new Map<string, string>();
  failShows = 0;

  async loadHistory(_conversation: ConversationRef, trigger: TurnTrigger): Promise<ModelMessage[]> {
    return [{ role: 'user', content: trigger.text }];
  }

  async showAsk(_conversation: ConversationRef, ask: AskRecord): Promise<string> {
    if (this.failShows > 0) {
      this.failShows--;
      throw new Error('memory surface: showAsk failure injected');
    }
    if (!this.events.some((event) => event.type === 'showAsk' && event.askId === ask.askId))
      this.events.push({ type: 'showAsk', askId: ask.askId });
    return `msg-${ask.askId}`;
  }

  async syncAsk(ask: AskRecord): Promise<void> {
    if (ask.messageRef === null) return;
    this.events.push({
      type: 'syncAsk',
      askId: ask.askId,
      statuses: ask.resolutions.map((r) => r?.status ?? null),
    });
  }

  async postMessage(_conversation: ConversationRef, text: string, key: string, kind: 'reply' | 'error') {
    if (this.posted.has(key)) return;
    this.posted.set(key, text);
    this.events.push({ type: 'postMessage', key, kind, text });
  }

  async setActivity(_target: ActivityTarget, activity: TurnActivity): Promise<void> {
    this.events.push({ type: 'setActivity', activity });
  }

  async postNotice(_ask: AskRecord, notice: AskNotice): Promise<void> {
    if (this.posted.has(notice.key)) return;
    this.posted.set(notice.key, notice.kind);
    this.events.push({ type: 'notice', key: notice.key, kind: notice.kind });
  }
}
