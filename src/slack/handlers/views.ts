import type { App } from '@slack/bolt';
import { quorumOf } from '../../asks/follow-up.js';
import type { AskRecord } from '../../asks/types.js';
import { StateError } from '../../errors.js';
import {
  ANSWER_INPUT_ACTION_ID,
  ANSWER_INPUT_BLOCK_ID,
  ANSWER_MODAL_CALLBACK_ID,
  CANCEL_MODAL_CALLBACK_ID,
  CHANGE_CHOICE_ACTION_ID,
  CHANGE_INPUT_BLOCK_ID,
  CHANGE_MODAL_CALLBACK_ID,
  CHANGE_TEXT_ACTION_ID,
  DELEGATE_INPUT_ACTION_ID,
  DELEGATE_INPUT_BLOCK_ID,
  DELEGATE_MODAL_CALLBACK_ID,
  parseModalMetadata,
} from '../blocks/action-ids.js';
import {
  askClosedText,
  cancelNotAllowedText,
  notAllowedText,
  stateUnreadableText,
  temporarilyUnavailableText,
  wrongMessageText,
} from '../blocks/render-notices.js';
import { inAllowedGroup } from './answerer-check.js';
import { notify, reportTransition } from './feedback.js';
import type { SlackHandlerDeps } from './handler-deps.js';
import { comesFromAskMessage, comesFromAskWorkspace, requestTeamOf } from './message-match.js';
import { viewSubmissionBodySchema } from './payloads.js';

/** Typed answers are capped at the modal input's max_length (3000 characters, plain_text_input docs). */
const TYPED_ANSWER_MAX = 3000;

/**
 * Registers the modals' submits. The answer modal: the typed text is stored as the question's answer
 * (`other`, source `modal`) before the modal closes; an empty text keeps the modal open with an error.
 * "Ask someone else…", "Change answer" and the "Cancel…" confirmation: checked like a click, then done
 * after the modal closed, with an ephemeral notice when refused.
 */
