import type { AskRecord } from '../asks/types.js';
import type { EngineDeps } from './engine-deps.js';
import type { ActivityTarget, ReplyStream, StreamTask } from './surface.js';
import type { TurnRecord } from './turn-record.js';

/**
 * Key of the stream of one stretch of a turn, `stream-<turnId>-<n>`: a stretch runs from the turn's start
 * (n = 0) or a resume to its next pause or end, and n counts the asks the turn opened before it.
 */
export function streamKey(turnId: string, stretch: number): string {
  return `stream-${turnId}-${stretch}`;
}

/** Key of the stream of the stretch a running or ended turn is in. */
export function currentStreamKey(turn: TurnRecord): string {
  return streamKey(turn.turnId, turn.askCount);
}

/**
 * The stream a running turn's text goes to, or null when replies do not stream (`streamReplies` off, or
 * a surface that cannot stream). Opening posts nothing.
 */
export function turnStream(deps: EngineDeps, turn: TurnRecord): ReplyStream | null {
  if (!deps.config.streamReplies || !deps.surface.openStream) return null;
  return deps.surface.openStream(turn.conversation, currentStreamKey(turn), turn.requestedBy);
}

/**
 * Ends the stream of the stretch that led to `ask` (the turn paused on it), with a last status line
 * saying what the turn waits for. A no-op when nothing streamed.
 */
export async function closeStreamBefore(deps: EngineDeps, turn: TurnRecord, ask: AskRecord): Promise<void> {
  if (!deps.config.streamReplies || !deps.surface.closeStream) return;
  await deps.surface.closeStream(turn.conversation, streamKey(turn.turnId, ask.ordinal), waitingTask(ask));
}

/**
 * The last status line of a stretch that paused: a finished step ("Asked a question"), since the stream
 * stops here and nothing updates it later; the ask's own message shows the wait and its outcome. Pure.
 */
export function waitingTask(ask: Pick<AskRecord, 'askId' | 'approval' | 'questions'>): StreamTask {
  const count = ask.questions.length;
  const title = ask.approval
    ? `Asked for approval to run ${ask.approval.calls.map((call) => call.toolName).join(', ')}`
    : count === 1
      ? 'Asked a question (below)'
      : `Asked ${count} questions (below)`;
  return { id: `ask-${ask.askId}`, title, status: 'complete' };
}

/** The status lines of a tool call: while it runs, and once it has a result. Pure. */
export function toolTask(
  call: { toolCallId: string; toolName: string },
  state: 'running' | 'ok' | 'error',
): StreamTask {
  const title =
    state === 'running'
      ? `Running ${call.toolName}`
      : state === 'ok'
        ? `Ran ${call.toolName}`
        : `${call.toolName} failed`;
  return {
    id: `tool-${call.toolCallId}`,
    title,
    status: state === 'running' ? 'in_progress' : state === 'ok' ? 'complete' : 'error',
  };
}

/** Where a turn's status shows. */
export function activityTarget(turn: Pick<TurnRecord, 'conversation' | 'triggerTs'>): ActivityTarget {
  return { conversation: turn.conversation, triggerTs: turn.triggerTs };
}
