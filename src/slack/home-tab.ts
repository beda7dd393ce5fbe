import { randomUUID } from 'node:crypto';
import type { WebClient } from '@slack/web-api';
import type { EngineLogger } from '../asks/logger.js';
import type { AskRecord } from '../asks/types.js';
import { type InboxContent, renderHomeView } from './blocks/render-inbox.js';
import { inAllowedGroup, mayAnswer } from './handlers/answerer-check.js';
import type { SlackHandlerDeps } from './handlers/handler-deps.js';

/**
 * How long someone counts as a Home tab viewer after opening it, in ms (24 h): their view is re-published
 * when an ask of theirs changes. Slack shows the last published view until the next `app_home_opened`, when
 * it is published afresh anyway, so a longer memory would only publish views nobody looks at.
 */
export const HOME_VIEWER_TTL_MS = 24 * 3600 * 1000;
/** Most Home tab viewers remembered (the most recent are kept). */
export const HOME_VIEWERS_MAX = 1000;
/**
 * Most open asks one inbox looks at (the latest deadlines first): one `ZREVRANGEBYSCORE` on the ask index
 * and one `HGETALL` per ask, so one inbox costs at most this many reads.
 */
export const INBOX_SCAN_LIMIT = 500;
/** How long one process may hold a person's publish lock, in ms (a `views.publish` with the client's retries). */
export const HOME_PUBLISH_LOCK_MS = 15_000;
/** How long a "publish again" mark lives, in ms (a holder that died leaves it to the next change or open). */
const HOME_DIRTY_MS = 60_000;
/** Rounds of publish-then-look-again one refresh makes at most. */
const MAX_ROUNDS = 4;

/**
 * The Redis facts behind the Home tab (implemented by `RedisHomeMarks` in src/store/): who opened it
 * recently (bounded, with a TTL), and a per-person lock and "publish again" mark so that the last change is
 * always published and an older view never lands after a newer one.
 */
export interface HomeMarks {
  /** Records that `userId` opened the Home tab at `at` (epoch ms); forgets viewers older than `ttlMs` and all but the `max` newest. */
  recordOpened(userId: string, at: number, ttlMs: number, max: number): Promise<void>;
  /** People who opened the Home tab at or after `since` (epoch ms), the most recent first, at most `max`. */
  recentViewers(since: number, max: number): Promise<string[]>;
  /** Marks the person's view as needing a publish (for `ttlMs`). */
  markDirty(userId: string, ttlMs: number): Promise<void>;
  /** Clears the mark; true when it was set. */
  takeDirty(userId: string): Promise<boolean>;
  /** Whether the mark is set. */
  isDirty(userId: string): Promise<boolean>;
  /** Takes the person's publish lock (`SET NX PX`): true when this caller holds it now. */
  claimPublish(userId: string, token: string, ttlMs: number): Promise<boolean>;
  /** Gives the lock back, only while held with `token`. */
  releasePublish(userId: string, token: string): Promise<void>;
}

/** Where the inbox reads asks (the Redis store on the request client). */
export interface InboxReader {
  listShownOpenAsks(limit: number): Promise<Array<{ turnId: string; askId: string }>>;
  getAsk(turnId: string, askId: string): Promise<AskRecord | null>;
}

/** What a {@link HomeTab} needs. */
export interface HomeTabDeps {
  reader: InboxReader;
  marks: HomeMarks;
  groupMembers: SlackHandlerDeps['groupMembers'];
  log: EngineLogger;
  /** Epoch ms. */
  now: () => number;
  /** `auth.test`'s `url` (`https://<team>.slack.com/`), for links to messages; null when unknown. */
  workspaceUrl: string | null;
  /**
   * OAuth install mode: an inbox lists only the asks of the viewer's own workspace (`teamId`), so no
   * workspace's questions reach another's Home tab. Default false (one workspace).
   */
  scopeByTeam?: boolean;
}

/**
 * The inbox of one person and their Home tab: which open asks they may answer and which they started, the
 * Home view published on `app_home_opened`, and published again (for recent viewers the ask concerns)
 * whenever an ask message is redrawn. Every publish renders from a fresh read, so running one twice is
 * harmless; a per-person lock with a look-again makes concurrent changes converge on the newest state.
 */
export class HomeTab {
  readonly #deps: HomeTabDeps;

  constructor(deps: HomeTabDeps) {
    this.#deps = deps;
  }

