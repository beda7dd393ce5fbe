import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { signWebhook, verifyWebhook } from './webhook-signature.js';

const SECRET = 's'.repeat(32);

describe('webhook signatures', () => {
  it('is the hex HMAC-SHA256 of "<timestamp>.<body>", prefixed v1=', () => {
    const expected = createHmac('sha256', SECRET).update('1700000000.{"a":1}').digest('hex');
    expect(signWebhook(SECRET, 1_700_000_000, '{"a":1}')).toBe(`v1=${expected}`);
  });

  it.each([
    ['the right signature, on time', SECRET, 1_700_000_000, '{"a":1}', 1_700_000_100, true],
    ['another secret', 'x'.repeat(32), 1_700_000_000, '{"a":1}', 1_700_000_000, false],
    ['another body', SECRET, 1_700_000_000, '{"a":2}', 1_700_000_000, false],
    ['over 5 minutes old', SECRET, 1_700_000_000, '{"a":1}', 1_700_000_301, false],
  ])('%s -> %s', (_name, secret, timestamp, body, now, ok) => {
    const signature = signWebhook(secret, timestamp, '{"a":1}');
    expect(verifyWebhook(SECRET, { timestamp: String(timestamp), signature }, body, now)).toBe(ok);
  });
});
