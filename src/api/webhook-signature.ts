import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The `X-Holdpoint-Signature` of a webhook: `v1=<hex HMAC-SHA256 of "<timestamp>.<body>" with the
 * secret>`, `timestamp` in unix seconds (sent as `X-Holdpoint-Timestamp`). Pure.
 */
export function signWebhook(secret: string, timestampSec: number, body: string): string {
  return `v1=${createHmac('sha256', secret).update(`${timestampSec}.${body}`, 'utf8').digest('hex')}`;
}

/**
 * How a receiver checks a webhook (and our tests do): the signature matches, compared in constant time, and
 * the timestamp is within `toleranceSec` (default 5 minutes) of `nowSec`. Pure.
 */
export function verifyWebhook(
  secret: string,
  headers: { timestamp: string | undefined; signature: string | undefined },
  body: string,
  nowSec: number,
  toleranceSec = 300,
): boolean {
  const timestamp = Number(headers.timestamp);
  if (!Number.isInteger(timestamp) || Math.abs(nowSec - timestamp) > toleranceSec) return false;
  const expected = Buffer.from(signWebhook(secret, timestamp, body));
  const given = Buffer.from(headers.signature ?? '');
  return given.length === expected.length && timingSafeEqual(given, expected);
}
