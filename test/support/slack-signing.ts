/**
 * Slack request signing (HTTP mode), exactly as Slack does it: `X-Slack-Signature: v0=<hex>` where hex is
 * HMAC-SHA256(signingSecret, `v0:<timestamp>:<raw body>`), with `X-Slack-Request-Timestamp: <unix seconds>`.
 * Source: bolt-js src/receivers/verify-request.ts; vectors in test/fixtures/slack/signature.test_vectors.json.
 */
import { createHmac } from 'node:crypto';

/** The `X-Slack-Signature` value for `rawBody` sent at `timestampSec` (unix seconds): `v0=<64 hex>`. */
export function signSlackRequest(secret: string, rawBody: string, timestampSec: number): string {
  const hmac = createHmac('sha256', secret).update(`v0:${timestampSec}:${rawBody}`, 'utf8');
  return `v0=${hmac.digest('hex')}`;
}

/** Both signing headers (lower-case names) for `rawBody` sent at `timestampSec` (unix seconds). */
export function slackSignatureHeaders(
  secret: string,
  rawBody: string,
  timestampSec: number,
): Record<string, string> {
  return {
    'x-slack-request-timestamp': String(timestampSec),
    'x-slack-signature': signSlackRequest(secret, rawBody, timestampSec),
  };
}
