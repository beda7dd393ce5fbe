import type { WebClient } from '@slack/web-api';
import { escalationTargets, isEscalated } from '../../asks/follow-up.js';
import type { AskRecord } from '../../asks/types.js';
import { slackErrorCode } from '../slack-error-code.js';
import type { SlackHandlerDeps } from './handler-deps.js';

/**
 * Whether the person is in one of the user groups the ask's answerer list names. Only asked of Slack
 * when the list has groups and does not name the person directly; the Lua answer step makes the
 * final decision with this flag.
 */
export async function inAllowedGroup(
  deps: Pick<SlackHandlerDeps, 'groupMembers'>,
  client: WebClient,
  ask: Pick<AskRecord, 'answerers'> & Partial<Pick<AskRecord, 'followUp' | 'shownAt'>>,
  userId: string,
  now: number = Date.now(),
): Promise<boolean> {
  const policy = ask.answerers;
  // Once the ask escalated, its escalation targets may answer too (the time is the click's).
  const escalated = isEscalated({ followUp: ask.followUp, shownAt: ask.shownAt ?? null }, now);
  const targets = escalated ? escalationTargets(ask) : { userIds: [], groupIds: [] };
  if (targets.userIds.includes(userId)) return true;
  const groups = [...(policy.mode === 'list' ? policy.groupIds : []), ...targets.groupIds];
  if (groups.length === 0 || (policy.mode === 'list' && policy.userIds.includes(userId))) return false;
  for (const groupId of groups) {
    const members = await deps.groupMembers(client, groupId);
    if (members.includes(userId)) return true;
  }
  return false;
}

/** Whether the person may answer, by the ask's policy (used before opening a modal; the store re-checks). */
export async function mayAnswer(
  deps: Pick<SlackHandlerDeps, 'groupMembers'>,
  client: WebClient,
  ask: Pick<AskRecord, 'answerers' | 'requestedBy'> &
    Partial<Pick<AskRecord, 'followUp' | 'shownAt' | 'delegates'>>,
  userId: string,
  now: number = Date.now(),
): Promise<boolean> {
  const policy = ask.answerers;
  if (policy.mode === 'anyone' || ask.delegates?.includes(userId)) return true;
  if (policy.mode === 'requester' && userId === ask.requestedBy) return true;
  if (policy.mode === 'list' && policy.userIds.includes(userId)) return true;
  return inAllowedGroup(deps, client, ask, userId, now);
}

/** A per-process cache of user-group members (60 s), so a burst of clicks makes one Slack call per group. */
export function cachedGroupMembers(ttlMs = 60_000): SlackHandlerDeps['groupMembers'] {
  const cache = new Map<string, { at: number; users: string[] }>();
  return async (client, groupId) => {
    const hit = cache.get(groupId);
    if (hit && Date.now() - hit.at < ttlMs) return hit.users;
    let users: string[];
    try {
      users = (await client.usergroups.users.list({ usergroup: groupId })).users ?? [];
    } catch (error) {
      // A group Slack does not know has no members: the person is told they may not answer, instead of
      // every click failing. Other errors (Slack down, a missing scope) still fail the click.
      if (slackErrorCode(error) !== 'no_such_subteam') throw error;
      users = [];
    }
    cache.set(groupId, { at: Date.now(), users });
    return users;
  };
}
