import type { App, Receiver } from '@slack/bolt';
import { SocketModeClient, type SocketModeOptions } from '@slack/socket-mode';
import type { AppsConnectionsOpenResponse } from '@slack/web-api';
import type { Logger } from 'pino';
import { SystemError } from '../errors.js';
import { dispatchEnvelope, type EnvelopeReply } from './dispatch-envelope.js';

/**
 * The Socket Mode client with its message handler shielded: the library parses each WebSocket frame in
 * an async handler nobody awaits, so a frame it cannot read (`null`, an `events_api` frame without a
 * payload) would reject unhandled and end the process. Here such a frame is logged and dropped.
 */
class ShieldedSocketModeClient extends SocketModeClient {
  readonly #log: Logger;
  readonly #onGiveUp: (error: unknown) => void;
  #connectedOnce = false;

  constructor(options: SocketModeOptions, log: Logger, onGiveUp: (error: unknown) => void) {
    super(options);
    this.#log = log;
    this.#onGiveUp = onGiveUp;
    this.on('connected', () => {
      this.#connectedOnce = true;
    });
  }

  /**
   * The library reconnects by calling `start` again and leaves its rejection unhandled (a refused token
   * after a drop, an API that stays unreachable). After the first connection, such a failure is handed to
   * the receiver's `onGiveUp` instead, which stops the process with a clear line.
   */
  override async start(): Promise<AppsConnectionsOpenResponse> {
    try {
      return await super.start();
    } catch (error) {
      if (!this.#connectedOnce) throw error;
      this.#onGiveUp(error);
      return new Promise<never>(() => undefined);
    }
  }

  protected override async onWebSocketMessage(data: string | ArrayBuffer, isBinary: boolean): Promise<void> {
    try {
      await super.onWebSocketMessage(data, isBinary);
    } catch (error) {
      this.#log.warn(
        { reason: error instanceof Error ? error.message : String(error) },
        'unreadable Socket Mode message dropped',
      );
    }
  }
}

/** Options of {@link SlackSocketReceiver}. */
export interface SlackSocketReceiverOptions {
  /** The app-level token (`xapp-…`, scope `connections:write`). */
  appToken: string;
  logger: Logger;
  /** Bolt-shaped logger for the Socket Mode client's own lines. */
  slackLogger: NonNullable<SocketModeOptions['logger']>;
  /** Web API options for `apps.connections.open` (e.g. `slackApiUrl`). */
  clientOptions?: SocketModeOptions['clientOptions'];
  /** How long `start` waits for the socket, in ms (default {@link SOCKET_CONNECT_TIMEOUT_MS}). */
  connectTimeoutMs?: number;
  /**
   * Called once when a reconnect after a drop failed for good (Slack refused the app token, or could not be
   * reached after the retries), with a message that says what to fix. Default: log it as an error.
   */
  onGiveUp?: (message: string, error: unknown) => void;
}

/** How long a start waits for Slack's hello on the socket, in ms (30 s). */
export const SOCKET_CONNECT_TIMEOUT_MS = 30_000;

/**
 * Bolt's Socket Mode transport, ours: every envelope goes through {@link dispatchEnvelope} (the same
 * checks as HTTP mode: a malformed body is acked and dropped with a warning, so Slack does not redeliver
 * it; a request no listener acks is acked when Bolt is done), and no frame can end the process.
 */
export class SlackSocketReceiver implements Receiver {
  #app: App | undefined;
  readonly #connectTimeoutMs: number;
  #gaveUp = false;
  readonly client: SocketModeClient;

  constructor(options: SlackSocketReceiverOptions) {
    this.#connectTimeoutMs = options.connectTimeoutMs ?? SOCKET_CONNECT_TIMEOUT_MS;
    this.client = new ShieldedSocketModeClient(
      {
        appToken: options.appToken,
        logger: options.slackLogger,
        clientOptions: options.clientOptions ?? {},
      },
      options.logger,
      (error) => {
        if (this.#gaveUp) return;
        this.#gaveUp = true;
        const message = giveUpMessage(error);
        if (options.onGiveUp) options.onGiveUp(message, error);
        else options.logger.error({ err: error }, message);
      },
    );
    this.client.on('slack_event', (args: SocketEventArgs) => {
      const app = this.#app;
      if (!app) return;
      void dispatchEnvelope(
        app,
        { body: args.body, retryNum: args.retry_num, retryReason: args.retry_reason },
        socketReply(args.ack),
        options.logger,
      );
    });
  }

  init(app: App): void {
    this.#app = app;
  }

  /**
   * Connects the socket, within `connectTimeoutMs` (default {@link SOCKET_CONNECT_TIMEOUT_MS}).
   * @throws SystemError `slack_socket_timeout` when Slack did not say hello in time (the client is stopped).
   */
  async start(): Promise<unknown> {
    let timer: NodeJS.Timeout | undefined;
    const timeoutMs = this.#connectTimeoutMs;
    try {
      return await Promise.race([
        this.client.start(),
        new Promise<never>((_, reject) => {
          timer = setTimeout(
            () =>
              reject(
                new SystemError(
                  'slack_socket_timeout',
                  `the Socket Mode connection did not open within ${Math.round(timeoutMs / 1000)} s (Slack gave a URL but never said hello). Check that outbound WebSockets (wss://wss-primary.slack.com) are allowed.`,
                ),
              ),
            timeoutMs,
          );
        }),
      ]);
    } catch (error) {
      await this.client.disconnect().catch(() => undefined);
      throw error;
    } finally {
      clearTimeout(timer);
    }
  }

  async stop(): Promise<unknown> {
    return this.client.disconnect();
  }
}

/** What to say when the socket cannot come back: a refused token needs a new one; otherwise the network. */
function giveUpMessage(error: unknown): string {
  const failure = error as { code?: unknown; data?: { error?: unknown }; message?: unknown };
  if (failure.code === 'slack_webapi_platform_error')
    return `Slack refused SLACK_APP_TOKEN while reconnecting Socket Mode (apps.connections.open: ${String(failure.data?.error ?? 'error')}); create a new app-level token with connections:write and restart`;
  return `Socket Mode could not reconnect to Slack (${String(failure.message ?? error)}); check the network, a proxy, or SLACK_API_URL, and restart`;
}

/** What the Socket Mode client emits as `slack_event` (its `SocketModeClient.onWebSocketMessage`). */
interface SocketEventArgs {
  ack: (response?: unknown) => Promise<void>;
  body: unknown;
  retry_num?: number;
  retry_reason?: string;
}

/** Socket Mode has no status codes: a refusal is an empty ack, so Slack stops redelivering the envelope. */
function socketReply(ack: SocketEventArgs['ack']): EnvelopeReply {
  let answered = false;
  return {
    answered: () => answered,
    async ack(response?: unknown) {
      answered = true;
      await ack(response);
    },
    async refuse() {
      answered = true;
      await ack();
    },
  };
}
