import { LogLevel, WebClient } from '@slack/web-api';
import { ConfigError, SystemError } from '../errors.js';
import { slackClientOptions } from './web-client.js';

/**
 * What Slack answers to `apps.connections.open` for a token that is not an app-level token with
 * `connections:write`, or one it does not know (Slack Web API docs of that method, and @slack/socket-mode's
 * `UnrecoverableSocketModeStartError`). Any of them will never connect: the start stops with a fix.
 */
const REFUSALS = new Set([
  'not_authed',
  'invalid_auth',
  'account_inactive',
  'user_removed_from_team',
  'team_disabled',
  'not_allowed_token_type',
  'missing_scope',
  'token_revoked',
  'token_expired',
]);

/**
 * Asks Slack for a Socket Mode URL with the app-level token (`apps.connections.open`, what the Socket Mode
 * client does first), with the Web API's usual bounded retries for network errors and 5xx, so a start never
 * loops on a token Slack refuses or an API it cannot reach.
 * @param apiUrl `SLACK_API_URL` (ending in `/api/`), or undefined for Slack's.
 * @returns the WebSocket URL Slack offered (single use; the Socket Mode client asks for its own).
 * @throws ConfigError `slack_app_token_refused` when Slack refuses the token (the message names the fix);
 *   SystemError `slack_unreachable` when Slack cannot be reached after the retries.
 */
export async function openSocketConnection(
  appToken: string,
  apiUrl: string | undefined,
  options: { retries?: number; timeoutMs?: number } = {},
): Promise<string> {
  const client = new WebClient(
    appToken,
    slackClientOptions(apiUrl, {
      logLevel: LogLevel.ERROR,
      timeout: options.timeoutMs ?? 10_000,
      ...(options.retries !== undefined ? { retryConfig: { retries: options.retries } } : {}),
    }),
  );
  const where = apiUrl ?? 'https://slack.com/api/';
  try {
    const response = await client.apps.connections.open({});
    if (!response.url) throw new Error('apps.connections.open returned no url');
    return response.url;
  } catch (error) {
    const failure = error as { code?: unknown; data?: { error?: unknown }; message?: unknown };
    const code = failure.code === 'slack_webapi_platform_error' ? String(failure.data?.error ?? '') : '';
    if (REFUSALS.has(code))
      throw new ConfigError(
        'slack_app_token_refused',
        `Slack refused SLACK_APP_TOKEN (apps.connections.open: ${code}). Create an app-level token with the connections:write scope on your app's Basic Information page (xapp-…), or unset SLACK_APP_TOKEN to use HTTP mode.`,
        { cause: error },
      );
    const reason = code || String(failure.message ?? error);
    throw new SystemError(
      'slack_unreachable',
      `cannot open a Socket Mode connection through ${where} (apps.connections.open): ${reason}. Check the network, a proxy, or SLACK_API_URL.`,
      { cause: error },
    );
  }
}
