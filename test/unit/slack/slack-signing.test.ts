import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { signSlackRequest, slackSignatureHeaders } from '../../support/slack-signing.js';

interface Vector {
  name: string;
  headers: Record<string, string>;
  raw_body: string;
}

const vectors = JSON.parse(
  readFileSync(new URL('../../fixtures/slack/signature.test_vectors.json', import.meta.url), 'utf8'),
) as { signing_secret: string; vectors: Vector[] };

describe('signSlackRequest', () => {
  it.each(vectors.vectors.map((vector) => [vector.name, vector] as const))(
    'matches the vector: %s',
    (_name, vector) => {
      const timestamp = Number(vector.headers['x-slack-request-timestamp']);
      expect(signSlackRequest(vectors.signing_secret, vector.raw_body, timestamp)).toBe(
        vector.headers['x-slack-signature'],
      );
      expect(slackSignatureHeaders(vectors.signing_secret, vector.raw_body, timestamp)).toEqual({
        'x-slack-request-timestamp': vector.headers['x-slack-request-timestamp'],
        'x-slack-signature': vector.headers['x-slack-signature'],
      });
    },
  );

  it('changes with the body, the timestamp and the secret', () => {
    const base = signSlackRequest('s', 'body', 1780000060);
    expect(base).toMatch(/^v0=[0-9a-f]{64}$/);
    expect(signSlackRequest('s', 'body ', 1780000060)).not.toBe(base);
    expect(signSlackRequest('s', 'body', 1780000061)).not.toBe(base);
    expect(signSlackRequest('t', 'body', 1780000060)).not.toBe(base);
  });
});
