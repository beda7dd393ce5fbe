import type { App } from '@slack/bolt';
import type { WebClient } from '@slack/web-api';
import type { QuestionResolution } from '../../ask/types.js';
import { overridableQuestions, quorumOf } from '../../asks/follow-up.js';
import { APPROVAL_OPTIONS, type AskRecord } from '../../asks/types.js';
import { StateError } from '../../errors.js';
import {
  ACTION_ID_PATTERN,
  parseActionId,
  parseActionValue,
  parseMenuValue,
  parseReplyAction,
  selectedCheckboxIndexes,
  selectedRadioIndex,
} from '../blocks/action-ids.js';
import { renderAnswerModal } from '../blocks/render-answer-modal.js';
import { renderArgumentsModal } from '../blocks/render-arguments-modal.js';
import {
  renderCancelModal,
  renderChangeModal,
  renderDelegateModal,
} from '../blocks/render-follow-up-modals.js';
import {
  askClosedText,
  cancelNotAllowedText,
  notAllowedText,
  stateUnreadableText,
  temporarilyUnavailableText,
  wrongMessageText,
} from '../blocks/render-notices.js';
import { parseMessageRef } from '../message-ref.js';
import { askPostKey } from '../slack-marks.js';
import { inAllowedGroup, mayAnswer } from './answerer-check.js';
import { withBotOf } from './events.js';
import { type NoticeTarget, notify, reportTransition } from './feedback.js';
import type { SlackHandlerDeps } from './handler-deps.js';
import {
  comesFromAskMessage,
  comesFromAskWorkspace,
  comesFromInbox,
  requestTeamOf,
} from './message-match.js';
import { PostAckQueue } from './post-ack-queue.js';
import { handleReplyDecision } from './reply-answers.js';

/** Runs a task after the acks that are due. */
type Limiter = <T>(task: () => Promise<T>) => Promise<T>;

import { type BlockActionBody, blockActionBodySchema } from './payloads.js';

/**
 * Registers the listener for every holdpoint control (`action_id` starting with `hp.`): option buttons,
 * checkboxes or radio buttons and their Submit, "Other…"/"Answer" (open the modal), the ask's menu (snooze,
 * "Ask someone else…", "Cancel…"), the Cancel button of older messages, and Use / Not an answer on the
 * ephemeral that offers a thread reply as an answer.
 * Order for answers: store atomically, then ack (so an ack always means stored), then update the message.
 * A Redis failure still acks within Slack's 3 s and tells the person to click again.
 */
export function registerActionHandlers(app: App, sharedDeps: SlackHandlerDeps): void {
  // Slack calls made after an ack wait until the clicks that arrived are acked, so a burst is acked first.
  const postAck = new PostAckQueue();
  const afterAck: Limiter = (task) => postAck.run(task);
  app.action(ACTION_ID_PATTERN, async ({ ack, body, client, respond, context }) => {
    const deps = withBotOf(sharedDeps, context.botUserId);
    const requestTeam = requestTeamOf(body, context.teamId);
    let acked = false;
    postAck.arrived();
    const ackOnce = async () => {
      if (!acked) {
        acked = true;
        postAck.acked();
        await ack();
      }
    };
    const parsed = blockActionBodySchema.safeParse(body);
    if (!parsed.success) {
      await ackOnce();
      return;
    }
    const payload = parsed.data;
    const target = noticeTarget(payload);
    try {
      const first = payload.actions[0];
      const reply = first ? parseReplyAction(first.action_id, first.value) : null;
      if (reply)
        await handleReplyDecision(
          deps,
          client,
          {
            action: reply,
            userId: payload.user.id,
            channel: payload.container?.channel_id ?? payload.channel?.id,
            target,
            respond,
            requestTeam,
          },
          ackOnce,
          afterAck,
        );
      else await handleAction(deps, client, payload, target, ackOnce, afterAck, requestTeam);
    } catch (error) {
      deps.engine.log.error({ err: error, userId: payload.user.id }, 'action failed');
      await ackOnce();
      await notify(
        client,
        deps.engine.log,
        target,
        error instanceof StateError ? stateUnreadableText() : temporarilyUnavailableText(),
      );
    } finally {
      await ackOnce();
    }
  });
}

function noticeTarget(payload: BlockActionBody): NoticeTarget {
  return {
    channel: payload.container?.channel_id ?? payload.channel?.id ?? '',
    userId: payload.user.id,
    threadTs: payload.container?.thread_ts ?? payload.message?.thread_ts,
  };
}

