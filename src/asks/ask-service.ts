import { assumeOpenQuestions } from '../ask/assume-resolution.js';
import type { QuestionResolution } from '../ask/types.js';
import { type AskSurface, type AskTimers, type AskWaiters, waiterHandlerOf } from './ask-ports.js';
import type { AskChange, AskStore } from './ask-store.js';
import type { ConversationRef } from './conversation.js';
import {
  dueFollowUps,
  escalationTargets,
  followUpOf,
  followUpPoints,
  latestDeadline,
  nudgeDoneId,
  waitingOn,
} from './follow-up.js';
import type { EngineLogger } from './logger.js';
import type { AnswerOverride, AskDefinition, AskRecord, AskTransitionResult } from './types.js';

/** Named points in the ask's life where crash tests kill the process. No effect in production. */
export type AskCheckpoint =
  | 'after-ask-shown'
  | 'after-answer-recorded'
  | 'after-timeout-resolved'
  /** A reminder or the escalation was claimed in the store and is about to be posted. */
  | 'after-nudge-claimed';

/** Something worth counting happened to an ask (metrics). */
export type AskEvent =
  | {
      type: 'ask-resolved';
      how: 'answered' | 'assumed' | 'canceled';
      /** From shown to resolved, in ms; null when unknown. */
      waitedMs: number | null;
      /** For `assumed`: the timeout policy that picked the answers. */
      policy?: string;
    }
  | { type: 'follow-up'; kind: 'reminder' | 'escalation' | 'extension' | 'vote' | 'override' | 'delegation' };

/** What the ask service needs. */
export interface AskServiceDeps {
  store: AskStore;
  timers: AskTimers;
  surface: AskSurface;
  waiters: AskWaiters;
  log: EngineLogger;
  /** Epoch ms. */
  now: () => number;
  /** Tries to show an ask before it resolves as "not shown" (default 3). */
  showAttempts?: number;
  /** Pause between those tries, in ms (default 500, doubled each time). */
  showRetryDelayMs?: number;
  onCheckpoint?: ((name: AskCheckpoint, ids: { turnId: string; askId: string }) => void) | undefined;
  /** Called for countable events (metrics); must not throw. */
  observe?: ((event: AskEvent) => void) | undefined;
}

/** One person's answer to one question, as the surfaces hand it over. */
export interface AnswerInput {
  turnId: string;
  askId: string;
  questionIndex: number;
  resolution: QuestionResolution;
  /** The surface found the person allowed beyond the stored lists (a policy group, or an escalation target once escalated). */
  inAllowedGroup?: boolean;
  /** The ask's quorum (default 1); see {@link import('./ask-store.js').AnswerOptions}. */
  quorum?: number;
  /** The answer decides at once whatever the quorum (an approval's Deny). */
  decisive?: boolean;
}

/** What {@link AskService.sweep} did. */
export interface SweepCounts {
  timedOut: number;
  resumed: number;
  reshown: number;
}

/**
 * The life of an ask, whoever waits on it: shown -> answered | assumed | canceled, then its waiter goes
 * on. Every transition is one atomic step of the {@link AskStore}; this service orders the steps around
 * them (timers, the waiter, the message) so that a crash between any two is repaired by running the
 * timeout job or the sweep again. It never throws for a lost race: results carry statuses.
 */
export class AskService {
  readonly #deps: AskServiceDeps;

  constructor(deps: AskServiceDeps) {
    this.#deps = deps;
  }

