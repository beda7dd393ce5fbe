import type { RespondFn } from '@slack/bolt';
import type { WebClient } from '@slack/web-api';
import { submitTurn } from '../../agent/thread-admission.js';
import type { QuestionResolution } from '../../ask/types.js';
import type { ConversationRef } from '../../asks/conversation.js';
import { latestDeadline } from '../../asks/follow-up.js';
import type { AskRecord } from '../../asks/types.js';
import { encodeReplyValue, type ReplyAction } from '../blocks/action-ids.js';
import {
  renderReplyConfirm,
  replyAnswerableQuestion,
  replyDecidedText,
  replyDismissedText,
  replyGoneText,
  replyNotUsedText,
  replyNotYoursText,
  replyUsedText,
} from '../blocks/render-reply-confirm.js';
import type { HeldReply } from '../slack-marks.js';
import { slackTextToPlain } from '../slack-text.js';
import { inAllowedGroup, mayAnswer } from './answerer-check.js';
import { type NoticeTarget, notify, reportTransition } from './feedback.js';
import type { SlackHandlerDeps } from './handler-deps.js';
import { comesFromAskWorkspace, inAskThread } from './message-match.js';
import type { MessageEvent } from './payloads.js';

/** Most characters of a reply's text kept while it waits for its author's decision. */
export const HELD_REPLY_TEXT_MAX = 4000;
/** Most characters of a typed answer (as the answer modal allows). */
const ANSWER_TEXT_MAX = 3000;
/**
 * A held reply lives until the latest deadline a snooze could give the ask (`ASK_MAX_DEADLINE` after it was
 * shown) plus this, in ms (at least this long without a deadline).
 */
const HELD_REPLY_GRACE_MS = 3600 * 1000;
/** ...and never longer than this, in ms (7 days). */
const HELD_REPLY_MAX_MS = 7 * 24 * 3600 * 1000;

/** The free-text question a reply in a thread would answer now. */
export interface OpenFreeText {
  ask: AskRecord;
  questionIndex: number;
}

/**
 * The open free-text question of the ask the thread's turn waits on, when `event` is a reply in the
 * thread where that ask was asked; null otherwise.
 */
export async function openFreeTextFor(
  deps: SlackHandlerDeps,
  event: MessageEvent,
  threadKey: string,
): Promise<OpenFreeText | null> {
  if (!event.thread_ts) return null;
  const { store } = deps.engine;
  const holder = await store.threadHolder(threadKey);
  const turn = holder ? await store.getTurn(holder) : null;
  if (turn?.status !== 'paused' || !turn.pendingAskId) return null;
  const ask = await store.getAsk(turn.turnId, turn.pendingAskId);
  if (!ask || ask.status !== 'open') return null;
  if (!inAskThread(ask, event.channel, event.thread_ts)) {
    deps.engine.log.warn(
      { askId: ask.askId, channel: event.channel, threadTs: event.thread_ts },
      'thread reply not used as an answer: the ask was asked in another thread',
    );
    return null;
  }
  const questionIndex = replyAnswerableQuestion(ask);
  return questionIndex < 0 ? null : { ask, questionIndex };
}

/**
 * The question a held reply answers when its author clicks Use: the free-text question this very reply
 * already answered (a double click, here or in another process), else the question it was offered for
 * while that is still open, else the first free-text question still open (a second reply for a second
 * question); -1 when none is. Pure.
 */
export function questionForHeldReply(
  ask: Pick<AskRecord, 'status' | 'questions' | 'resolutions'>,
  offeredFor: number,
  userId: string,
  text: string,
): number {
  const usedHere = ask.resolutions.findIndex(
    (resolution) =>
      resolution?.source === 'thread_reply' &&
      resolution.answeredBy === userId &&
      resolution.other === text.slice(0, ANSWER_TEXT_MAX),
  );
  if (usedHere >= 0) return usedHere;
  if (ask.questions[offeredFor]?.kind === 'free_text' && ask.resolutions[offeredFor] === null)
    return offeredFor;
  return replyAnswerableQuestion(ask);
}

function replyResolution(deps: SlackHandlerDeps, userId: string, text: string): QuestionResolution {
  return {
    status: 'answered',
    selected: [],
    other: text.slice(0, ANSWER_TEXT_MAX),
    answeredBy: userId,
    answeredAt: new Date(deps.engine.now()).toISOString(),
    source: 'thread_reply',
    assumption: null,
  };
}

/**
 * A reply that mentions the bot in the ask's thread answers the open free-text question at once
 * (source `thread_reply`). Returns false when it is not the person's to answer (it is then conversation).
 */
