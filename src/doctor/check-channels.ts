import { effectiveChannelSettings } from '../config/channel-settings.js';
import { formatDuration } from '../config/durations.js';
import type { Config } from '../config/types.js';
import type { DoctorCheck } from './doctor-check.js';

/**
 * One `Channel <id>` line per channel of the config file, with the settings its turns get (marked
 * `(defaults)` where they come from `defaults:`, else from the environment), and one `Other channels` line
 * for every other channel. Pure.
 */
export function channelChecks(config: Config): DoctorCheck[] {
  const file = config.file;
  const ids = Object.keys(file.channels);
  if (ids.length === 0 && !effectiveChannelSettings(file, '').overrides) return [];
  const describe = (channel: string): string => {
    const effective = effectiveChannelSettings(file, channel);
    const mark = (field: keyof typeof effective.from) =>
      effective.from[field] === 'defaults' ? ' (defaults)' : '';
    const answerers = effective.answerers ?? config.ask.answerers;
    const who =
      answerers.mode === 'list' ? [...answerers.userIds, ...answerers.groupIds].join(', ') : answerers.mode;
    const prompt = effective.systemPrompt ?? config.systemPrompt;
    const parts = [
      `ask timeout ${formatDuration(effective.askTimeoutMs ?? config.ask.timeoutMs)}${mark('askTimeoutMs')}`,
      `policy ${effective.timeoutPolicy ?? config.ask.timeoutPolicy}${mark('timeoutPolicy')}`,
      `answerers ${who}${mark('answerers')}`,
      `tools ${effective.tools ? effective.tools.join(', ') || 'none' : 'all'}${mark('tools')}`,
      `${effective.approvals.length} approval rule${effective.approvals.length === 1 ? '' : 's'}`,
      `system prompt ${effective.systemPrompt === undefined ? (config.systemPromptSource === 'default' ? 'built in' : 'from the environment') : `of the config file${mark('systemPrompt')}`} (${prompt.length} characters)`,
    ];
    return parts.join('; ');
  };
  return [
    ...ids.map((id) => ({ name: `Channel ${id}`, ok: true, detail: describe(id) })),
    { name: 'Other channels', ok: true, detail: describe('') },
  ];
}
