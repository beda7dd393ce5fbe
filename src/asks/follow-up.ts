import { type AskFollowUp, type AskRecord, NO_FOLLOW_UP } from './types.js';

/**
 * The follow-ups of an open ask, computed from the stored ask and the time alone (pure), so every worker
 * agrees: when reminders and the escalation are due, who is still waited on, who may answer once the ask
 * escalated, how late the deadline may move, and whether a late answer may still change an assumption.
 */

/** A follow-up point of a shown ask: `r<i>` reminder i, `e` the escalation; `at` in epoch ms. */
export interface FollowUpPoint {
  id: string;
  kind: 'reminder' | 'escalation';
  at: number;
}

/** People and user groups (ids). */
export interface PeopleRef {
  userIds: string[];
  groupIds: string[];
}

/** The ask's follow-up settings ({@link NO_FOLLOW_UP} for asks stored before they existed). */
export function followUpOf(ask: Pick<AskRecord, 'followUp'>): AskFollowUp {
  return ask.followUp ?? NO_FOLLOW_UP;
}

/**
 * Every follow-up point of a shown ask before its deadline, by time (reminders at a fraction move with the
 * deadline; fixed ones and the escalation do not). Empty before the ask is shown.
 */
export function followUpPoints(ask: Pick<AskRecord, 'followUp' | 'shownAt' | 'deadline'>): FollowUpPoint[] {
  const { shownAt, deadline } = ask;
  if (shownAt === null || deadline === null) return [];
  const followUp = followUpOf(ask);
  const points: FollowUpPoint[] = followUp.reminders.map((point, index) => ({
    id: `r${index}`,
    kind: 'reminder' as const,
    at:
      point.kind === 'fraction'
        ? shownAt + Math.round(point.fraction * (deadline - shownAt))
        : shownAt + point.ms,
  }));
  if (followUp.escalation)
    points.push({ id: 'e', kind: 'escalation', at: shownAt + followUp.escalation.afterMs });
  return points
    .filter((point) => point.at < deadline)
    .sort((a, b) => a.at - b.at || a.id.localeCompare(b.id));
}

/** The `nudged` entry that says point `id` is done (posted, or skipped): `<id>!`. A bare `<id>` is only claimed. */
export function nudgeDoneId(id: string): string {
  return `${id}!`;
}

/**
 * What is due at `now` (points not done yet, at or before `now`: a point claimed by a job that died before
 * posting it is due again, and its post is idempotent by key) and when the next one is (epoch ms, or null
 * when none is left). Of several reminders due at once (a worker was down) only the latest is sent: the
 * others are `skipped` (marked done, never posted), so nobody gets a burst of reminders.
 */
export function dueFollowUps(
  ask: Pick<AskRecord, 'followUp' | 'shownAt' | 'deadline' | 'nudged'>,
  now: number,
): { send: FollowUpPoint[]; skipped: FollowUpPoint[]; nextAt: number | null } {
  const pending = followUpPoints(ask).filter((point) => !ask.nudged.includes(nudgeDoneId(point.id)));
  const due = pending.filter((point) => point.at <= now);
  const lastReminder = due.filter((point) => point.kind === 'reminder').at(-1);
  const send = due.filter((point) => point.kind === 'escalation' || point === lastReminder);
  const skipped = due.filter((point) => !send.includes(point));
  const next = pending.find((point) => point.at > now);
  return { send, skipped, nextAt: next?.at ?? null };
}

/** Whether the ask has escalated by `now` (its escalation targets may answer). */
export function isEscalated(ask: Pick<AskRecord, 'followUp' | 'shownAt'>, now: number): boolean {
  const escalation = followUpOf(ask).escalation;
  return escalation !== null && ask.shownAt !== null && now >= ask.shownAt + escalation.afterMs;
}

/** The escalation targets (empty without an escalation). */
export function escalationTargets(ask: Pick<AskRecord, 'followUp'>): PeopleRef {
  const escalation = followUpOf(ask).escalation;
  return { userIds: escalation?.userIds ?? [], groupIds: escalation?.groupIds ?? [] };
}

