import type { WebClient } from '@slack/web-api';
import type { EngineLogger } from '../asks/logger.js';
import type { SlackMarks } from './slack-marks.js';

/** How long a display name from `users.info` is cached in Redis, in ms (12 hours). */
export const USER_NAME_TTL_MS = 12 * 3600 * 1000;
/** A display name is cut to this many characters. */
export const USER_NAME_MAX = 80;
/** At most this many people are looked up with `users.info` for one history (the rest keep their id). */
export const USER_LOOKUPS_MAX = 20;

/** The parts of a `users.info` user holdpoint reads. */
interface SlackUser {
  name?: string;
  real_name?: string;
  profile?: { display_name?: string; real_name?: string };
}

/**
 * The name a person is shown by in Slack: the profile's display name, else the real name, else the
 * username. Control and format characters and line breaks become spaces (a name is one line of the
 * model's history, never a new line of it), cut to {@link USER_NAME_MAX}. Null when there is none. Pure.
 */
export function displayNameOf(user: SlackUser | undefined): string | null {
  const candidates = [user?.profile?.display_name, user?.profile?.real_name, user?.real_name, user?.name];
  for (const candidate of candidates) {
    const clean = (candidate ?? '')
      .replace(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu, ' ')
      .replace(/\s+/g, ' ')
      .trim();
    if (clean.length > 0) return Array.from(clean).slice(0, USER_NAME_MAX).join('');
  }
  return null;
}

/**
 * Display names of `userIds` (`users.info`, scope `users:read`), cached in Redis for {@link USER_NAME_TTL_MS}.
 * Best effort: a person whose name cannot be read (Redis or Slack failing, an unknown user) is left out
 * of the map, and the caller shows their id alone. Never throws.
 */
export async function displayNames(
  deps: { client: WebClient; marks: Pick<SlackMarks, 'userNames' | 'cacheUserName'>; log: EngineLogger },
  userIds: readonly string[],
): Promise<Map<string, string>> {
  const unique = [...new Set(userIds)].filter((userId) => /^[UW][A-Z0-9]+$/.test(userId));
  const names = new Map<string, string>();
  let cached: Array<string | null> = [];
  try {
    cached = await deps.marks.userNames(unique);
  } catch (error) {
    deps.log.warn({ err: error }, 'could not read cached display names; asking Slack');
  }
  const missing: string[] = [];
  unique.forEach((userId, index) => {
    const name = cached[index];
    if (name) names.set(userId, name);
    else missing.push(userId);
  });
  await Promise.all(
    missing.slice(0, USER_LOOKUPS_MAX).map(async (userId) => {
      try {
        const info = await deps.client.users.info({ user: userId });
        const name = displayNameOf(info.user as SlackUser | undefined);
        if (!name) return;
        names.set(userId, name);
        await deps.marks.cacheUserName(userId, name, USER_NAME_TTL_MS).catch((error: unknown) => {
          deps.log.warn({ err: error, userId }, 'could not cache a display name');
        });
      } catch (error) {
        deps.log.warn({ err: error, userId }, 'could not read a display name; showing the id');
      }
    }),
  );
  return names;
}

/** How the model's history names a person: `Alice Smith (<@U0ALICE>)`, or `<@U0ALICE>` without a name. Pure. */
export function personLabel(userId: string, names: ReadonlyMap<string, string>): string {
  const name = names.get(userId);
  return name ? `${name} (<@${userId}>)` : `<@${userId}>`;
}
