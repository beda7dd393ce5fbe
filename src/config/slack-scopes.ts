/**
 * The Slack app configuration holdpoint needs, in one place: `manifest.yml` must grant exactly these
 * bot scopes and subscribe to these bot events (a unit test compares them), and `holdpoint doctor`
 * compares {@link REQUIRED_BOT_SCOPES} with the `x-oauth-scopes` header of `auth.test`.
 * Scope and event names: https://api.slack.com/scopes and https://api.slack.com/events.
 */

/** One bot scope and why holdpoint needs it (shown by `holdpoint doctor` when it is missing). */
export interface SlackScope {
  scope: string;
  why: string;
}

/** Every bot token scope holdpoint uses, with the reason (and nothing it does not use). */
export const SLACK_BOT_SCOPES: readonly SlackScope[] = [
  {
    scope: 'app_mentions:read',
    why: 'receive app_mention events that start a turn or answer an open free-text question',
  },
  {
    scope: 'assistant:write',
    why: 'show "is thinking…" in DM assistant threads (assistant.threads.setStatus)',
  },
  {
    scope: 'chat:write',
    why: 'post asks and replies in threads, update ask messages, send ephemeral notices (chat.postEphemeral)',
  },
  { scope: 'channels:history', why: 'read thread replies and history in public channels (message.channels)' },
  { scope: 'groups:history', why: 'read thread replies and history in private channels (message.groups)' },
  { scope: 'im:history', why: 'receive and read direct messages (message.im)' },
  { scope: 'mpim:history', why: 'read thread replies and history in group DMs (message.mpim)' },
  {
    scope: 'im:write',
    why: 'open a DM for an ask API request whose target is a person (conversations.open)',
  },
  { scope: 'reactions:write', why: 'show that a turn is working with a reaction on the message' },
  {
    scope: 'users:read',
    why: "show the model people's display names in the thread history (users.info, cached in Redis)",
  },
  {
    scope: 'usergroups:read',
    why: 'check user-group membership for ASK_ANSWERERS lists (usergroups.users.list)',
  },
  { scope: 'commands', why: 'answer the /holdpoint slash command (/holdpoint asks)' },
];

/** Bot scope names, in manifest order. */
export const REQUIRED_BOT_SCOPES: readonly string[] = SLACK_BOT_SCOPES.map((entry) => entry.scope);

/**
 * Bot events holdpoint subscribes to: mentions, DMs, and messages in channels, private channels and group
 * DMs (thread replies that continue a conversation or answer a free-text question), and the Home tab being
 * opened (`app_home_opened`, which needs no scope: holdpoint publishes the person's inbox there), and the
 * app being uninstalled or its token revoked (`app_uninstalled`, `tokens_revoked`, no scope: in OAuth install
 * mode the workspace's installation is deleted and its open asks are canceled).
 */
export const REQUIRED_BOT_EVENTS: readonly string[] = [
  'app_home_opened',
  'app_mention',
  'message.im',
  'message.channels',
  'message.groups',
  'message.mpim',
  'app_uninstalled',
  'tokens_revoked',
];

/**
 * Scopes in {@link REQUIRED_BOT_SCOPES} missing from a granted list, e.g. the comma-separated
 * `x-oauth-scopes` response header of `auth.test` (whitespace ignored).
 */
export function missingBotScopes(granted: string | readonly string[]): SlackScope[] {
  const list = typeof granted === 'string' ? granted.split(',') : granted;
  const have = new Set(list.map((scope) => scope.trim()).filter((scope) => scope !== ''));
  return SLACK_BOT_SCOPES.filter((entry) => !have.has(entry.scope));
}