async function handleAction(
  deps: SlackHandlerDeps,
  client: WebClient,
  payload: BlockActionBody,
  clickTarget: NoticeTarget,
  ack: () => Promise<void>,
  afterAck: Limiter,
  requestTeam: string | undefined,
): Promise<void> {
  let target = clickTarget;
  const action = payload.actions[0];
  const kind = action ? parseActionId(action.action_id) : null;
  // Ticking a checkbox or choosing a radio button changes nothing until Submit.
  if (!action || !kind || kind.kind === 'checks' || kind.kind === 'radio') return;
  // The menu's options carry their own value (ids and the item); every other control its button value.
  const menuChoice =
    kind.kind === 'more' ? parseMenuValue(action.selected_option?.value ?? action.value) : null;
  const ref = menuChoice ?? parseActionValue(action.value);
  if (!ref) return;
  const { store } = deps.engine;
  const userId = payload.user.id;
  const now = () => new Date(deps.engine.now()).toISOString();

  const ask = await store.getAsk(ref.turnId, ref.askId);
  // A click in the Home tab has no channel: its notices go to the ask's thread.
  if (!target.channel && ask) {
    target = {
      channel: ask.conversation.channel,
      userId,
      threadTs: ask.conversation.threadTs || parseMessageRef(ask.messageRef)?.ts,
    };
  }
  if (!ask) {
    await ack();
    await notify(client, deps.engine.log, target, askClosedText());
    return;
  }
  if (!comesFromAskWorkspace(deps.scopeByTeam, ask, requestTeam)) {
    // Another workspace's ask (OAuth install mode): refused like a click from the wrong message, and its
    // notice goes to the clicker's own workspace (the listener's client).
    await ack();
    deps.engine.log.warn(
      { askId: ref.askId, userId, requestTeam, askTeam: ask.conversation.teamId },
      'click refused: it comes from another workspace than its ask',
    );
    await notify(client, deps.engine.log, clickTarget, wrongMessageText());
    return;
  }
  const claimed = {
    channel: payload.container?.channel_id ?? payload.channel?.id,
    messageTs: payload.container?.message_ts ?? payload.message?.ts,
  };
  const fromInbox = comesFromInbox(ref.askId, {
    container: payload.container,
    view: payload.view,
    blockId: action.block_id,
  });
  if (!fromInbox && !comesFromAskMessage(ask, claimed) && !(await justPosted(deps, ask, claimed))) {
    await ack();
    deps.engine.log.warn(
      { askId: ref.askId, userId, ...claimed, storedMessage: ask.messageRef },
      'click refused: its message does not show the ask its control names',
    );
    await notify(client, deps.engine.log, target, wrongMessageText());
    return;
  }

  if (kind.kind === 'args') {
    // Anyone who sees the approval may read its arguments whole; nothing changes.
    const view = renderArgumentsModal(ask, kind.questionIndex ?? 0);
    await ack();
    if (view && payload.trigger_id) await client.views.open({ trigger_id: payload.trigger_id, view });
    return;
  }

  if (kind.kind === 'cancel') {
    const result = await deps.engine.asks.cancel({ turnId: ref.turnId, askId: ref.askId, userId });
    await ack();
    if (result.status === 'forbidden') {
      await notify(client, deps.engine.log, target, cancelNotAllowedText());
    } else {
      await reportTransition(deps, client, result, target, null);
    }
    return;
  }

  const messageTarget = () => {
    const messageRef = parseMessageRef(ask.messageRef);
    return {
      channel: messageRef?.channel ?? target.channel,
      messageTs: messageRef?.ts ?? payload.container?.message_ts ?? '',
    };
  };

  if (kind.kind === 'more') {
    const chosen = menuChoice;
    if (!chosen) {
      await ack();
      return;
    }
    if (chosen.item.kind === 'cancel') {
      // Shown to everyone, checked here (and again by the store on submit): only the requester may cancel.
      if (ask.status !== 'open') {
        await ack();
        await reportTransition(deps, client, { status: 'already-resolved', ask }, target, null);
        return;
      }
      if (userId !== ask.requestedBy) {
        await ack();
        await notify(client, deps.engine.log, target, cancelNotAllowedText());
        return;
      }
      const view = renderCancelModal(ask, messageTarget());
      await ack();
      if (payload.trigger_id) await client.views.open({ trigger_id: payload.trigger_id, view });
      return;
    }
    if (chosen.item.kind === 'delegate') {
      if (ask.status !== 'open' || !(await mayAnswer(deps, client, ask, userId, deps.engine.now()))) {
        await ack();
        await notify(
          client,
          deps.engine.log,
          target,
          ask.status === 'open' ? notAllowedText(ask.answerers) : askClosedText(),
        );
        return;
      }
      const view = renderDelegateModal(ask, messageTarget());
      await ack();
      if (payload.trigger_id) await client.views.open({ trigger_id: payload.trigger_id, view });
      return;
    }
    const result = await deps.engine.asks.extend({
      turnId: ref.turnId,
      askId: ref.askId,
      userId,
      choiceIndex: chosen.item.index,
      inAllowedGroup: await inAllowedGroup(deps, client, ask, userId, deps.engine.now()),
    });
    await ack();
    if (result.status === 'extended') return; // the message now says who extended it, and to when
    const text =
      result.status === 'forbidden'
        ? notAllowedText(ask.answerers)
        : result.status === 'at-limit'
          ? 'The deadline is already as late as it can be (ASK_MAX_DEADLINE). Nothing was changed.'
          : result.status === 'invalid'
            ? 'That choice is no longer offered. Nothing was changed.'
            : 'Too late to extend: this question has resolved or its deadline has passed. Nothing was changed.';
    await notify(client, deps.engine.log, target, text);
    return;
  }

  const questionIndex = kind.questionIndex ?? 0;

  if (kind.kind === 'change') {
    const now = deps.engine.now();
    if (!overridableQuestions(ask, now).includes(questionIndex)) {
      await ack();
      await notify(
        client,
        deps.engine.log,
        target,
        'This answer can no longer be changed. Nothing was changed.',
      );
      return;
    }
    if (!(await mayAnswer(deps, client, ask, userId, now))) {
      await ack();
      await notify(client, deps.engine.log, target, notAllowedText(ask.answerers));
      return;
    }
    const view = renderChangeModal(ask, questionIndex, messageTarget());
    await ack();
    if (payload.trigger_id) await client.views.open({ trigger_id: payload.trigger_id, view });
    return;
  }

  if (kind.kind === 'other' || kind.kind === 'answer') {
    const resolution = ask.resolutions[questionIndex];
    if (ask.status !== 'open' || resolution) {
      await ack();
      await reportTransition(deps, client, { status: 'already-resolved', ask }, target, questionIndex);
      return;
    }
    if (!(await mayAnswer(deps, client, ask, userId, deps.engine.now()))) {
      await ack();
      await notify(client, deps.engine.log, target, notAllowedText(ask.answerers));
      return;
    }
    const messageRef = parseMessageRef(ask.messageRef);
    const view = renderAnswerModal(ask, questionIndex, {
      channel: messageRef?.channel ?? target.channel,
      messageTs: messageRef?.ts ?? payload.container?.message_ts ?? '',
    });
    await ack();
    if (payload.trigger_id) await client.views.open({ trigger_id: payload.trigger_id, view });
    return;
  }

  const question = ask.questions[questionIndex];
  if (!question?.options) {
    await ack();
    return;
  }
  let selected: string[];
  if (kind.kind === 'submit') {
    // An empty Submit is refused with a hint: it would record "Nothing selected" as a person's answer.
    const radio = question.multiSelect ? null : selectedRadioIndex(payload.state?.values, questionIndex);
    const indexes =
      radio !== null ? [radio] : (selectedCheckboxIndexes(payload.state?.values, questionIndex) ?? []);
    selected = indexes.flatMap((index) => (question.options?.[index] ? [question.options[index].label] : []));
    if (selected.length === 0) {
      await ack();
      await notify(
        client,
        deps.engine.log,
        target,
        question.multiSelect
          ? 'Pick at least one option, then press Submit. Nothing was changed.'
          : 'Pick an option, then press Submit. Nothing was changed.',
      );
      return;
    }
  } else {
    const option = kind.optionIndex === null ? undefined : question.options[kind.optionIndex];
    if (!option) {
      await ack();
      return;
    }
    selected = [option.label];
  }
  const resolution: QuestionResolution = {
    status: 'answered',
    selected,
    other: null,
    answeredBy: userId,
    answeredAt: now(),
    source: 'button',
    assumption: null,
  };
  const result = await deps.engine.asks.record({
    turnId: ref.turnId,
    askId: ref.askId,
    questionIndex,
    resolution,
    inAllowedGroup: await inAllowedGroup(deps, client, ask, userId, deps.engine.now()),
    // A quorum counts distinct people; an approval's Deny decides at once.
    quorum: quorumOf(ask),
    decisive:
      ask.approval !== null && ask.approval !== undefined && !selected.includes(APPROVAL_OPTIONS.approve),
  });
  // The answer is stored: acknowledge now, then add the resume and update the message. Both wait until the
  // acks already due have gone out (at once when no other click is in flight).
  await ack();
  try {
    await afterAck(() => deps.engine.asks.continueAfter(result));
  } catch (error) {
    deps.engine.log.error(
      { err: error, askId: ref.askId },
      'answer stored but resume not added; the sweep will add it',
    );
  }
  await afterAck(() => reportTransition(deps, client, result, target, questionIndex));
}

/**
 * A click on an ask whose message was posted but not yet recorded as shown (the post mark has the `ts` as
 * soon as Slack returned it; marking the ask shown follows a moment later): the click counts when it comes
 * from exactly that message.
 */
async function justPosted(
  deps: SlackHandlerDeps,
  ask: AskRecord,
  claimed: { channel: string | undefined; messageTs: string | undefined },
): Promise<boolean> {
  if (ask.messageRef !== null || !claimed.messageTs) return false;
  const ts = await deps.marks.getPost(askPostKey(ask.askId));
  return claimed.channel === ask.conversation.channel && ts === claimed.messageTs;
}
