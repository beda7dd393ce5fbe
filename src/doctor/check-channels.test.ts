import { describe, expect, it } from 'vitest';
import { EMPTY_CONFIG_FILE } from '../config/config-file.js';
import type { Config } from '../config/types.js';
import { channelChecks } from './check-channels.js';

const config = {
  systemPrompt: 'Environment prompt.',
  ask: { timeoutMs: 1_800_000, timeoutPolicy: 'recommended-or-first', answerers: { mode: 'anyone' } },
  file: {
    ...EMPTY_CONFIG_FILE,
    defaults: { askTimeoutMs: 1_200_000, approvals: [] },
    channels: {
      C0OPS: {
        systemPrompt: 'Ops prompt.',
        answerers: { mode: 'list', userIds: ['U0ALICE'], groupIds: ['S0SRE'] },
        tools: ['deploy.status'],
        approvals: [
          {
            tools: ['deploy.*'],
            approvers: null,
            timeoutMs: null,
            onTimeout: 'deny',
            approval: 'always',
            quorum: 1,
            escalation: null,
          },
        ],
      },
    },
  },
} as unknown as Config;

describe('channelChecks', () => {
  it('prints what each channel of the config file gets, and what every other channel gets', () => {
    expect(channelChecks(config)).toEqual([
      {
        name: 'Channel C0OPS',
        ok: true,
        detail:
          'ask timeout 20m (defaults); policy recommended-or-first; answerers U0ALICE, S0SRE; tools deploy.status; 1 approval rule; system prompt of the config file (11 characters)',
      },
      {
        name: 'Other channels',
        ok: true,
        detail:
          'ask timeout 20m (defaults); policy recommended-or-first; answerers anyone; tools all; 0 approval rules; system prompt from the environment (19 characters)',
      },
    ]);
  });

  it('prints nothing when the config file sets no channel and no defaults', () => {
    expect(channelChecks({ ...config, file: EMPTY_CONFIG_FILE })).toEqual([]);
  });
});