export async function answerByMention(
  deps: SlackHandlerDeps,
  client: WebClient,
  event: MessageEvent,
  open: OpenFreeText,
): Promise<boolean> {
  const userId = event.user ?? '';
  const text = slackTextToPlain(event.text ?? '', deps.botUserId).trim();
  if (!text) return false;
  const { ask, questionIndex } = open;
  const result = await deps.engine.asks.answer({
    turnId: ask.scope,
    askId: ask.askId,
    questionIndex,
    resolution: replyResolution(deps, userId, text),
    inAllowedGroup: await inAllowedGroup(deps, client, ask, userId, deps.engine.now()),
  });
  if (result.status === 'forbidden') return false; // not theirs to answer: treat it as conversation
  await reportTransition(
    deps,
    client,
    result,
    { channel: event.channel, userId, threadTs: ask.conversation.threadTs },
    questionIndex,
  );
  return true;
}

/**
 * A reply without a mention while a free-text question is open: when its author may answer, it is held in
 * Redis and they are asked privately whether it is their answer (Use / Not an answer); nothing is stored
 * as an answer yet. Returns false when the author may not answer (the reply is then conversation).
 * @param follow whether "Not an answer" lets the reply continue the conversation
 */
export async function offerReplyAsAnswer(
  deps: SlackHandlerDeps,
  client: WebClient,
  event: MessageEvent,
  open: OpenFreeText,
  teamId: string | undefined,
  follow: boolean,
): Promise<boolean> {
  const userId = event.user ?? '';
  const { ask, questionIndex } = open;
  const text = event.text ?? '';
  const value = encodeReplyValue(event.channel, event.ts);
  if (!value || !slackTextToPlain(text, deps.botUserId).trim()) return false;
  if (!(await mayAnswer(deps, client, ask, userId, deps.engine.now()))) return false;
  const now = deps.engine.now();
  // Until the latest deadline a snooze could still give the ask, not only today's deadline.
  const until = Math.max(ask.deadline ?? now, latestDeadline(ask));
  const ttlMs = Math.min(HELD_REPLY_MAX_MS, Math.max(HELD_REPLY_GRACE_MS, until - now + HELD_REPLY_GRACE_MS));
  const held: HeldReply = {
    channel: event.channel,
    ts: event.ts,
    threadTs: event.thread_ts ?? event.ts,
    ...(teamId ? { teamId } : {}),
    userId,
    text: text.slice(0, HELD_REPLY_TEXT_MAX),
    turnId: ask.scope,
    askId: ask.askId,
    questionIndex,
    follow,
  };
  await deps.marks.holdReply(held, ttlMs);
  const question = ask.questions[questionIndex]?.question ?? '';
  const rendered = renderReplyConfirm(question, slackTextToPlain(text, deps.botUserId), value);
  try {
    await client.chat.postEphemeral({
      channel: event.channel,
      user: userId,
      thread_ts: held.threadTs,
      text: rendered.text,
      blocks: rendered.blocks,
    });
  } catch (error) {
    deps.engine.log.warn(
      { err: error, channel: event.channel, askId: ask.askId },
      'could not ask whether a thread reply is an answer',
    );
  }
  deps.engine.log.info(
    { channel: event.channel, askId: ask.askId, questionIndex },
    'thread reply held until its author confirms it as the answer',
  );
  return true;
}

/** Replaces the ephemeral the click came from; best effort (an old ephemeral may be gone). */
async function replaceEphemeral(deps: SlackHandlerDeps, respond: RespondFn | undefined, text: string) {
  if (!respond) return;
  try {
    await respond({ replace_original: true, text });
  } catch (error) {
    deps.engine.log.warn({ err: error }, 'could not replace the confirmation ephemeral');
  }
}

/**
 * A click on Use or Not an answer. The decision is recorded once in Redis (the first one stands, only the
 * reply's author may make it). Use then goes through the ask's answer step, which stores the answer only
 * when the ask is open, the question unanswered and the person allowed, and only once (a double click or a
 * second process gets "already answered"). Not an answer lets the reply go on as conversation where
 * replies do (DMs, `THREAD_FOLLOW=all`), exactly once.
 */
