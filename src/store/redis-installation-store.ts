import type { Installation, InstallationQuery, InstallationStore } from '@slack/bolt';
import type { Redis } from 'ioredis';
import { z } from 'zod';
import { StateError } from '../errors.js';
import { StoreKeys } from './keys.js';
import type { TokenCipher } from './token-cipher.js';

/** Which installation a query or an installation belongs to: its team, or its enterprise for an org-wide install. */
export interface InstallationTarget {
  teamId?: string | undefined;
  enterpriseId?: string | undefined;
  isEnterpriseInstall?: boolean | undefined;
}

/**
 * The id an installation is stored under: `E-<enterpriseId>` for an org-wide (Enterprise Grid) install,
 * else `T-<teamId>`; null when the target names neither.
 */
export function installationIdOf(target: InstallationTarget): string | null {
  if (target.isEnterpriseInstall && target.enterpriseId) return `E-${target.enterpriseId}`;
  if (target.teamId) return `T-${target.teamId}`;
  if (target.enterpriseId) return `E-${target.enterpriseId}`;
  return null;
}

/** The fields of a stored installation holdpoint reads back (the rest is kept as `@slack/oauth` wrote it). */
const installationSchema = z
  .object({
    team: z.object({ id: z.string() }).passthrough().optional(),
    enterprise: z.object({ id: z.string() }).passthrough().optional(),
    isEnterpriseInstall: z.boolean().optional(),
    bot: z
      .object({ token: z.string(), userId: z.string(), id: z.string().optional() })
      .passthrough()
      .optional(),
  })
  .passthrough();

/** Options of {@link RedisInstallationStore}. */
export interface RedisInstallationStoreOptions {
  prefix?: string;
  cipher: TokenCipher;
}

/**
 * `@slack/oauth`'s {@link InstallationStore} over Redis: one hash per installation whose `data` is the whole
 * installation (bot token, refresh token, user token if any) sealed with AES-256-GCM by {@link TokenCipher},
 * bound to the installation id; no token is ever written in plaintext. A record sealed under the previous key
 * is sealed again under the current one when read. Bolt's `authorize` reads it for every request.
 */
export class RedisInstallationStore implements InstallationStore {
  private readonly keys: StoreKeys;

  constructor(
    private readonly redis: Redis,
    private readonly options: RedisInstallationStoreOptions,
  ) {
    this.keys = new StoreKeys(options.prefix);
  }

  async storeInstallation<AuthVersion extends 'v1' | 'v2'>(
    installation: Installation<AuthVersion, boolean>,
  ): Promise<void> {
    const id = installationIdOf({
      teamId: installation.team?.id,
      enterpriseId: installation.enterprise?.id,
      isEnterpriseInstall: installation.isEnterpriseInstall,
    });
    if (id === null)
      throw new StateError(
        'installation_without_team',
        'an installation names neither a team nor an enterprise',
      );
    await this.write(id, JSON.stringify(installation));
  }

  async fetchInstallation(query: InstallationQuery<boolean>): Promise<Installation<'v1' | 'v2', boolean>> {
    const found = await this.read(query);
    if (found === null)
      throw new StateError(
        'installation_not_found',
        `no installation for ${installationIdOf(query) ?? 'an unnamed workspace'}`,
      );
    return found as unknown as Installation<'v1' | 'v2', boolean>;
  }

  async deleteInstallation(query: InstallationQuery<boolean>): Promise<void> {
    const id = installationIdOf(query);
    if (id === null) return;
    await this.redis
      .multi()
      .del(this.keys.slackInstallation(id))
      .srem(this.keys.slackInstallations(), id)
      .exec();
  }

  /**
   * The bot token and bot user id of the installation serving `target`, or null when it is not installed
   * (an org-wide install serves its teams).
   */
  async botOf(target: InstallationTarget): Promise<{ token: string; userId: string } | null> {
    const found = await this.read(target);
    if (found === null && target.teamId && target.enterpriseId && !target.isEnterpriseInstall)
      return this.botOf({ enterpriseId: target.enterpriseId, isEnterpriseInstall: true });
    return found?.bot ? { token: found.bot.token, userId: found.bot.userId } : null;
  }

  /** Every stored installation id. */
  async installationIds(): Promise<string[]> {
    return this.redis.smembers(this.keys.slackInstallations());
  }

  /**
   * Seals every installation under the current key (after a key rotation). Returns how many were sealed
   * again; a record no key opens is left as it is and counted in `unreadable`.
   */
  async reencryptAll(): Promise<{ reencrypted: number; unreadable: string[] }> {
    let reencrypted = 0;
    const unreadable: string[] = [];
    for (const id of await this.installationIds()) {
      const sealed = await this.redis.hget(this.keys.slackInstallation(id), 'data');
      if (sealed === null) continue;
      try {
        const opened = this.options.cipher.open(sealed, id);
        if (!opened.stale) continue;
        if (await this.reseal(id, sealed, opened.plain)) reencrypted += 1;
      } catch {
        unreadable.push(id);
      }
    }
    return { reencrypted, unreadable };
  }

  private async read(target: InstallationTarget): Promise<z.infer<typeof installationSchema> | null> {
    const id = installationIdOf(target);
    if (id === null) return null;
    const sealed = await this.redis.hget(this.keys.slackInstallation(id), 'data');
    if (sealed === null) return null;
    const opened = this.options.cipher.open(sealed, id);
    // Re-encrypt on read: a record of the previous key is sealed again under the current one.
    if (opened.stale) await this.reseal(id, sealed, opened.plain);
    let json: unknown;
    try {
      json = JSON.parse(opened.plain);
    } catch {
      throw new StateError('installation_unreadable', `the installation ${id} is not JSON`);
    }
    const parsed = installationSchema.safeParse(json);
    if (!parsed.success)
      throw new StateError('installation_unreadable', `the installation ${id} does not match the schema`);
    return parsed.data;
  }

  /**
   * Seals `plain` again under the current key, only while the record still holds `sealed` (one script on
   * the one key): an uninstall or a new install between the read and this write is never undone.
   * @returns whether it was written.
   */
  private async reseal(id: string, sealed: string, plain: string): Promise<boolean> {
    const { cipher } = this.options;
    const written = await this.redis.eval(
      "if redis.call('HGET', KEYS[1], 'data') == ARGV[1] then redis.call('HSET', KEYS[1], 'data', ARGV[2], 'kid', ARGV[3]) return 1 end return 0",
      1,
      this.keys.slackInstallation(id),
      sealed,
      cipher.seal(plain, id),
      cipher.keyId,
    );
    return written === 1;
  }

  private async write(id: string, plain: string): Promise<void> {
    const { cipher } = this.options;
    await this.redis
      .multi()
      .hset(this.keys.slackInstallation(id), 'data', cipher.seal(plain, id), 'kid', cipher.keyId)
      .sadd(this.keys.slackInstallations(), id)
      .exec();
  }
}
