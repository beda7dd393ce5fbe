import { StateError } from '../errors.js';

/** Default key prefix of every key the store writes. */
export const DEFAULT_KEY_PREFIX = 'hp';

/** Separator between turn id and ask id in the members of the global ask index. */
const INDEX_MEMBER_SEPARATOR = '|';

/** A reference to one ask, as kept in the global ask index. */
export interface AskRef {
  turnId: string;
  askId: string;
}

/**
 * Builds every Redis key holdpoint's store uses: the only place keys are built (BullMQ `queue-keys.ts` style).
 *
 * Layout (`p` = prefix, default `hp`):
 * - `p:{t:<turnId>}:turn`: hash `rev`, `head` (TurnRecord JSON without messages), `ccount`, `mcount` and
 *   message chunks `c0`, `c1`, … (one per commit's new messages, deflated from 1,024 bytes (UTF-8) on); `data`
 *   (the whole record) before that.
 * - `p:{t:<turnId>}:ask:<askId>`: hash of one ask (see `redis-turn-store.ts`).
 * - `p:asks`: zset of live asks (open, or resolved and not yet consumed by their turn), member
 *   `<turnId>|<askId>`, score bands in `ask-index.ts`.
 * - `p:due`: zset of pending timers (an ask's timeout, its next reminder), member `<kind>:<turnId>|<askId>`,
 *   score when it is due (epoch ms); swept in batches by the timer lane (`redis-due-timers.ts`).
 * - `p:event:<eventId>`: event de-duplication marker.
 * - `p:{th:<threadKey>}:holder`: string, the turn id holding the thread.
 * - `p:{th:<threadKey>}:inbox`: list of JSON items waiting for the thread.
 * - `p:slack:post:<postKey>`: Slack post mark (`pending` or the posted `ts`), for posting exactly once.
 * - `p:slack:thread:<threadKey>`: marks a Slack thread the bot takes part in.
 * - `p:slack:reply:<channel>:<ts>`: hash of a thread reply offered as an answer, until its author decides.
 * - `p:{slack-users}:user:<userId>`: a person's display name from `users.info` (with a TTL); one hash tag
 *   for all of them, so that one MGET reads a thread's names in a Redis Cluster too.
 * - `p:slack:home:viewers`: zset of people who opened the Home tab recently (member user id, score epoch ms).
 * - `p:slack:home:lock:<userId>` / `p:slack:home:dirty:<userId>`: publishing one person's Home view.
 * - `p:{slack-installs}:install:<installationId>`: hash of one workspace's OAuth installation (`data`: the
 *   sealed installation JSON, `kid`: the id of the key that sealed it); `p:{slack-installs}:installs`: set of
 *   installation ids (one hash tag, so an install and the set change in one MULTI on a Redis Cluster too).
 *
 * The `{t:<turnId>}` and `{th:<threadKey>}` hash tags put every key one Lua script touches into one
 * Redis Cluster slot. The global ask index is only touched by single-key commands outside the scripts.
 */
export class StoreKeys {
  readonly prefix: string;

  /** @param prefix Key prefix, default {@link DEFAULT_KEY_PREFIX}. Must be non-empty. */
  constructor(prefix: string = DEFAULT_KEY_PREFIX) {
    if (prefix.length === 0)
      throw new StateError('state_invalid_prefix', 'The store key prefix must not be empty');
    this.prefix = prefix;
  }

  /** Hash of one turn: `<p>:{t:<turnId>}:turn`. */
  turn(turnId: string): string {
    return `${this.prefix}:{t:${turnId}}:turn`;
  }

  /** Hash of one ask of a turn: `<p>:{t:<turnId>}:ask:<askId>` (same slot as the turn). */
  ask(turnId: string, askId: string): string {
    return `${this.prefix}:{t:${turnId}}:ask:${askId}`;
  }

  /** Zset of live asks: `<p>:asks` (score bands in `ask-index.ts`). */
  askIndex(): string {
    return `${this.prefix}:asks`;
  }

  /** Zset of pending timers: `<p>:due`, member `<kind>:<turnId>|<askId>`, score due epoch ms (`redis-due-timers.ts`). */
  dueTimers(): string {
    return `${this.prefix}:due`;
  }

  /** Event de-duplication key: `<p>:event:<eventId>`. */
  event(eventId: string): string {
    return `${this.prefix}:event:${eventId}`;
  }

  /** The turn id holding a thread: `<p>:{th:<threadKey>}:holder`. */
  threadHolder(threadKey: string): string {
    return `${this.prefix}:{th:${threadKey}}:holder`;
  }

  /** The lease of the one process advancing a turn: `<p>:{t:<turnId>}:lease` (string token, with a TTL). */
  turnLease(turnId: string): string {
    return `${this.prefix}:{t:${turnId}}:lease`;
  }

  /** Slack post mark for an idempotency key (e.g. `reply-<turnId>`): `<p>:slack:post:<postKey>`. */
  slackPost(postKey: string): string {
    return `${this.prefix}:slack:post:${postKey}`;
  }

