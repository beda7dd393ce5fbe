import type { App } from '@slack/bolt';
import type { WebClient } from '@slack/web-api';
import type { EngineLogger } from '../../asks/logger.js';
import { renderInbox } from '../blocks/render-inbox.js';
import type { HomeTab } from '../home-tab.js';
import type { SlackHandlerDeps } from './handler-deps.js';

/** The slash command holdpoint answers (`features.slash_commands` in `manifest.yml`). */
export const SLASH_COMMAND = '/holdpoint';

/**
 * How long `/holdpoint asks` may take to gather the inbox before it acks without it, in ms. Slack wants the
 * ack within 3 s (FACTS.md §3); past this budget the command acks with a short line and the inbox follows
 * through `response_url` (replacing that line).
 */
export const COMMAND_ACK_BUDGET_MS = 1500;

const USAGE =
  '`/holdpoint asks` lists the open asks waiting for you and the ones you started (also on the Home tab of holdpoint).';

/**
 * Registers the inbox listeners (when `deps.homes` is set):
 * - `app_home_opened` on the Home tab: remembers the viewer and publishes their Home view (Bolt acked the
 *   event already);
 * - `/holdpoint asks`: the same inbox as an ephemeral reply, acked within {@link COMMAND_ACK_BUDGET_MS}.
 */
export function registerHomeHandlers(app: App, deps: SlackHandlerDeps): void {
  const homes = deps.homes;
  if (!homes) return;
  app.event('app_home_opened', async ({ event, client, context }) => {
    if (event.tab !== 'home' || typeof event.user !== 'string') return;
    await homes.opened(client, event.user, context.teamId);
  });

  app.command(SLASH_COMMAND, async ({ command, ack, respond, client, context }) => {
    const words = command.text.trim().toLowerCase().split(/\s+/);
    if (words[0] !== 'asks' && !(words[0] === '' && words.length === 1)) {
      await ack({ response_type: 'ephemeral', text: USAGE });
      return;
    }
    const built = inboxMessage(homes, deps.engine.log, client, command.user_id, context.teamId);
    const first = await Promise.race([
      built,
      new Promise<null>((resolve) => setTimeout(() => resolve(null), COMMAND_ACK_BUDGET_MS).unref()),
    ]);
    if (first) {
      await ack({ response_type: 'ephemeral', ...first });
      return;
    }
    await ack({ response_type: 'ephemeral', text: 'Looking up your asks…' });
    const late = await built;
    try {
      await respond({ response_type: 'ephemeral', replace_original: true, ...late });
    } catch (error) {
      deps.engine.log.warn({ err: error }, 'could not send the inbox through response_url');
    }
  });
}

/** The inbox as an ephemeral message; a short apology when it cannot be read (Redis down). Never rejects. */
async function inboxMessage(
  homes: HomeTab,
  log: EngineLogger,
  client: WebClient,
  userId: string,
  teamId: string | undefined,
): Promise<{ text: string; blocks?: unknown[] }> {
  try {
    const content = await homes.inbox(client, userId, teamId);
    const rendered = renderInbox(content, 'message');
    return { text: rendered.text, blocks: rendered.blocks };
  } catch (error) {
    log.error({ err: error, userId }, 'could not read the inbox');
    return { text: 'holdpoint cannot read its asks right now. Please try again in a moment.' };
  }
}