  /**
   * The person's inbox now: open, shown asks they may answer and open asks they started, newest first.
   * Asks open to `anyone` are listed for the people they name (delegates, escalation targets) only: who can
   * see their channel is not known here, and a Home tab must not show a private channel's question to others.
   */
  async inbox(client: WebClient, userId: string, teamId?: string): Promise<InboxContent> {
    const { reader, log } = this.#deps;
    const now = this.#deps.now();
    const refs = await reader.listShownOpenAsks(INBOX_SCAN_LIMIT);
    const asks = await Promise.all(
      refs.map(async (ref) => {
        try {
          return await reader.getAsk(ref.turnId, ref.askId);
        } catch (error) {
          log.warn({ askId: ref.askId, err: error }, 'inbox: an ask could not be read; left out');
          return null;
        }
      }),
    );
    const toAnswer: AskRecord[] = [];
    const started: AskRecord[] = [];
    for (const ask of asks) {
      if (ask?.status !== 'open' || ask.shownAt === null) continue;
      if (this.#deps.scopeByTeam && ask.conversation.teamId !== teamId) continue;
      if (ask.requestedBy === userId) started.push(ask);
      if (await this.mayAnswerHere(client, ask, userId, now)) toAnswer.push(ask);
    }
    const newestFirst = (a: AskRecord, b: AskRecord) =>
      (b.shownAt ?? 0) - (a.shownAt ?? 0) || b.askId.localeCompare(a.askId);
    return {
      toAnswer: toAnswer.sort(newestFirst),
      started: started.sort(newestFirst),
      now,
      workspaceUrl: this.#deps.workspaceUrl,
    };
  }

  /** The person opened the Home tab: remember them as a viewer and publish their view. Never throws. */
  async opened(client: WebClient, userId: string, teamId?: string): Promise<void> {
    try {
      await this.#deps.marks.recordOpened(userId, this.#deps.now(), HOME_VIEWER_TTL_MS, HOME_VIEWERS_MAX);
    } catch (error) {
      this.#deps.log.warn({ userId, err: error }, 'could not record the Home tab viewer');
    }
    await this.refresh(client, userId, teamId);
  }

  /**
   * An ask changed (its message was redrawn, or it was shown): publish the Home view of each recent viewer
   * it concerns (its requester, and whoever may answer it). Never throws.
   */
  async askChanged(client: WebClient, ask: AskRecord): Promise<void> {
    try {
      const now = this.#deps.now();
      const viewers = await this.#deps.marks.recentViewers(now - HOME_VIEWER_TTL_MS, HOME_VIEWERS_MAX);
      const concerned: string[] = [];
      for (const viewer of viewers)
        if (viewer === ask.requestedBy || (await this.mayAnswerHere(client, ask, viewer, now)))
          concerned.push(viewer);
      await Promise.all(concerned.map((viewer) => this.refresh(client, viewer, ask.conversation.teamId)));
    } catch (error) {
      this.#deps.log.warn({ askId: ask.askId, err: error }, 'could not refresh Home tabs after a change');
    }
  }

  /**
   * Publishes the person's Home view from a fresh read. When another process is publishing it, that one
   * publishes again after its own round (the "publish again" mark), so the newest state always lands.
   * Never throws (a refused publish is logged).
   */
  async refresh(client: WebClient, userId: string, teamId?: string): Promise<void> {
    const { marks, log } = this.#deps;
    try {
      await marks.markDirty(userId, HOME_DIRTY_MS);
      for (let round = 0; round < MAX_ROUNDS; round++) {
        const token = randomUUID();
        if (!(await marks.claimPublish(userId, token, HOME_PUBLISH_LOCK_MS))) return;
        try {
          await marks.takeDirty(userId);
          const view = renderHomeView(await this.inbox(client, userId, teamId));
          await client.views.publish({ user_id: userId, view });
        } finally {
          await marks.releasePublish(userId, token);
        }
        if (!(await marks.isDirty(userId))) return;
      }
    } catch (error) {
      log.warn({ userId, err: error }, 'could not publish the Home tab');
    }
  }

  /** Whether the inbox lists `ask` for `userId` as theirs to answer (see {@link inbox}). */
  async mayAnswerHere(client: WebClient, ask: AskRecord, userId: string, now: number): Promise<boolean> {
    const deps = { groupMembers: this.#deps.groupMembers };
    try {
      if (ask.answerers.mode === 'anyone')
        return ask.delegates.includes(userId) || (await inAllowedGroup(deps, client, ask, userId, now));
      return await mayAnswer(deps, client, ask, userId, now);
    } catch (error) {
      this.#deps.log.warn({ askId: ask.askId, err: error }, 'inbox: could not check a user group');
      return false;
    }
  }
}