  /** Lock of the one process redrawing an ask's Slack message: `<p>:slack:draw:<askId>` (token, with a TTL). */
  slackDrawLock(askId: string): string {
    return `${this.prefix}:slack:draw:${askId}`;
  }

  /** The ask revision the ask's Slack message last showed: `<p>:slack:drawn:<askId>`. */
  slackDrawn(askId: string): string {
    return `${this.prefix}:slack:drawn:${askId}`;
  }

  /** The ask an ask-API client's `Idempotency-Key` (by digest) created: `<p>:api:idem:<client>:<digest>`. */
  apiIdempotency(client: string, digest: string): string {
    return `${this.prefix}:api:idem:${client}:${digest}`;
  }

  /** Set once an ask's `ask.resolved` webhook was delivered: `<p>:api:delivered:<askId>`. */
  apiDelivered(askId: string): string {
    return `${this.prefix}:api:delivered:${askId}`;
  }

  /** A tool call's run (claim, then outcome), with its turn's hash tag: `<p>:{t:<turnId>}:call:<toolCallId>`. */
  toolCall(turnId: string, toolCallId: string): string {
    return `${this.prefix}:{t:${turnId}}:call:${toolCallId}`;
  }

  /** Requests of an ask-API client in one rate window: `<p>:api:rate:<client>:<window>`. */
  apiRate(client: string, window: number): string {
    return `${this.prefix}:api:rate:${client}:${window}`;
  }

  /** Marks a Slack thread the bot takes part in: `<p>:slack:thread:<threadKey>`. */
  slackThread(threadKey: string): string {
    return `${this.prefix}:slack:thread:${threadKey}`;
  }

  /**
   * A thread reply offered to its author as the answer to an open free-text question, until they decide:
   * `<p>:slack:reply:<channel>:<ts>` (hash `data`, `user`, `decision`; with a TTL).
   */
  slackHeldReply(channel: string, ts: string): string {
    return `${this.prefix}:slack:reply:${channel}:${ts}`;
  }

  /**
   * A person's display name as `users.info` gave it: `<p>:{slack-users}:user:<userId>` (string, with a TTL).
   * Every name shares the `{slack-users}` hash tag: the history reads them with one MGET, which a Redis
   * Cluster refuses across slots (CROSSSLOT).
   */
  slackUserName(userId: string): string {
    return `${this.prefix}:{slack-users}:user:${userId}`;
  }

  /** People who opened the Home tab recently: `<p>:slack:home:viewers` (zset, score = when, epoch ms). */
  homeViewers(): string {
    return `${this.prefix}:slack:home:viewers`;
  }

  /**
   * One workspace's OAuth installation: `<p>:{slack-installs}:install:<installationId>` (hash `data` = the installation
   * sealed by `token-cipher.ts`, `kid` = its key id). Installation ids are `T-<teamId>` or `E-<enterpriseId>`.
   */
  slackInstallation(installationId: string): string {
    return `${this.prefix}:{slack-installs}:install:${installationId}`;
  }

  /** Set of every stored installation id: `<p>:{slack-installs}:installs` (re-encryption at start-up walks it). */
  slackInstallations(): string {
    return `${this.prefix}:{slack-installs}:installs`;
  }

  /** Lock of the one process publishing a person's Home view: `<p>:slack:home:lock:<userId>` (token, TTL). */
  homeLock(userId: string): string {
    return `${this.prefix}:slack:home:lock:${userId}`;
  }

  /** Set when a person's Home view needs publishing again: `<p>:slack:home:dirty:<userId>` (with a TTL). */
  homeDirty(userId: string): string {
    return `${this.prefix}:slack:home:dirty:${userId}`;
  }

  /** Turns waiting for a thread (FIFO list of JSON items): `<p>:{th:<threadKey>}:inbox`. */
  threadInbox(threadKey: string): string {
    return `${this.prefix}:{th:${threadKey}}:inbox`;
  }
}

/**
 * The member of an ask in the global indexes: `<turnId>|<askId>`.
 * @throws StateError `state_invalid_id` when the turn id contains `|` (the member could not be split back).
 */
export function askIndexMember(turnId: string, askId: string): string {
  if (turnId.includes(INDEX_MEMBER_SEPARATOR)) {
    throw new StateError(
      'state_invalid_id',
      `A turn id must not contain "${INDEX_MEMBER_SEPARATOR}": ${turnId}`,
      {
        fields: { turnId },
      },
    );
  }
  return `${turnId}${INDEX_MEMBER_SEPARATOR}${askId}`;
}

/** Splits an index member back into its turn and ask ids (at the first `|`); null when malformed. */
export function parseAskIndexMember(member: string): AskRef | null {
  const at = member.indexOf(INDEX_MEMBER_SEPARATOR);
  if (at <= 0 || at === member.length - 1) return null;
  return { turnId: member.slice(0, at), askId: member.slice(at + 1) };
}
