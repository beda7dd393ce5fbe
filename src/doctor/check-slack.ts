import {
  LogLevel,
  WebAPIHTTPError,
  WebAPIPlatformError,
  WebAPIRateLimitedError,
  WebAPIRequestError,
} from '@slack/web-api';
import { missingBotScopes, REQUIRED_BOT_SCOPES } from '../config/slack-scopes.js';
import type { SlackConfig } from '../config/types.js';
import { ConfigError } from '../errors.js';
import { openSocketConnection } from '../slack/socket-preflight.js';
import { createWebClient } from '../slack/web-client.js';
import type { DoctorCheck } from './doctor-check.js';

/** Options of {@link checkSlack}. */
export interface SlackDoctorOptions {
  /** Abort `auth.test` after this many ms. Default 10 000. */
  timeoutMs?: number;
}

const TOKEN_FIX =
  'Set SLACK_BOT_TOKEN to the Bot User OAuth Token (xoxb-…) from your app\'s "OAuth & Permissions" page; after changing scopes, reinstall the app to the workspace to get a new token.';

/**
 * In OAuth install mode there is no one bot token: one line says so. Otherwise it calls Slack `auth.test` with the bot token (no retries) and checks the bot scopes it reports
 * (`x-oauth-scopes`, which @slack/web-api 8 puts in `response_metadata.scopes`): two lines,
 * `Slack auth.test` (team and bot user) and `Slack bot scopes` ({@link slackScopesCheck}); only the first
 * when the call fails.
 */
export async function checkSlack(
  slack: SlackConfig,
  options: SlackDoctorOptions = {},
): Promise<DoctorCheck[]> {
  if (slack.oauth) {
    // Each workspace's token comes with its install (scopes from manifest.yml, asked for by /slack/install).
    return [
      {
        name: 'Slack auth.test',
        ok: true,
        detail:
          'OAuth install mode: one bot token per installed workspace (sealed in Redis); none to check here. Workspaces install from /slack/install.',
      },
    ];
  }
  const client = createWebClient(slack.botToken, slack.apiUrl ?? undefined, {
    retryConfig: { retries: 0 },
    rejectRateLimitedCalls: true,
    timeout: options.timeoutMs ?? 10_000,
    logLevel: LogLevel.ERROR,
  });
  const where = slack.apiUrl ?? 'https://slack.com/api/';
  const socket = slack.mode === 'socket' ? [await appTokenCheck(slack.appToken, slack.apiUrl, options)] : [];
  try {
    const response = await client.auth.test();
    const team = response.team ?? '(unknown team)';
    const user = response.user ?? '(unknown user)';
    return [
      {
        name: 'Slack auth.test',
        ok: true,
        detail: `team "${team}" (${response.team_id ?? '?'}), bot user @${user} (${response.user_id ?? '?'})`,
      },
      slackScopesCheck(response.response_metadata?.scopes),
      ...socket,
    ];
  } catch (error) {
    return [slackFailure(error, where), ...socket];
  }
}

/**
 * The `Slack app token` line of Socket Mode: `apps.connections.open` with `SLACK_APP_TOKEN` (what the start
 * does first; no retries). The URL Slack offers is not used.
 */
async function appTokenCheck(
  appToken: string,
  apiUrl: string | null,
  options: SlackDoctorOptions,
): Promise<DoctorCheck> {
  try {
    await openSocketConnection(appToken, apiUrl ?? undefined, {
      retries: 0,
      timeoutMs: options.timeoutMs ?? 10_000,
    });
    return {
      name: 'Slack app token',
      ok: true,
      detail: 'apps.connections.open offered a Socket Mode connection',
    };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return {
      name: 'Slack app token',
      ok: false,
      detail: message.split('. ')[0] ?? message,
      fix:
        error instanceof ConfigError
          ? "Create an app-level token with the connections:write scope on your app's Basic Information page (xapp-…), set it as SLACK_APP_TOKEN, or unset SLACK_APP_TOKEN to use HTTP mode."
          : 'Check the network, a proxy, or SLACK_API_URL.',
    };
  }
}

/**
 * The `Slack bot scopes` line: the granted scopes (from `x-oauth-scopes`) against the ones `manifest.yml`
 * requests ({@link REQUIRED_BOT_SCOPES}). `undefined` (Slack sent no header) is a warning, not a failure.
 */
export function slackScopesCheck(granted: readonly string[] | undefined): DoctorCheck {
  if (granted === undefined) {
    return {
      name: 'Slack bot scopes',
      ok: true,
      warning: true,
      detail: 'not reported (auth.test sent no x-oauth-scopes header), so they could not be checked',
      fix: `Make sure the app has these bot scopes (manifest.yml requests them): ${REQUIRED_BOT_SCOPES.join(', ')}.`,
    };
  }
  const missing = missingBotScopes(granted);
  if (missing.length === 0) {
    return {
      name: 'Slack bot scopes',
      ok: true,
      detail: `all ${REQUIRED_BOT_SCOPES.length} scopes manifest.yml requests are granted`,
    };
  }
  return {
    name: 'Slack bot scopes',
    ok: false,
    detail: `missing ${missing.map((entry) => entry.scope).join(', ')}`,
    fix: [
      'Add the missing bot token scopes (or re-create the app from manifest.yml), reinstall the app to the workspace and update SLACK_BOT_TOKEN:',
      ...missing.map((entry) => `- ${entry.scope}: ${entry.why}`),
    ].join('\n'),
  };
}

function slackFailure(error: unknown, where: string): DoctorCheck {
  const name = 'Slack auth.test';
  if (error instanceof WebAPIPlatformError) {
    const code = error.data.error;
    const tokenProblem = ['invalid_auth', 'not_authed', 'token_revoked', 'token_expired', 'account_inactive'];
    return {
      name,
      ok: false,
      detail: `Slack answered ${code}`,
      fix: tokenProblem.includes(code)
        ? TOKEN_FIX
        : `See https://api.slack.com/methods/auth.test for "${code}".`,
    };
  }
  if (error instanceof WebAPIHTTPError) {
    return {
      name,
      ok: false,
      detail: `HTTP ${error.statusCode} ${error.statusMessage} from ${where}`,
      fix: 'Check SLACK_API_URL (unset it to use https://slack.com/api/) and any proxy in between.',
    };
  }
  if (error instanceof WebAPIRateLimitedError) {
    return {
      name,
      ok: false,
      detail: `rate limited by Slack (retry after ${error.retryAfter} s)`,
      fix: 'Run holdpoint doctor again in a minute.',
    };
  }
  if (error instanceof WebAPIRequestError) {
    return {
      name,
      ok: false,
      detail: `cannot reach ${where}: ${oneLine(error.original.message)}`,
      fix: 'Check the network (DNS, proxy, firewall) and SLACK_API_URL (unset it to use https://slack.com/api/).',
    };
  }
  return {
    name,
    ok: false,
    detail: `failed: ${oneLine(error instanceof Error ? error.message : String(error))}`,
    fix: 'Check SLACK_BOT_TOKEN and SLACK_API_URL.',
  };
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ');
}
