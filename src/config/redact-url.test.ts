import { describe, expect, it } from 'vitest';
import { redactUrl } from './redact-url.js';

describe('redactUrl', () => {
  it.each([
    ['redis://127.0.0.1:6379', 'redis://127.0.0.1:6379'],
    ['redis://:s3cret@redis:6379/0', 'redis://:***@redis:6379/0'],
    ['rediss://app:s3cret@redis.example.com:6380', 'rediss://app:***@redis.example.com:6380'],
    ['https://ghp_TOKEN123@proxy/v1', 'https://***@proxy/v1'],
    ['http://localhost:11434/v1', 'http://localhost:11434/v1'],
    ['not a url xoxb-123', '<not a URL>'],
    ['', '<not a URL>'],
  ])('%j -> %j', (text, expected) => {
    expect(redactUrl(text)).toBe(expected);
  });
});