export function registerViewHandlers(app: App, deps: SlackHandlerDeps): void {
  registerCancelModal(app, deps);
  app.view(ANSWER_MODAL_CALLBACK_ID, async ({ ack, body, client, context }) => {
    const requestTeam = requestTeamOf(body, context.teamId);
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
      if (
        ask &&
        (!comesFromAskWorkspace(deps.scopeByTeam, ask, requestTeam) ||
          !comesFromAskMessage(ask, { channel: metadata.channel, messageTs: metadata.messageTs }))
      ) {
        deps.engine.log.warn(
          {
            askId: metadata.askId,
            userId,
            channel: metadata.channel,
            messageTs: metadata.messageTs,
            requestTeam,
          },
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
        inAllowedGroup: ask ? await inAllowedGroup(deps, client, ask, userId, deps.engine.now()) : false,
        // A typed answer is a vote like any other under a quorum; an approval's typed Deny decides at once.
        quorum: ask ? quorumOf(ask) : 1,
        decisive: Boolean(ask?.approval),
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

  app.view(DELEGATE_MODAL_CALLBACK_ID, async ({ ack, body, client, context }) => {
    const checked = await checkedSubmission(deps, body, context.teamId);
    if (!checked) {
      await ack();
      return;
    }
    const { userId, metadata, ask } = checked;
    const picked = checked.values[DELEGATE_INPUT_BLOCK_ID]?.[DELEGATE_INPUT_ACTION_ID]?.selected_user;
    if (typeof picked !== 'string' || !/^[UW][A-Z0-9]{2,}$/.test(picked)) {
      await ack({ response_action: 'errors', errors: { [DELEGATE_INPUT_BLOCK_ID]: 'Pick a person.' } });
      return;
    }
    const target = { channel: metadata.channel, userId, threadTs: ask.conversation.threadTs };
    // The modal closes at once (Slack waits 3 s at most); what follows is told as an ephemeral notice.
    await ack();
    await reportFailure(deps, client, target, 'delegation failed', async () => {
      const result = await deps.engine.asks.delegate({
        turnId: metadata.turnId,
        askId: metadata.askId,
        userId,
        delegateId: picked,
        inAllowedGroup: await inAllowedGroup(deps, client, ask, userId, deps.engine.now()),
      });
      if (result.status === 'forbidden')
        await notify(client, deps.engine.log, target, notAllowedText(ask.answerers));
      else if (result.status === 'closed' || result.status === 'not-found')
        await notify(client, deps.engine.log, target, askClosedText());
    });
  });

  app.view(CHANGE_MODAL_CALLBACK_ID, async ({ ack, body, client, context }) => {
    const checked = await checkedSubmission(deps, body, context.teamId);
    if (!checked) {
      await ack();
      return;
    }
    const { userId, metadata, ask } = checked;
    const field = checked.values[CHANGE_INPUT_BLOCK_ID] ?? {};
    const question = ask.questions[metadata.q];
    const choice = field[CHANGE_CHOICE_ACTION_ID]?.selected_option;
    const index =
      typeof choice === 'object' && choice !== null
        ? Number((choice as { value?: unknown }).value)
        : Number.NaN;
    const label = question?.options?.[index]?.label;
    const typed = (field[CHANGE_TEXT_ACTION_ID]?.value ?? '').trim();
    if (label === undefined && typed.length === 0) {
      await ack({
        response_action: 'errors',
        errors: { [CHANGE_INPUT_BLOCK_ID]: 'Choose the right answer.' },
      });
      return;
    }
    const target = { channel: metadata.channel, userId, threadTs: ask.conversation.threadTs };
    await ack();
    await reportFailure(deps, client, target, 'answer change failed', async () => {
      const result = await deps.engine.asks.override({
        turnId: metadata.turnId,
        askId: metadata.askId,
        questionIndex: metadata.q,
        override: {
          selected: label === undefined ? [] : [label],
          other: label === undefined ? typed.slice(0, TYPED_ANSWER_MAX) : null,
          by: userId,
          at: new Date(deps.engine.now()).toISOString(),
        },
        inAllowedGroup: await inAllowedGroup(deps, client, ask, userId, deps.engine.now()),
      });
      const text = {
        recorded: null,
        forbidden: notAllowedText(ask.answerers),
        duplicate: 'Someone changed this answer already; the first change counts. Nothing was changed.',
        closed: 'This answer can no longer be changed (its window has passed). Nothing was changed.',
        'not-assumed':
          'This question was answered by a person, so there is nothing to change. Nothing was changed.',
        'not-found': askClosedText(),
      }[result.status];
      if (text) await notify(client, deps.engine.log, target, text);
    });
  });
}

/** "Cancel it" in the confirmation of the menu's "Cancel…": the store checks the requester again. */
function registerCancelModal(app: App, deps: SlackHandlerDeps): void {
  app.view(CANCEL_MODAL_CALLBACK_ID, async ({ ack, body, client, context }) => {
    const checked = await checkedSubmission(deps, body, context.teamId);
    await ack();
    if (!checked) return;
    const { userId, metadata, ask } = checked;
    const target = { channel: metadata.channel, userId, threadTs: ask.conversation.threadTs };
    await reportFailure(deps, client, target, 'cancel failed', async () => {
      const result = await deps.engine.asks.cancel({
        turnId: metadata.turnId,
        askId: metadata.askId,
        userId,
      });
      if (result.status === 'forbidden')
        await notify(client, deps.engine.log, target, cancelNotAllowedText());
      else await reportTransition(deps, client, result, target, null);
    });
  });
}

/** Runs a follow-up after its modal closed; a failure is logged and told to the person (never thrown). */
async function reportFailure(
  deps: SlackHandlerDeps,
  client: Parameters<typeof notify>[0],
  target: Parameters<typeof notify>[2],
  what: string,
  run: () => Promise<void>,
): Promise<void> {
  try {
    await run();
  } catch (error) {
    deps.engine.log.error({ err: error, userId: target.userId }, what);
    await notify(
      client,
      deps.engine.log,
      target,
      error instanceof StateError ? stateUnreadableText() : temporarilyUnavailableText(),
    );
  }
}

/**
 * A follow-up modal's submission, checked like a click: its metadata parses, the ask exists, belongs to the
 * submitter's workspace (OAuth install mode) and its stored message is the one the modal names. Null (and a warning log line) otherwise.
 */
async function checkedSubmission(
  deps: SlackHandlerDeps,
  body: unknown,
  contextTeamId: string | undefined,
): Promise<{
  userId: string;
  metadata: NonNullable<ReturnType<typeof parseModalMetadata>>;
  ask: AskRecord;
  values: Record<string, Record<string, { value?: string | null | undefined; [key: string]: unknown }>>;
} | null> {
  const parsed = viewSubmissionBodySchema.safeParse(body);
  const metadata = parsed.success ? parseModalMetadata(parsed.data.view.private_metadata) : null;
  if (!parsed.success || !metadata) return null;
  const ask = await deps.engine.store.getAsk(metadata.turnId, metadata.askId);
  if (!ask) return null;
  if (
    !comesFromAskWorkspace(deps.scopeByTeam, ask, requestTeamOf(body, contextTeamId)) ||
    !comesFromAskMessage(ask, { channel: metadata.channel, messageTs: metadata.messageTs })
  ) {
    deps.engine.log.warn(
      { askId: metadata.askId, userId: parsed.data.user.id, channel: metadata.channel },
      'modal submission refused: its message does not show the ask it names',
    );
    return null;
  }
  return { userId: parsed.data.user.id, metadata, ask, values: parsed.data.view.state.values };
}
