import type { Installation } from '@slack/bolt';
import { afterAll, describe, expect, it } from 'vitest';
import { StoreKeys } from '../../../src/store/keys.js';
import { installationIdOf, RedisInstallationStore } from '../../../src/store/redis-installation-store.js';
import { createTokenCipher } from '../../../src/store/token-cipher.js';
import { testRedisClient, uniquePrefix } from '../../support/redis.js';

const redis = testRedisClient();
afterAll(async () => {
  await redis.quit();
});

const KEY_OLD = Buffer.alloc(32, 3);
const KEY_NEW = Buffer.alloc(32, 4);

function installation(teamId: string, token: string): Installation<'v2', false> {
  return {
    team: { id: teamId, name: `Team ${teamId}` },
    enterprise: undefined,
    user: { id: 'U0INSTALLER', token: undefined, scopes: undefined },
    bot: { token, scopes: ['chat:write'], userId: `U0BOT${teamId}`, id: `B0${teamId}` },
    tokenType: 'bot',
    isEnterpriseInstall: false,
    appId: 'A0APP',
    authVersion: 'v2',
  };
}

/** Every string value under the prefix (hash fields and set members), to look for plaintext tokens. */
async function everything(prefix: string): Promise<string> {
  const keys = await redis.keys(`${prefix}:*`);
  const values: string[] = [];
  for (const key of keys) {
    const type = await redis.type(key);
    if (type === 'hash') values.push(...Object.values(await redis.hgetall(key)));
    else if (type === 'set') values.push(...(await redis.smembers(key)));
    else if (type === 'string') values.push((await redis.get(key)) ?? '');
  }
  return values.join('\\n');
}

describe('RedisInstallationStore', () => {
  it('stores sealed installations per team: fetch gives each team its own token, Redis holds no plaintext', async () => {
    const prefix = uniquePrefix('installs');
    const store = new RedisInstallationStore(redis, { prefix, cipher: createTokenCipher(KEY_NEW) });
    await store.storeInstallation(installation('T1', 'xoxb-team-one'));
    await store.storeInstallation(installation('T2', 'xoxb-team-two'));
    const one = await store.fetchInstallation({
      teamId: 'T1',
      enterpriseId: undefined,
      isEnterpriseInstall: false,
    });
    expect(one.bot?.token).toBe('xoxb-team-one');
    expect(await store.botOf({ teamId: 'T2' })).toEqual({ token: 'xoxb-team-two', userId: 'U0BOTT2' });
    expect((await store.installationIds()).sort()).toEqual(['T-T1', 'T-T2']);
    expect(await everything(prefix)).not.toContain('xoxb-');

    await store.deleteInstallation({ teamId: 'T1', enterpriseId: undefined, isEnterpriseInstall: false });
    expect(await store.botOf({ teamId: 'T1' })).toBeNull();
    await expect(
      store.fetchInstallation({ teamId: 'T1', enterpriseId: undefined, isEnterpriseInstall: false }),
    ).rejects.toThrow(/no installation for T-T1/);
    expect(await store.installationIds()).toEqual(['T-T2']);
  });

  it('a record copied onto another team does not open', async () => {
    const prefix = uniquePrefix('installs');
    const store = new RedisInstallationStore(redis, { prefix, cipher: createTokenCipher(KEY_NEW) });
    await store.storeInstallation(installation('T1', 'xoxb-team-one'));
    const keys = new StoreKeys(prefix);
    const sealed = (await redis.hget(keys.slackInstallation('T-T1'), 'data')) ?? '';
    await redis.hset(keys.slackInstallation('T-T9'), 'data', sealed);
    await expect(store.botOf({ teamId: 'T9' })).rejects.toThrow(/another installation/);
  });

  it('key rotation: records of the previous key are read, re-encrypted on read and at start-up', async () => {
    const prefix = uniquePrefix('installs');
    const keys = new StoreKeys(prefix);
    const before = new RedisInstallationStore(redis, { prefix, cipher: createTokenCipher(KEY_OLD) });
    await before.storeInstallation(installation('T1', 'xoxb-team-one'));
    await before.storeInstallation(installation('T2', 'xoxb-team-two'));
    const rotated = new RedisInstallationStore(redis, {
      prefix,
      cipher: createTokenCipher(KEY_NEW, KEY_OLD),
    });
    const newId = createTokenCipher(KEY_NEW).keyId;
    expect(await rotated.botOf({ teamId: 'T1' })).toMatchObject({ token: 'xoxb-team-one' });
    expect(await redis.hget(keys.slackInstallation('T-T1'), 'kid')).toBe(newId);
    expect(await redis.hget(keys.slackInstallation('T-T2'), 'kid')).not.toBe(newId);
    expect(await rotated.reencryptAll()).toEqual({ reencrypted: 1, unreadable: [] });
    expect(await redis.hget(keys.slackInstallation('T-T2'), 'kid')).toBe(newId);
    // The old key can go now.
    const after = new RedisInstallationStore(redis, { prefix, cipher: createTokenCipher(KEY_NEW) });
    expect(await after.botOf({ teamId: 'T2' })).toMatchObject({ token: 'xoxb-team-two' });
  });

  it('re-encryption never brings back an installation deleted between its read and its write', async () => {
    const prefix = uniquePrefix('installs');
    const keys = new StoreKeys(prefix);
    const before = new RedisInstallationStore(redis, { prefix, cipher: createTokenCipher(KEY_OLD) });
    await before.storeInstallation(installation('T1', 'xoxb-team-one'));
    // An uninstall lands right after the rotated store read the record (a client whose HGET deletes it after).
    const racing = new Proxy(redis, {
      get(target, property, receiver) {
        if (property !== 'hget') return Reflect.get(target, property, receiver);
        return async (key: string, field: string) => {
          const value = await target.hget(key, field);
          await target.del(key);
          return value;
        };
      },
    });
    const rotated = new RedisInstallationStore(racing, {
      prefix,
      cipher: createTokenCipher(KEY_NEW, KEY_OLD),
    });
    expect(await rotated.reencryptAll()).toEqual({ reencrypted: 0, unreadable: [] });
    expect(await redis.exists(keys.slackInstallation('T-T1'))).toBe(0);
  });

  it('installation ids: team installs by team, org-wide installs by enterprise', () => {
    expect(installationIdOf({ teamId: 'T1', enterpriseId: 'E1', isEnterpriseInstall: false })).toBe('T-T1');
    expect(installationIdOf({ teamId: undefined, enterpriseId: 'E1', isEnterpriseInstall: true })).toBe(
      'E-E1',
    );
    expect(installationIdOf({})).toBeNull();
  });
});
