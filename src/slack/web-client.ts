import { WebClient, type WebClientOptions } from '@slack/web-api';

/**
 * Retries of Slack Web API calls: network errors and 5xx are retried 3 times with exponential backoff
 * (0.5 s, 1 s, 2 s, capped at 5 s); HTTP 429 waits the `Retry-After` Slack sends, then retries within the
 * same budget (@slack/web-api behaviour). Platform errors (`ok: false`) are not retried.
 */
export const SLACK_RETRY_CONFIG = {
  retries: 3,
  factor: 2,
  minTimeout: 500,
  maxTimeout: 5000,
  randomize: true,
} as const;

/** Options shared by Bolt's clients and our own, so both hit the same API base with the same retries. */
export function slackClientOptions(
  apiUrl: string | undefined,
  extra: WebClientOptions = {},
): WebClientOptions {
  return {
    ...(apiUrl ? { slackApiUrl: apiUrl } : {}),
    retryConfig: { ...SLACK_RETRY_CONFIG },
    timeout: 10_000,
    ...extra,
  };
}

/** A Web API client for the bot token. */
export function createWebClient(
  token: string,
  apiUrl: string | undefined,
  extra: WebClientOptions = {},
): WebClient {
  return new WebClient(token, slackClientOptions(apiUrl, extra));
}
