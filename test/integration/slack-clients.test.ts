import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installedSlackClients, isNotInstalled } from '../../src/slack/slack-clients.js';
import { type FakeSlack, startFakeSlack } from '../support/fake-slack/index.js';

let fake: FakeSlack;
beforeAll(async () => {
  fake = await startFakeSlack();
  fake.addTeam({ teamId: 'T0BETA' });
});
afterAll(async () => {
  await fake.close();
});

describe('installedSlackClients: one client per workspace', () => {
  it('gives each team a client with its own token, reads the store once per TTL, and refreshes after a refused token', async () => {
    const beta = fake.team('T0BETA');
    const tokens = new Map([
      [fake.teamId, fake.botToken],
      ['T0BETA', beta.botToken],
    ]);
    const reads: string[] = [];
    let clock = 0;
    const clients = installedSlackClients({
      bot: async (team) => {
        reads.push(team.teamId ?? '');
        const token = tokens.get(team.teamId ?? '');
        return token ? { token, userId: `bot-of-${team.teamId}` } : null;
      },
      apiUrl: fake.url,
      clientOptions: { retryConfig: { retries: 0 } },
      ttlMs: 1000,
      now: () => clock,
    });
    expect((await (await clients.forTeam({ teamId: 'T0BETA' })).auth.test()).team_id).toBe('T0BETA');
    expect((await (await clients.forTeam({ teamId: fake.teamId })).auth.test()).team_id).toBe(fake.teamId);
    expect(await clients.botUserIdOf({ teamId: 'T0BETA' }, 'unused')).toBe('bot-of-T0BETA');
    expect(reads).toEqual(['T0BETA', fake.teamId]);
    clock = 2000;
    await clients.forTeam({ teamId: 'T0BETA' });
    expect(reads).toEqual(['T0BETA', fake.teamId, 'T0BETA']);

    // Slack refuses the token: the cached client is dropped, so the next call reads the store again.
    beta.revokeTokens();
    await expect((await clients.forTeam({ teamId: 'T0BETA' })).auth.test()).rejects.toThrow(/token_revoked/);
    tokens.delete('T0BETA');
    const gone = await clients.forTeam({ teamId: 'T0BETA' }).catch((error: unknown) => error);
    expect(isNotInstalled(gone)).toBe(true);
    expect(reads.at(-1)).toBe('T0BETA');
  });
});
