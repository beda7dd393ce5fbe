import type { WebClient } from '@slack/web-api';
import type { AskRecord } from '../asks/types.js';
import { type RenderAskMessageOptions, renderAskMessage } from './blocks/render-ask-message.js';
import type { SlackMessageRef } from './message-ref.js';

/**
 * Re-renders an ask's message in place with `chat.update` (controls of resolved questions go, the choices
 * and who made them stay). Used by the worker (timeouts) and the listeners (answers).
 * @throws the Web API's error when Slack refuses the update.
 */
export async function updateAskMessage(
  client: WebClient,
  ask: AskRecord,
  ref: SlackMessageRef,
  options: RenderAskMessageOptions = {},
): Promise<void> {
  const rendered = renderAskMessage(ask, options);
  await client.chat.update({
    channel: ref.channel,
    ts: ref.ts,
    text: rendered.text,
    blocks: rendered.blocks,
  });
}