export async function handleReplyDecision(
  deps: SlackHandlerDeps,
  client: WebClient,
  input: {
    action: ReplyAction;
    userId: string;
    /** The channel the click came from (the ephemeral's). */
    channel: string | undefined;
    target: NoticeTarget;
    respond?: RespondFn | undefined;
    /** The workspace the click came from (see `requestTeamOf`). */
    requestTeam?: string | undefined;
  },
  ack: () => Promise<void>,
  afterAck: <T>(task: () => Promise<T>) => Promise<T>,
): Promise<void> {
  const { action, userId, target, respond } = input;
  if (input.channel !== undefined && input.channel !== action.channel) {
    await ack();
    await notify(client, deps.engine.log, target, replyGoneText());
    return;
  }
  const decided = await deps.marks.decideReply(action.channel, action.ts, action.decision, userId);
  if (!('reply' in decided)) {
    await ack();
    await notify(
      client,
      deps.engine.log,
      target,
      decided.status === 'forbidden' ? replyNotYoursText() : replyGoneText(),
    );
    return;
  }
  const { reply } = decided;
  if (decided.decision !== action.decision) {
    await ack();
    await replaceEphemeral(deps, respond, replyDecidedText(decided.decision));
    return;
  }
  const ask = await deps.engine.store.getAsk(reply.turnId, reply.askId);
  const text = slackTextToPlain(reply.text, deps.botUserId).trim();
  // Offered for the first open free-text question; by now that may be answered (by an earlier reply).
  const found = ask ? questionForHeldReply(ask, reply.questionIndex, userId, text) : -1;
  const questionIndex = found < 0 ? reply.questionIndex : found;
  const question = ask?.questions[questionIndex]?.question ?? '';
  const replyTarget: NoticeTarget = { channel: reply.channel, userId, threadTs: reply.threadTs };

  if (action.decision === 'dismiss') {
    await ack();
    // Only the click that made the decision lets the reply go on; a double click changes nothing.
    if (decided.status === 'decided' && reply.follow) await continueAsConversation(deps, reply);
    await replaceEphemeral(deps, respond, replyDismissedText(reply.follow));
    return;
  }

  if (!ask) {
    await ack();
    await replaceEphemeral(deps, respond, 'This question has closed; your reply was not used.');
    return;
  }
  if (!comesFromAskWorkspace(deps.scopeByTeam, ask, input.requestTeam)) {
    await ack();
    deps.engine.log.warn(
      { askId: reply.askId, userId, requestTeam: input.requestTeam, askTeam: ask.conversation.teamId },
      'reply decision refused: it comes from another workspace than its ask',
    );
    await replaceEphemeral(deps, respond, replyNotUsedText());
    return;
  }
  const result = await deps.engine.asks.record({
    turnId: reply.turnId,
    askId: reply.askId,
    questionIndex,
    resolution: replyResolution(deps, userId, text),
    inAllowedGroup: await inAllowedGroup(deps, client, ask, userId, deps.engine.now()),
  });
  // Stored (or refused): acknowledge, then resume the turn and update the messages.
  await ack();
  try {
    await afterAck(() => deps.engine.asks.continueAfter(result));
  } catch (error) {
    deps.engine.log.error(
      { err: error, askId: reply.askId },
      'answer stored but resume not added; the sweep will add it',
    );
  }
  // A double click (here or in another process) finds the question answered by this very reply: it was used.
  const standing = result.ask?.resolutions[questionIndex];
  const usedBefore =
    (result.status === 'already-resolved' || result.status === 'closed') &&
    standing?.source === 'thread_reply' &&
    standing.answeredBy === userId &&
    standing.other === text.slice(0, ANSWER_TEXT_MAX);
  const used = result.status === 'recorded' || result.status === 'completed' || usedBefore;
  await afterAck(async () => {
    await replaceEphemeral(deps, respond, used ? replyUsedText(question) : replyNotUsedText());
    if (!usedBefore) await reportTransition(deps, client, result, replyTarget, questionIndex);
  });
}

/** "Not an answer" where replies continue the conversation: the held reply starts or joins a turn. */
async function continueAsConversation(deps: SlackHandlerDeps, reply: HeldReply): Promise<void> {
  const conversation: ConversationRef = {
    surface: 'slack',
    channel: reply.channel,
    threadTs: reply.threadTs,
    teamId: reply.teamId,
    // OAuth install mode: the same thread key as the turns its mentions start (see `conversationOf`).
    ...(deps.scopeByTeam && reply.teamId ? { workspace: reply.teamId } : {}),
  };
  const admitted = await submitTurn(deps.engine, {
    turnId: deps.engine.newId(),
    conversation,
    requestedBy: reply.userId,
    trigger: { text: reply.text, ts: reply.ts, userId: reply.userId },
  });
  deps.engine.log.info(
    { channel: reply.channel, threadTs: reply.threadTs, how: 'reply', admitted },
    'turn submitted',
  );
}
