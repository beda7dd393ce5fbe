import type { App } from '@slack/bolt';
import { StateError } from '../../errors.js';
import {
  ANSWER_INPUT_ACTION_ID,
  ANSWER_INPUT_BLOCK_ID,
  ANSWER_MODAL_CALLBACK_ID,
  parseModalMetadata,
} from '../blocks/action-ids.js';
import {
  stateUnreadableText,
  temporarilyUnavailableText,
  wrongMessageText,
} from '../blocks/render-notices.js';
import { inAllowedGroup } from './answerer-check.js';
import { notify, reportTransition } from './feedback.js';
import type { SlackHandlerDeps } from './handler-deps.js';
import { comesFromAskMessage } from './message-match.js';
import { viewSubmissionBodySchema } from './payloads.js';

/** Typed answers are capped at the modal input's max_length (3000 characters, plain_text_input docs). */
const TYPED_ANSWER_MAX = 3000;

/**
 * Registers the answer modal's submit: the typed text is stored as the question's answer (`other`,
 * source `modal`) before the modal closes; an empty text keeps the modal open with an error.
 */
export function registerViewHandlers(app: App, deps: SlackHandlerDeps): void {
  app.view(ANSWER_MODAL_CALLBACK_ID, async ({ ack, body, client }) => {
    const parsed = viewSubmissionBodySchema.safeParse(body);
    const metadata = parsed.success ? parseModalMetadata(parsed.data.view.private_metadata) : null;
    if (!parsed.success || !metadata) {
      await ack();
      return;
    }
    const userId = parsed.data.user.id;
    const text = (
      parsed.data.view.state.values[ANSWER_INPUT_BLOCK_ID]?.[ANSWER_INPUT_ACTION_ID]?.value ?? ''
    ).trim();
    if (text.length === 0) {
      await ack({
        response_action: 'errors',
        errors: { [ANSWER_INPUT_BLOCK_ID]: 'Type an answer, or close this window.' },
      });
      return;
    }
    const target = { channel: metadata.channel, userId, threadTs: undefined };
    try {
      const ask = await deps.engine.store.getAsk(metadata.turnId, metadata.askId);
      if (ask && !comesFromAskMessage(ask, { channel: metadata.channel, messageTs: metadata.messageTs })) {
        deps.engine.log.warn(
          { askId: metadata.askId, userId, channel: metadata.channel, messageTs: metadata.messageTs },
          'modal submission refused: its message does not show the ask it names',
        );
        await ack({ response_action: 'errors', errors: { [ANSWER_INPUT_BLOCK_ID]: wrongMessageText() } });
        await notify(client, deps.engine.log, target, wrongMessageText());
        return;
      }
      const result = await deps.engine.asks.answer({
        turnId: metadata.turnId,
        askId: metadata.askId,
        questionIndex: metadata.q,
        resolution: {
          status: 'answered',
          selected: [],
          other: text.slice(0, TYPED_ANSWER_MAX),
          answeredBy: userId,
          answeredAt: new Date(deps.engine.now()).toISOString(),
          source: 'modal',
          assumption: null,
        },
        inAllowedGroup: ask ? await inAllowedGroup(deps, client, ask, userId) : false,
      });
      await ack();
      await reportTransition(
        deps,
        client,
        result,
        { ...target, threadTs: ask?.conversation.threadTs },
        metadata.q,
      );
    } catch (error) {
      deps.engine.log.error({ err: error, userId }, 'modal submit failed');
      await ack({
        response_action: 'errors',
        errors: {
          [ANSWER_INPUT_BLOCK_ID]:
            error instanceof StateError
              ? 'This question can no longer be read.'
              : 'Could not save right now; press Send again.',
        },
      });
      await notify(
        client,
        deps.engine.log,
        target,
        error instanceof StateError ? stateUnreadableText() : temporarilyUnavailableText(),
      );
    }
  });
}