/**
 * The people and groups an ask names as answerers at `now`: the answerer list's, then the delegates, then
 * the escalation targets once escalated (no repeats; the requester of a `requester` ask is not included).
 * Without `now` the escalation is left out. Pure.
 */
export function namedAnswerers(
  ask: Pick<AskRecord, 'answerers'> & Partial<Pick<AskRecord, 'delegates' | 'followUp' | 'shownAt'>>,
  now?: number,
): PeopleRef {
  const policy = ask.answerers;
  const users = policy.mode === 'list' ? [...policy.userIds] : [];
  const groups = policy.mode === 'list' ? [...policy.groupIds] : [];
  users.push(...(ask.delegates ?? []));
  if (now !== undefined && isEscalated({ followUp: ask.followUp, shownAt: ask.shownAt ?? null }, now)) {
    const targets = escalationTargets(ask);
    users.push(...targets.userIds);
    groups.push(...targets.groupIds);
  }
  return { userIds: [...new Set(users)], groupIds: [...new Set(groups)] };
}

/**
 * Who the ask is waiting on at `now`: the named answerers (listed people, the requester under `requester`,
 * delegates, and the escalation targets once escalated) who have neither answered nor voted; the user
 * groups as groups. Empty under `anyone` with no delegates (nobody in particular).
 */
export function waitingOn(
  ask: Pick<
    AskRecord,
    'answerers' | 'requestedBy' | 'delegates' | 'followUp' | 'shownAt' | 'resolutions' | 'votes'
  >,
  now: number,
): PeopleRef {
  const named = namedAnswerers(ask, now);
  const requester = ask.answerers.mode === 'requester' && ask.requestedBy ? [ask.requestedBy] : [];
  const users = [...requester, ...named.userIds];
  const groups = named.groupIds;
  const answered = new Set<string>();
  for (const resolution of ask.resolutions) if (resolution?.answeredBy) answered.add(resolution.answeredBy);
  for (const votes of ask.votes) for (const user of Object.keys(votes)) answered.add(user);
  return {
    userIds: [...new Set(users)].filter((user) => !answered.has(user)),
    groupIds: [...new Set(groups)],
  };
}

/** The latest the deadline may move to (epoch ms): shown + `maxDeadlineMs`, never before the deadline. */
export function latestDeadline(ask: Pick<AskRecord, 'followUp' | 'shownAt' | 'deadline'>): number {
  const deadline = ask.deadline ?? 0;
  if (ask.shownAt === null) return deadline;
  return Math.max(deadline, ask.shownAt + followUpOf(ask).maxDeadlineMs);
}

/** The snooze choices that still move the deadline (ms each, with their index in the configured list). */
export function extendChoices(
  ask: Pick<AskRecord, 'followUp' | 'shownAt' | 'deadline' | 'status'>,
): Array<{ index: number; ms: number }> {
  if (ask.status !== 'open' || ask.deadline === null) return [];
  const room = latestDeadline(ask) - ask.deadline;
  // Only what fits whole before the latest deadline: "+1 h" never moves it by less.
  return followUpOf(ask)
    .extendByMs.map((ms, index) => ({ index, ms }))
    .filter((choice) => choice.ms <= room);
}

/**
 * The questions whose assumed answer may still be changed at `now` (ask resolved by assumption less than
 * `overrideWindowMs` ago, not changed yet).
 */
export function overridableQuestions(
  ask: Pick<AskRecord, 'followUp' | 'status' | 'resolvedAt' | 'resolutions' | 'overrides'>,
  now: number,
): number[] {
  // A question that needed several people to agree is not changed by one person afterwards.
  const windowMs = followUpOf(ask).quorum > 1 ? 0 : followUpOf(ask).overrideWindowMs;
  if (ask.status !== 'resolved' || ask.resolvedAt === null || now > ask.resolvedAt + windowMs) return [];
  return ask.resolutions.flatMap((resolution, index) =>
    resolution?.status === 'assumed' && !ask.overrides[index] ? [index] : [],
  );
}

/** The quorum of the ask's questions (1: the first answer decides). */
export function quorumOf(ask: Pick<AskRecord, 'followUp'>): number {
  return followUpOf(ask).quorum;
}
