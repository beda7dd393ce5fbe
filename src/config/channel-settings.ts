import type { ApprovalRule, ChannelSettings, ConfigFile } from './config-file.js';

/** What one channel gets from the config file: its own settings over `defaults:`; absent fields come from the environment. */
export interface EffectiveChannelSettings extends Omit<ChannelSettings, 'approvals' | 'systemPromptFile'> {
  /** The rules in the order they are checked: the channel's, then `defaults:`'s, then the top-level ones. */
  approvals: ApprovalRule[];
  /** Where each set field came from, for `doctor`. */
  from: Partial<
    Record<'systemPrompt' | 'askTimeoutMs' | 'timeoutPolicy' | 'answerers' | 'tools', 'channel' | 'defaults'>
  >;
  /** False when neither the channel nor `defaults:` set anything: the environment and the top-level rules decide. */
  overrides: boolean;
}

const FIELDS = ['systemPrompt', 'askTimeoutMs', 'timeoutPolicy', 'answerers', 'tools'] as const;

/** The effective settings of `channel` (a Slack channel id) under `file`. Pure. */
export function effectiveChannelSettings(file: ConfigFile, channel: string): EffectiveChannelSettings {
  const own = file.channels[channel];
  const result: EffectiveChannelSettings = {
    approvals: [...(own?.approvals ?? []), ...file.defaults.approvals, ...file.approvals],
    from: {},
    overrides: (own?.approvals.length ?? 0) + file.defaults.approvals.length > 0,
  };
  for (const field of FIELDS) {
    const value = own?.[field] ?? file.defaults[field];
    if (value === undefined) continue;
    (result as unknown as Record<string, unknown>)[field] = value;
    result.from[field] = own?.[field] !== undefined ? 'channel' : 'defaults';
    result.overrides = true;
  }
  return result;
}