  /**
   * Shows a stored ask (idempotent by ask id), records where, and adds its timeout job. When it cannot be
   * shown after `showAttempts` tries, every question resolves as `not_shown` (the waiter is told nobody saw
   * the question).
   * @returns true when it was shown.
   */
  async show(
    conversation: ConversationRef,
    ask: AskRecord,
    onFailed?: (lastError: unknown) => void,
  ): Promise<boolean> {
    const deps = this.#deps;
    const attempts = deps.showAttempts ?? 3;
    let delay = deps.showRetryDelayMs ?? 500;
    let lastError: unknown;
    for (let attempt = 1; attempt <= attempts; attempt++) {
      try {
        const messageRef = await deps.surface.showAsk(conversation, ask);
        const shown = await deps.store.markAskShown(ask.scope, ask.askId, deps.now(), messageRef);
        deps.onCheckpoint?.('after-ask-shown', { turnId: ask.scope, askId: ask.askId });
        // The timeout and the first follow-up point go out together (each idempotent). The surface is told
        // after their replies: those come on the connection that also sent the ask's index move, so a reader
        // of the index elsewhere (the inbox) sees the shown ask.
        const first = shown ? followUpPoints(shown)[0] : undefined;
        await Promise.all([
          shown?.deadline != null ? deps.timers.timeout(ask.scope, ask.askId, shown.deadline) : null,
          first ? deps.timers.nudge(ask.scope, ask.askId, first.at) : null,
        ]);
        if (shown) await this.#announceShown(shown);
        return true;
      } catch (error) {
        lastError = error;
        deps.log.warn({ turnId: ask.scope, askId: ask.askId, attempt, err: error }, 'showing the ask failed');
        if (attempt < attempts) {
          await new Promise((resolve) => setTimeout(resolve, delay));
          delay *= 2;
        }
      }
    }
    deps.log.error(
      { turnId: ask.scope, askId: ask.askId, err: lastError },
      'ask could not be shown; resolving as not shown',
    );
    onFailed?.(lastError);
    const at = new Date(deps.now()).toISOString();
    await deps.store.resolveOpenQuestions(
      ask.scope,
      ask.askId,
      assumeOpenQuestions(ask.questions, 'no-answer', at, 'not_shown'),
    );
    return false;
  }

  /**
   * Opens an ask of its own scope (one a program asks; a turn's ask opens with the turn's pause) and shows
   * it. Idempotent by ask id: opening it again shows the stored one (a retry after a crash posts no second
   * message).
   * @returns the ask as stored after showing it, or null when it vanished meanwhile.
   */
  async open(
    conversation: ConversationRef,
    definition: AskDefinition,
    onShowFailed?: (lastError: unknown) => void,
  ): Promise<AskRecord | null> {
    const deps = this.#deps;
    await deps.store.openAsk(definition);
    const stored = await deps.store.getAsk(definition.scope, definition.askId);
    if (!stored) return null;
    if (stored.shownAt === null) await this.show(conversation, stored, onShowFailed);
    // Opened again after a crash between showing it and setting its timers: set them now (idempotent).
    else if (stored.status === 'open') await this.watch(stored);
    return deps.store.getAsk(definition.scope, definition.askId);
  }

  /**
   * Makes sure the timeout job of a shown, open ask exists, and its nudge job when follow-up points are
   * left (both idempotent by jobId): a crash between showing and adding them is repaired here.
   */
  async watch(ask: AskRecord): Promise<void> {
    const deps = this.#deps;
    await deps.timers.timeout(ask.scope, ask.askId, ask.deadline ?? deps.now());
    const next = dueFollowUps(ask, deps.now());
    const at = next.send.length + next.skipped.length > 0 ? deps.now() : next.nextAt;
    if (at !== null) await deps.timers.nudge(ask.scope, ask.askId, at);
  }

  /**
   * Stores one person's answer atomically (answer-once): it counts only if the ask is open, the question
   * unanswered and the person allowed. Once this returns the answer is durable; a surface may acknowledge
   * it before calling {@link continueAfter} (a crash in between is repaired by the sweep and the timeout job).
   */
  async record(input: AnswerInput): Promise<AskTransitionResult> {
    const deps = this.#deps;
    const result = await deps.store.answerQuestion(
      input.turnId,
      input.askId,
      input.questionIndex,
      input.resolution,
      {
        inAllowedGroup: input.inAllowedGroup ?? false,
        quorum: input.quorum ?? 1,
        decisive: input.decisive ?? false,
      },
    );
    deps.onCheckpoint?.('after-answer-recorded', { turnId: input.turnId, askId: input.askId });
    if (result.status === 'voted') deps.observe?.({ type: 'follow-up', kind: 'vote' });
    return result;
  }

