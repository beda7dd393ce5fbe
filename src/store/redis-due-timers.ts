import type { Redis } from 'ioredis';
import { type AskRef, askIndexMember, parseAskIndexMember, StoreKeys } from './keys.js';
import { defineStoreScripts, type ScriptCall } from './lua/index.js';

/** What a pending timer does when it is due: resolve the ask by its policy, or send its due follow-ups. */
export type DueTimerKind = 'timeout' | 'nudge';

/** One pending timer of one ask. */
export interface DueTimer extends AskRef {
  kind: DueTimerKind;
}

/** The member prefix of each kind (`t:<turnId>|<askId>`, `n:<turnId>|<askId>`). */
const KIND_PREFIX: Readonly<Record<DueTimerKind, string>> = { timeout: 't:', nudge: 'n:' };

/** The due-set member of a timer: `t:<turnId>|<askId>` or `n:<turnId>|<askId>`. */
export function dueTimerMember(timer: DueTimer): string {
  return `${KIND_PREFIX[timer.kind]}${askIndexMember(timer.turnId, timer.askId)}`;
}

/** Reads a due-set member back; null when it is not one (a foreign or corrupt member). */
export function parseDueTimerMember(member: string): DueTimer | null {
  const kind: DueTimerKind | null = member.startsWith('t:')
    ? 'timeout'
    : member.startsWith('n:')
      ? 'nudge'
      : null;
  if (kind === null) return null;
  const ref = parseAskIndexMember(member.slice(2));
  return ref ? { kind, ...ref } : null;
}

/** Timers claimed by one sweep, with the lease they carry until the sweep releases them. */
export interface DueClaim {
  /** The claimed timers, earliest due first (members that do not parse are dropped, see `malformed`). */
  timers: DueTimer[];
  /** The members as stored, in the same order as `timers`. */
  members: string[];
  /** Members that are not timers; the claim removes them. */
  malformed: number;
  /** Epoch ms the claim lasts until: then an unreleased timer is due again. */
  leaseUntil: number;
}

/**
 * The due set of pending timers (`<p>:due`, one zset): each ask's timeout and next follow-up point, scored
 * by when they are due. The timer lane sweeps it in batches (one Lua call claims many) instead of running a
 * BullMQ job per ask. Only single-key commands and scripts touch it, so it needs no hash tag on a Redis
 * Cluster. About 100 bytes per timer (a zset entry) against about 900 for a delayed job.
 */
export class RedisDueTimers {
  private readonly key: string;
  private readonly claimScript: ScriptCall;
  private readonly releaseScript: ScriptCall;

  constructor(
    private readonly redis: Redis,
    options: { prefix?: string } = {},
  ) {
    this.key = new StoreKeys(options.prefix).dueTimers();
    const scripts = defineStoreScripts(redis);
    this.claimScript = scripts.claimDue;
    this.releaseScript = scripts.releaseDue;
  }

  /** Sets when `timer` is due (epoch ms), replacing an earlier time or a running sweep's lease. */
  async set(timer: DueTimer, dueAt: number): Promise<void> {
    await this.redis.zadd(this.key, Math.round(dueAt), dueTimerMember(timer));
  }

  /** Removes timers (the ask resolved); a timer already claimed by a sweep finds the ask resolved. */
  async remove(...timers: DueTimer[]): Promise<void> {
    if (timers.length === 0) return;
    await this.redis.zrem(this.key, ...timers.map(dueTimerMember));
  }

  /**
   * Claims up to `limit` timers due at `now` (epoch ms) for `leaseMs`, earliest first, in one Lua call.
   * A timer claimed and never released is due again at `now + leaseMs`.
   */
  async claim(now: number, limit: number, leaseMs: number): Promise<DueClaim> {
    const leaseUntil = Math.round(now + leaseMs);
    const reply = (await this.claimScript(this.key, Math.round(now), limit, leaseUntil)) as string[];
    const timers: DueTimer[] = [];
    const members: string[] = [];
    const malformed: string[] = [];
    for (const member of reply) {
      const timer = parseDueTimerMember(member);
      if (timer) {
        timers.push(timer);
        members.push(member);
      } else malformed.push(member);
    }
    if (malformed.length > 0) await this.redis.zrem(this.key, ...malformed);
    return { timers, members, malformed: malformed.length, leaseUntil };
  }

  /** Removes finished members of a claim, each only while it still carries the claim's lease. */
  async release(leaseUntil: number, members: readonly string[]): Promise<number> {
    if (members.length === 0) return 0;
    return Number(await this.releaseScript(this.key, leaseUntil, ...members));
  }

  /** When the earliest pending timer is due (epoch ms), or null when none is pending. */
  async earliest(): Promise<number | null> {
    const [, score] = await this.redis.zrange(this.key, 0, 0, 'WITHSCORES');
    return score === undefined ? null : Number(score);
  }

  /** When `timer` is due (epoch ms), or null when it is not pending. */
  async dueAt(timer: DueTimer): Promise<number | null> {
    const score = await this.redis.zscore(this.key, dueTimerMember(timer));
    return score === null ? null : Number(score);
  }

  /** How many timers are pending. */
  async count(): Promise<number> {
    return this.redis.zcard(this.key);
  }
}
