import { WebClient, type WebClientOptions } from '@slack/web-api';
import type { ConversationRef } from '../asks/conversation.js';
import { SystemError } from '../errors.js';
import { slackErrorCode } from './slack-error-code.js';
import { slackClientOptions } from './web-client.js';

/** The workspace a Slack call is for: a conversation's team (and enterprise), as events name them. */
export interface SlackTeam {
  teamId?: string | undefined;
  enterpriseId?: string | undefined;
}

/**
 * The Web API clients of the workspaces holdpoint serves. Single-workspace mode: one client for everything.
 * OAuth install mode: the client of a team's installation (its bot token), looked up in the installation
 * store.
 */
export interface SlackClients {
  /** Whether clients depend on the team (OAuth install mode). */
  readonly perTeam: boolean;
  /**
   * The client for `team`'s workspace.
   * @throws SystemError `slack_not_installed` when the workspace has no installation (uninstalled, revoked).
   */
  forTeam(team: SlackTeam): Promise<WebClient>;
  /**
   * The bot user id of `team`'s installation (`U…`), to tell the bot's own mentions and messages apart;
   * `fallback` when the clients have no per-team bot (single-workspace mode: the id `auth.test` gave).
   * @throws SystemError `slack_not_installed` like {@link SlackClients.forTeam}.
   */
  botUserIdOf(team: SlackTeam, fallback: string): Promise<string>;
  /** Forgets what is cached for `team` (after an uninstall, or a token Slack refused). */
  forget(team: SlackTeam): void;
}

/** The client for a conversation's workspace (its `teamId`). */
export function clientFor(clients: SlackClients, conversation: ConversationRef): Promise<WebClient> {
  return clients.forTeam({ teamId: conversation.teamId });
}

/** Whether `error` says the workspace has no installation (see {@link SlackClients.forTeam}). */
export function isNotInstalled(error: unknown): boolean {
  return error instanceof SystemError && error.code === 'slack_not_installed';
}

/** Single-workspace mode: `client` (the `SLACK_BOT_TOKEN` client) for every team. */
export function singleSlackClient(client: WebClient): SlackClients {
  return {
    perTeam: false,
    forTeam: async () => client,
    botUserIdOf: async (_team, fallback) => fallback,
    forget: () => {},
  };
}

/** Slack error codes that mean the token no longer works: the cached client is dropped. */
const REFUSED_TOKEN_CODES = new Set(['invalid_auth', 'token_revoked', 'account_inactive', 'not_authed']);

/** Options of {@link installedSlackClients}. */
export interface InstalledSlackClientsOptions {
  /** The bot token and bot user id of the installation serving `team`, or null when it is not installed. */
  bot(team: SlackTeam): Promise<{ token: string; userId: string } | null>;
  apiUrl: string | undefined;
  /** Client options (the logger) for every team's client. */
  clientOptions?: WebClientOptions;
  /** How long a team's client is reused before its token is read again, in ms (default 30 s). */
  ttlMs?: number;
  now?: () => number;
}

/**
 * OAuth install mode: a team's client carries its installation's bot token, read from the store and kept
 * for `ttlMs` (so each Slack call is not a Redis read plus a decryption). A call Slack answers with
 * `invalid_auth` or `token_revoked` drops the cached client, so the next call reads the token again
 * (a re-install's new token, or no installation: `slack_not_installed`).
 */
export function installedSlackClients(options: InstalledSlackClientsOptions): SlackClients {
  const ttlMs = options.ttlMs ?? 30_000;
  const now = options.now ?? Date.now;
  const cache = new Map<string, { client: WebClient; botUserId: string; until: number }>();
  const keyOf = (team: SlackTeam) => `${team.enterpriseId ?? ''}/${team.teamId ?? ''}`;
  const forget = (team: SlackTeam) => {
    cache.delete(keyOf(team));
  };
  const entryOf = async (team: SlackTeam) => {
    const key = keyOf(team);
    const cached = cache.get(key);
    if (cached && cached.until > now()) return cached;
    const bot = await options.bot(team);
    if (bot === null) {
      cache.delete(key);
      throw new SystemError(
        'slack_not_installed',
        `holdpoint is not installed in the Slack workspace ${team.teamId ?? team.enterpriseId ?? '(unknown)'}`,
        { fields: { teamId: team.teamId ?? null, enterpriseId: team.enterpriseId ?? null } },
      );
    }
    const client = new TeamWebClient(
      bot.token,
      slackClientOptions(options.apiUrl, {
        ...options.clientOptions,
        ...(team.teamId ? { teamId: team.teamId } : {}),
      }),
      () => forget(team),
    );
    const entry = { client, botUserId: bot.userId, until: now() + ttlMs };
    cache.set(key, entry);
    return entry;
  };
  return {
    perTeam: true,
    forget,
    forTeam: async (team) => (await entryOf(team)).client,
    botUserIdOf: async (team) => (await entryOf(team)).botUserId,
  };
}

/** A WebClient that reports a refused token (see {@link REFUSED_TOKEN_CODES}) once per failed call. */
class TeamWebClient extends WebClient {
  readonly #onRefused: () => void;

  constructor(token: string, clientOptions: WebClientOptions, onRefused: () => void) {
    super(token, clientOptions);
    this.#onRefused = onRefused;
  }

  override async apiCall(...args: Parameters<WebClient['apiCall']>): ReturnType<WebClient['apiCall']> {
    try {
      return await super.apiCall(...args);
    } catch (error) {
      const code = slackErrorCode(error);
      if (code !== null && REFUSED_TOKEN_CODES.has(code)) this.#onRefused();
      throw error;
    }
  }
}
