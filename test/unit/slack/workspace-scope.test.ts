import type { WebClient } from '@slack/web-api';
import { describe, expect, it } from 'vitest';
import { conversationKey } from '../../../src/asks/conversation.js';
import type { AskRecord } from '../../../src/asks/types.js';
import { comesFromAskWorkspace, requestTeamOf } from '../../../src/slack/handlers/message-match.js';
import { type HomeMarks, HomeTab } from '../../../src/slack/home-tab.js';
import { askRecord } from './ask-records.js';

const ofTeam = (teamId: string | undefined, askId: string): AskRecord =>
  askRecord({
    askId,
    answerers: { mode: 'list', userIds: ['U0BOB'], groupIds: [] },
    conversation: {
      surface: 'slack',
      channel: 'C0OPS',
      threadTs: '1780000000.000100',
      ...(teamId ? { teamId, workspace: teamId } : {}),
    },
  });

describe('workspace scope (OAuth install mode)', () => {
  it('thread keys: the same channel and ts in two workspaces are two threads; without a workspace the key is as before', () => {
    const base = { surface: 'slack', channel: 'C0OPS', threadTs: '1780000000.000100' };
    expect(conversationKey(base)).toBe('slack-C0OPS-1780000000.000100');
    expect(conversationKey({ ...base, teamId: 'T1' })).toBe('slack-C0OPS-1780000000.000100');
    expect(conversationKey({ ...base, teamId: 'T1', workspace: 'T1' })).toBe(
      'slack-T1-C0OPS-1780000000.000100',
    );
    expect(conversationKey({ ...base, workspace: 'T1' })).not.toBe(
      conversationKey({ ...base, workspace: 'T2' }),
    );
  });

  it.each<[string, boolean | undefined, string | undefined, string | undefined, boolean]>([
    ['single-workspace mode accepts any team', false, 'T1', 'T2', true],
    ['the same team', true, 'T1', 'T1', true],
    ['another team', true, 'T1', 'T2', false],
    ['a request of unknown team', true, 'T1', undefined, false],
    ['an ask naming no team', true, undefined, 'T1', false],
  ])('comesFromAskWorkspace: %s', (_name, scoped, askTeam, requestTeam, expected) => {
    expect(comesFromAskWorkspace(scoped, ofTeam(askTeam, 'a'), requestTeam)).toBe(expected);
  });

  it('requestTeamOf: Bolt context first, then team.id, then user.team_id', () => {
    expect(requestTeamOf({ team: { id: 'T2' } }, 'T1')).toBe('T1');
    expect(requestTeamOf({ team: { id: 'T2' }, user: { team_id: 'T3' } }, undefined)).toBe('T2');
    expect(requestTeamOf({ team: null, user: { id: 'U', team_id: 'T3' } }, undefined)).toBe('T3');
    expect(requestTeamOf('junk', undefined)).toBeUndefined();
  });

  it("the inbox lists only the viewer's workspace's asks when scoped by team", async () => {
    const asks = [ofTeam('T1', 'ask_one'), ofTeam('T2', 'ask_two')];
    const marks: HomeMarks = {
      recordOpened: async () => {},
      recentViewers: async () => [],
      markDirty: async () => {},
      takeDirty: async () => false,
      isDirty: async () => false,
      claimPublish: async () => true,
      releasePublish: async () => {},
    };
    const homeFor = (scopeByTeam: boolean) =>
      new HomeTab({
        reader: {
          listShownOpenAsks: async () => asks.map((ask) => ({ turnId: ask.scope, askId: ask.askId })),
          getAsk: async (_turnId, askId) => asks.find((ask) => ask.askId === askId) ?? null,
        },
        marks,
        groupMembers: async () => [],
        log: { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} },
        now: () => Date.parse('2026-11-29T20:05:00.000Z'),
        workspaceUrl: null,
        scopeByTeam,
      });
    const client = {} as WebClient;
    const scoped = await homeFor(true).inbox(client, 'U0BOB', 'T2');
    expect(scoped.toAnswer.map((ask) => ask.askId)).toEqual(['ask_two']);
    const single = await homeFor(false).inbox(client, 'U0BOB', 'T2');
    expect(single.toAnswer.map((ask) => ask.askId).sort()).toEqual(['ask_one', 'ask_two']);
  });
});
