import { describe, expect, it } from 'vitest';
import { webhookAddressAllowed } from './webhook-target.js';

describe('webhookAddressAllowed', () => {
  it.each([
    ['169.254.169.254', false],
    ['169.254.1.2', false],
    ['::ffff:169.254.169.254', false],
    ['fe80::1', false],
    ['[fe80::1]', false],
    ['fd00:ec2::254', false],
    ['127.0.0.1', true],
    ['10.0.0.5', true],
    ['192.168.1.10', true],
    ['::1', true],
    ['2001:db8::1', true],
    ['93.184.216.34', true],
  ])('%s: %s', (ip, allowed) => {
    expect(webhookAddressAllowed(ip)).toBe(allowed);
  });
});
