import type { WebClient } from '@slack/web-api';
import { quorumOf } from '../../asks/follow-up.js';
import type { EngineLogger } from '../../asks/logger.js';
import type { AskRecord, AskTransitionResult } from '../../asks/types.js';
import { alreadyAnsweredText, askClosedText, notAllowedText } from '../blocks/render-notices.js';
import { syncAskMessage } from '../sync-ask-message.js';
import type { SlackHandlerDeps } from './handler-deps.js';

/** Where to show a person a private notice. */
export interface NoticeTarget {
  channel: string;
  userId: string;
  threadTs?: string | undefined;
}

/** Posts an ephemeral notice; failures are logged, never thrown (ephemerals are best effort in Slack). */
export async function notify(
  client: WebClient,
  log: EngineLogger,
  target: NoticeTarget,
  text: string,
): Promise<void> {
  try {
    await client.chat.postEphemeral({
      channel: target.channel,
      user: target.userId,
      text,
      ...(target.threadTs ? { thread_ts: target.threadTs } : {}),
    });
  } catch (error) {
    log.warn({ channel: target.channel, err: error }, 'ephemeral notice failed');
  }
}

/**
 * Brings the ask's message up to date for listeners ({@link syncAskMessage}: a fresh read, converging
 * whatever order clicks arrive in). A refused update is logged, never thrown (the answer is already stored).
 */
export async function syncAskMessageQuietly(
  deps: Pick<SlackHandlerDeps, 'engine' | 'marks' | 'homes'>,
  client: WebClient,
  ask: AskRecord,
): Promise<void> {
  const homes = deps.homes;
  try {
    await syncAskMessage(
      {
        client,
        marks: deps.marks,
        readAsk: () => deps.engine.store.getAsk(ask.scope, ask.askId),
        ...(homes ? { onDrawn: (drawn: AskRecord) => homes.askChanged(client, drawn) } : {}),
      },
      ask.askId,
      ask,
    );
  } catch (error) {
    deps.engine.log.warn({ askId: ask.askId, err: error }, 'could not update the ask message');
  }
}

/**
 * Shows the person what their answer did: the updated message when it was stored, or an ephemeral
 * ("already answered by @x", "not allowed", "closed") when it changed nothing.
 */
export async function reportTransition(
  deps: Pick<SlackHandlerDeps, 'engine' | 'marks' | 'homes'>,
  client: WebClient,
  result: AskTransitionResult,
  target: NoticeTarget,
  questionIndex: number | null,
): Promise<void> {
  const ask = result.ask;
  const log = deps.engine.log;
  switch (result.status) {
    case 'recorded':
    case 'completed':
      if (ask) await syncAskMessageQuietly(deps, client, ask);
      return;
    case 'already-resolved':
    case 'closed': {
      const resolution =
        ask && questionIndex !== null
          ? ask.resolutions[questionIndex]
          : ask?.resolutions.find((r) => r !== null);
      await notify(client, log, target, resolution ? alreadyAnsweredText(resolution) : askClosedText());
      return;
    }
    case 'forbidden':
      await notify(client, log, target, ask ? notAllowedText(ask.answerers) : askClosedText());
      return;
    case 'voted': {
      // Counted, not resolved yet: the message shows the tally; tell the voter where it stands.
      if (ask) await syncAskMessageQuietly(deps, client, ask);
      const votes = ask && questionIndex !== null ? Object.keys(ask.votes[questionIndex] ?? {}).length : 0;
      await notify(
        client,
        log,
        target,
        `Your choice is counted (${votes} so far; ${ask ? quorumOf(ask) : 2} matching ones are needed). It resolves when enough people agree.`,
      );
      return;
    }
    case 'duplicate':
      await notify(
        client,
        log,
        target,
        'You already chose on this question; each person counts once. Nothing was changed.',
      );
      return;
    case 'not-due':
    case 'not-found':
      await notify(client, log, target, askClosedText());
      return;
  }
}
