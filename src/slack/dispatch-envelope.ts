import type { App } from '@slack/bolt';
import type { Logger } from 'pino';
import { checkSlackEnvelope } from './envelope.js';

/** How a receiver answers Slack for one request: `ack` with an optional response body, or `refuse`. */
export interface EnvelopeReply {
  /** Acknowledges (HTTP 200, or the Socket Mode ack) with an optional response payload. Called at most once. */
  ack(response?: unknown): Promise<void>;
  /** Refuses a malformed request (HTTP 400; Socket Mode acks it, so Slack does not redeliver it). */
  refuse(): Promise<void>;
  /** True once `ack` or `refuse` ran. */
  answered(): boolean;
}

/** One request as a receiver hands it over: the parsed body and Slack's retry headers. */
export interface IncomingEnvelope {
  body: unknown;
  retryNum?: number | undefined;
  retryReason?: string | undefined;
}

/**
 * Hands one verified Slack request to Bolt, shielded on both sides. Shared by the HTTP and Socket Mode
 * receivers, so both treat a bad body alike:
 * - a body that fails {@link checkSlackEnvelope} never reaches Bolt: refused at once, one warning line;
 * - anything Bolt throws (it dispatches nothing after such a throw) is caught: refused if not yet
 *   answered, one warning line; never an unhandled rejection;
 * - a request no listener acknowledged (an interaction type we do not handle) is acked as soon as Bolt
 *   is done with it, instead of waiting Slack's 3 s for a timeout answer.
 * Never throws.
 */
export async function dispatchEnvelope(
  app: App,
  envelope: IncomingEnvelope,
  reply: EnvelopeReply,
  log: Logger,
): Promise<void> {
  const checked = checkSlackEnvelope(envelope.body);
  if (!checked.ok) {
    log.warn({ kind: checked.kind, problem: checked.problem }, 'malformed Slack request refused');
    await answerQuietly(() => reply.refuse(), log);
    return;
  }
  try {
    await app.processEvent({
      body: envelope.body as Record<string, unknown>,
      ack: async (response?: unknown) => {
        if (!reply.answered()) await reply.ack(response);
      },
      retryNum: envelope.retryNum,
      retryReason: envelope.retryReason,
      customProperties: {},
    });
  } catch (error) {
    log.warn(
      { kind: checked.kind, reason: error instanceof Error ? error.message : String(error) },
      'Slack request Bolt could not process; refused',
    );
    if (!reply.answered()) await answerQuietly(() => reply.refuse(), log);
    return;
  }
  if (!reply.answered()) await answerQuietly(() => reply.ack(), log);
}

async function answerQuietly(answer: () => Promise<void>, log: Logger): Promise<void> {
  try {
    await answer();
  } catch (error) {
    log.warn({ err: error }, 'could not answer a Slack request');
  }
}
