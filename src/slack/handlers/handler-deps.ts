import type { WebClient } from '@slack/web-api';
import type { EngineDeps } from '../../agent/engine-deps.js';
import type { ThreadFollow } from '../../config/types.js';
import type { HomeTab } from '../home-tab.js';
import type { SlackMarks } from '../slack-marks.js';

/**
 * What the Bolt listeners need. `store` here should be built on the request-path Redis client
 * (bounded retries and a command timeout), so a Redis outage turns into a quick "try again" for the
 * person instead of a hung request.
 */
export interface SlackHandlerDeps {
  engine: Pick<EngineDeps, 'store' | 'scheduler' | 'asks' | 'log' | 'now' | 'newId'>;
  marks: SlackMarks;
  /** The bot's own user id (`U…`). */
  botUserId: string;
  /**
   * Which replies in a channel thread the bot takes part in start a turn: `mention` (the default) only
   * those that mention the bot, `all` every one (`THREAD_FOLLOW`).
   */
  threadFollow?: ThreadFollow;
  /** How long the bot remembers a thread it takes part in, in ms (default 30 days). */
  threadMemoryMs?: number;
  /** Event ids are remembered this long for de-duplication, in ms (default 1 hour: Slack retries within minutes). */
  eventDedupeMs?: number;
  /** Members of a user group, for answerer lists that name groups (cached by the caller if needed). */
  groupMembers(client: WebClient, groupId: string): Promise<string[]>;
  /** The inbox and Home tab (`app_home_opened`, `/holdpoint asks`); absent: neither is served. */
  homes?: HomeTab;
  /**
   * OAuth install mode: conversations name their workspace (see `ConversationRef.workspace`), and a click,
   * modal or reply is accepted only from the workspace of the ask it names. Default false (one workspace).
   */
  scopeByTeam?: boolean;
  /**
   * OAuth install mode: a workspace uninstalled holdpoint (`app_uninstalled`) or revoked its bot token
   * (`tokens_revoked`): delete its installation and stop its work. Absent in single-workspace mode.
   */
  uninstalled?: (team: UninstalledTeam) => Promise<void>;
}

/** The workspace an `app_uninstalled` or `tokens_revoked` event is about (its envelope). */
export interface UninstalledTeam {
  teamId: string | undefined;
  enterpriseId: string | undefined;
  isEnterpriseInstall: boolean;
  /** Which event said so. */
  reason: 'app_uninstalled' | 'tokens_revoked';
}
