import type { WebClient } from '@slack/web-api';
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
  ask: Pick<AskRecord, 'answerers'>,
  userId: string,
): Promise<boolean> {
  const policy = ask.answerers;
  if (policy.mode !== 'list' || policy.groupIds.length === 0 || policy.userIds.includes(userId)) return false;
  for (const groupId of policy.groupIds) {
    const members = await deps.groupMembers(client, groupId);
    if (members.includes(userId)) return true;
  }
  return false;
}

/** Whether the person may answer, by the ask's policy (used before opening a modal; the store re-checks). */
export async function mayAnswer(
  deps: Pick<SlackHandlerDeps, 'groupMembers'>,
  client: WebClient,
  ask: Pick<AskRecord, 'answerers' | 'requestedBy'>,
  userId: string,
): Promise<boolean> {
  const policy = ask.answerers;
  switch (policy.mode) {
    case 'anyone':
      return true;
    case 'requester':
      return userId === ask.requestedBy;
    case 'list':
      return policy.userIds.includes(userId) || (await inAllowedGroup(deps, client, ask, userId));
  }
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