  /** When `result` resolved the ask's last open question: its waiter goes on and the timeout job is tidied. */
  async continueAfter(result: AskTransitionResult): Promise<void> {
    if (result.status !== 'completed' || !result.ask) return;
    await this.#resolved(result.ask);
    const shownAt = result.ask.shownAt;
    this.#deps.observe?.({
      type: 'ask-resolved',
      how: 'answered',
      waitedMs: shownAt === null ? null : this.#deps.now() - shownAt,
    });
  }

  /** {@link record} then {@link continueAfter}. */
  async answer(input: AnswerInput): Promise<AskTransitionResult> {
    const result = await this.record(input);
    await this.continueAfter(result);
    return result;
  }

  /** The requester cancels an open ask; its waiter gets a "canceled" resolution and goes on. */
  async cancel(input: { turnId: string; askId: string; userId: string }): Promise<AskTransitionResult> {
    const deps = this.#deps;
    const result = await deps.store.cancelAsk(
      input.turnId,
      input.askId,
      input.userId,
      new Date(deps.now()).toISOString(),
    );
    if (result.status === 'completed' && result.ask) {
      await this.#resolved(result.ask);
      deps.observe?.({ type: 'ask-resolved', how: 'canceled', waitedMs: null });
    }
    return result;
  }

  /**
   * The workspace uninstalled holdpoint (or revoked its token): the open ask is resolved as canceled, naming
   * nobody, so its waiter goes on (a turn then ends at its next Slack call: the workspace is gone).
   */
  async cancelUninstalled(turnId: string, askId: string): Promise<AskTransitionResult> {
    const deps = this.#deps;
    const result = await deps.store.cancelAsk(turnId, askId, '', new Date(deps.now()).toISOString(), {
      uninstalled: true,
    });
    if (result.status === 'completed' && result.ask) {
      await this.#resolved(result.ask);
      deps.observe?.({ type: 'ask-resolved', how: 'canceled', waitedMs: null });
    }
    return result;
  }

  /**
   * The `timeout` job: resolves every unanswered question by the ask's policy (answers already given stay),
   * lets the waiter go on, and updates the shown message. When the ask already resolved it only makes
   * sure the waiter went on (a crash between an answer and its continuation).
   * @param options.byDueTimer the caller is the due set's sweep: it removes the timeout timer it handled
   *   itself, and a nudge timer of the ask is due before the deadline (every follow-up point is), so it has
   *   run already or ends on the resolved ask by itself. The `ZREM` of both (one Redis command per timeout,
   *   tidying only) is then left out.
   */
  async timeout(
    turnId: string,
    askId: string,
    options: { byDueTimer?: boolean } = {},
  ): Promise<'resolved' | 'already-resolved' | 'not-due' | 'missing'> {
    const deps = this.#deps;
    const ask = await deps.store.getAsk(turnId, askId);
    if (!ask) return 'missing';
    if (ask.status === 'resolved') {
      await this.#recover(ask);
      return 'already-resolved';
    }
    const now = deps.now();
    if (ask.deadline === null || now < ask.deadline) {
      if (ask.deadline !== null) await deps.timers.timeout(turnId, askId, ask.deadline);
      return 'not-due';
    }
    const at = new Date(now).toISOString();
    const result = await deps.store.resolveOpenQuestions(
      turnId,
      askId,
      withVotes(ask, assumeOpenQuestions(ask.questions, ask.policy, at, 'timeout')),
      // An extension that Redis ran first moved the deadline: then this changes nothing.
      { onlyIfDue: true },
    );
    if (result.status === 'not-due') return 'not-due';
    if (result.status !== 'completed' || !result.ask) {
      if (result.ask) await this.#recover(result.ask);
      return 'already-resolved';
    }
    deps.log.info({ turnId, askId }, 'ask resolved by timeout');
    deps.onCheckpoint?.('after-timeout-resolved', { turnId, askId });
    await this.#resolved(result.ask, { removeTimers: options.byDueTimer !== true });
    deps.observe?.({ type: 'ask-resolved', how: 'assumed', waitedMs: null, policy: ask.policy });
    // Shown at once here; if this process dies first, the waiter's continuation draws it (a turn syncs the
    // message before it resumes).
    await this.syncQuietly(result.ask);
    return 'resolved';
  }

  /**
   * Pushes the deadline of an open ask back by the `choiceIndex`-th snooze choice, capped at its latest
   * deadline; redraws the message. The timeout job follows by itself (it finds the deadline moved and waits
   * again), and so do the reminders (they are computed from the deadline).
   */
  async extend(input: {
    turnId: string;
    askId: string;
    userId: string;
    choiceIndex: number;
    inAllowedGroup: boolean;
  }): Promise<
    AskChange<'extended' | 'closed' | 'forbidden' | 'at-limit'> | { status: 'invalid'; ask: AskRecord }
  > {
    const deps = this.#deps;
    const ask = await deps.store.getAsk(input.turnId, input.askId);
    if (!ask) return { status: 'not-found', ask: null };
    const addMs = followUpOf(ask).extendByMs[input.choiceIndex];
    if (addMs === undefined) return { status: 'invalid', ask };
    const result = await deps.store.extendAsk(input.turnId, input.askId, {
      byUserId: input.userId,
      addMs,
      latestDeadline: latestDeadline(ask),
      inAllowedGroup: input.inAllowedGroup,
    });
    if (result.status === 'extended') {
      deps.log.info(
        { turnId: input.turnId, askId: input.askId, by: input.userId, deadline: result.ask.deadline },
        'ask deadline extended',
      );
      deps.observe?.({ type: 'follow-up', kind: 'extension' });
      await this.syncQuietly(result.ask);
    }
    return result;
  }

  /**
   * The `nudge` job: sends the reminders and the escalation that are due (each claimed once in the store,
   * then posted exactly once by key, so a retry after a crash posts what the crash left unposted and nothing
   * twice), redraws the message, and says when to run again.
   * @returns epoch ms of the next point, or null when none is left (the ask resolved, or all were sent)
   */
  async nudge(turnId: string, askId: string): Promise<number | null> {
    const deps = this.#deps;
    let ask = await deps.store.getAsk(turnId, askId);
    if (!ask || ask.status !== 'open') return null;
    const now = deps.now();
    const { send, skipped } = dueFollowUps(ask, now);
    for (const point of [...skipped, ...send]) {
      // Claimed while open (so nothing goes out once the ask resolved), posted once by key, then marked
      // done; a job that dies in between is run again and posts (or finds posted) what it claimed.
      const claim = await deps.store.claimNudge(
        turnId,
        askId,
        send.includes(point) ? point.id : nudgeDoneId(point.id),
      );
      if (claim.status === 'not-found' || claim.status === 'closed') return null;
      ask = claim.ask;
      if (!send.includes(point)) continue;
      deps.onCheckpoint?.('after-nudge-claimed', { turnId, askId });
      const key = `nudge-${askId}-${point.id}`;
      if (point.kind === 'reminder') {
        await deps.surface.postNotice(ask, { key, kind: 'reminder', waitingOn: waitingOn(ask, now) });
        deps.observe?.({ type: 'follow-up', kind: 'reminder' });
      } else {
        await deps.surface.postNotice(ask, { key, kind: 'escalation', targets: escalationTargets(ask) });
        deps.observe?.({ type: 'follow-up', kind: 'escalation' });
      }
      deps.log.info({ turnId, askId, point: point.id }, `ask ${point.kind} sent`);
      const done = await deps.store.claimNudge(turnId, askId, nudgeDoneId(point.id));
      if (done.status === 'not-found' || done.status === 'closed') return null;
      ask = done.ask;
    }
    if (send.length + skipped.length > 0) await this.syncQuietly(ask);
    return dueFollowUps(ask, now).nextAt;
  }

  /** "Ask someone else…": `userId` (who may answer) makes `delegateId` an answerer too, mentioned in the thread. */
  async delegate(input: {
    turnId: string;
    askId: string;
    userId: string;
    delegateId: string;
    inAllowedGroup: boolean;
  }): Promise<AskChange<'added' | 'unchanged' | 'closed' | 'forbidden'>> {
    const deps = this.#deps;
    const result = await deps.store.addDelegate(input.turnId, input.askId, {
      byUserId: input.userId,
      inAllowedGroup: input.inAllowedGroup,
      delegateId: input.delegateId,
    });
    if (result.status === 'added' || result.status === 'unchanged') {
      await deps.surface.postNotice(result.ask, {
        key: `delegate-${input.askId}-${input.delegateId}`,
        kind: 'delegated',
        by: input.userId,
        to: input.delegateId,
      });
      if (result.status === 'added') {
        deps.observe?.({ type: 'follow-up', kind: 'delegation' });
        await this.syncQuietly(result.ask);
      }
    }
    return result;
  }

  /**
   * A late answer replaces an assumed one (once per question, within the override window): stored, shown,
   * and handed to the waiter (which never re-runs or undoes what the assumption already did).
   */
  async override(input: {
    turnId: string;
    askId: string;
    questionIndex: number;
    override: AnswerOverride;
    inAllowedGroup: boolean;
  }): Promise<AskChange<'recorded' | 'closed' | 'not-assumed' | 'forbidden' | 'duplicate'>> {
    const deps = this.#deps;
    const ask = await deps.store.getAsk(input.turnId, input.askId);
    if (!ask) return { status: 'not-found', ask: null };
    const result = await deps.store.overrideAnswer(
      input.turnId,
      input.askId,
      input.questionIndex,
      input.override,
      // A quorum's question is not changed by one person afterwards: no window.
      {
        inAllowedGroup: input.inAllowedGroup,
        windowMs: followUpOf(ask).quorum > 1 ? 0 : followUpOf(ask).overrideWindowMs,
      },
    );
    if (result.status === 'recorded') {
      deps.log.info(
        { turnId: input.turnId, askId: input.askId, question: input.questionIndex, by: input.override.by },
        'assumed answer changed',
      );
      deps.observe?.({ type: 'follow-up', kind: 'override' });
      await this.syncQuietly(result.ask);
      await deps.surface.postNotice(result.ask, {
        key: `override-${input.askId}-q${input.questionIndex}`,
        kind: 'overridden',
        questionIndex: input.questionIndex,
        by: input.override.by,
      });
      await this.overridden(result.ask, input.questionIndex);
    }
    return result;
  }

  /** Hands a stored late answer to the waiter (again after a crash: the waiter is idempotent). */
  async overridden(ask: AskRecord, questionIndex: number): Promise<void> {
    await waiterHandlerOf(this.#deps.waiters, ask).overridden(ask, questionIndex);
  }

  /**
   * Recovers what a crash or a Redis restart may have lost: asks past their deadline with no live timeout
   * job are resolved now; asks never shown get their waiter to show them; resolved asks whose waiter never
   * went on are handed to it again. Run at start-up and every minute.
   */
  async sweep(options: { unshownGraceMs: number; limit?: number }): Promise<SweepCounts> {
    const deps = this.#deps;
    const counts: SweepCounts = { timedOut: 0, resumed: 0, reshown: 0 };
    const limit = options.limit ?? 200;
    for (const { turnId, askId } of await deps.store.listOverdueAsks(
      deps.now(),
      options.unshownGraceMs,
      limit,
    )) {
      const ask = await deps.store.getAsk(turnId, askId);
      if (!ask) {
        await deps.store.unindexAsk(turnId, askId);
        continue;
      }
      if (ask.status === 'resolved') {
        await this.#recover(ask);
        counts.resumed++;
      } else if (ask.shownAt === null) {
        await waiterHandlerOf(deps.waiters, ask).reshow(ask);
        counts.reshown++;
      } else {
        const outcome = await this.timeout(turnId, askId);
        if (outcome === 'resolved') counts.timedOut++;
        // Shown and not due, yet listed: its index entry lost the move to its deadline (a write sent
        // without waiting). Marking it shown again changes nothing on the ask and sends the move again.
        else if (outcome === 'not-due')
          await deps.store.markAskShown(turnId, askId, ask.shownAt, ask.messageRef);
      }
    }
    for (const { turnId, askId } of await deps.store.listUnresumedAsks(limit)) {
      const ask = await deps.store.getAsk(turnId, askId);
      if (!ask) await deps.store.unindexAsk(turnId, askId);
      else {
        await this.#recover(ask);
        counts.resumed++;
      }
    }
    return counts;
  }

  /**
   * Brings the ask's shown message up to date (the surface makes this idempotent and ordered). A refusal
   * is logged, not thrown: the resolution is stored and the waiter goes on either way.
   */
  async syncQuietly(ask: AskRecord): Promise<void> {
    try {
      await this.#deps.surface.syncAsk(ask);
    } catch (error) {
      this.#deps.log.warn(
        { turnId: ask.scope, askId: ask.askId, err: error },
        'could not update the ask message',
      );
    }
  }

  /** Tells the surface the ask is shown (for views listing open asks); best effort, logged when it fails. */
  async #announceShown(ask: AskRecord): Promise<void> {
    try {
      await this.#deps.surface.shown?.(ask);
    } catch (error) {
      this.#deps.log.warn({ turnId: ask.scope, askId: ask.askId, err: error }, 'surface: shown failed');
    }
  }

  /**
   * The ask just resolved: its waiter goes on (before the caller acknowledges anything). Removing the
   * timeout job is only tidying, so it is not awaited: the answer-once step already decided, and a timeout
   * job that still fires finds the ask resolved and does nothing.
   */
  async #resolved(
    ask: AskRecord,
    options: { removeTimers: boolean } = { removeTimers: true },
  ): Promise<void> {
    const deps = this.#deps;
    await waiterHandlerOf(deps.waiters, ask).continue(ask, { recover: false });
    if (!options.removeTimers) return;
    deps.timers.cancelTimeout(ask.scope, ask.askId).catch((error: unknown) => {
      deps.log.debug(
        { turnId: ask.scope, askId: ask.askId, err: error },
        'timeout job not removed (already running or gone)',
      );
    });
  }

  /** A resolved ask found again (timeout job re-run, sweep): its waiter goes on if it still waits on it. */
  async #recover(ask: AskRecord): Promise<void> {
    await waiterHandlerOf(this.#deps.waiters, ask).continue(ask, { recover: true });
  }
}

/**
 * The timeout's fallbacks with, for each quorum question, the votes it had (not enough to agree), so the
 * waiter is told who chose what instead of "nobody answered". Pure.
 */
function withVotes(ask: AskRecord, fallbacks: QuestionResolution[]): QuestionResolution[] {
  return fallbacks.map((fallback, index) => {
    const votes = Object.entries(ask.votes[index] ?? {});
    if (votes.length === 0) return fallback;
    return {
      ...fallback,
      votes: votes.map(([by, vote]) => {
        try {
          const [selected, other] = JSON.parse(vote) as [string[], string | null];
          return { by, selected, other };
        } catch {
          return { by, selected: [], other: null };
        }
      }),
    };
  });
}
