import type { IncomingMessage, ServerResponse } from 'node:http';
import { App, type AppOptions } from '@slack/bolt';
import type { Logger } from 'pino';
import { registerActionHandlers } from './handlers/actions.js';
import { registerEventHandlers, registerUninstallHandlers } from './handlers/events.js';
import type { SlackHandlerDeps } from './handlers/handler-deps.js';
import { registerHomeHandlers } from './handlers/home.js';
import { registerViewHandlers } from './handlers/views.js';
import { SlackHttpReceiver } from './http-receiver.js';
import { slackLogger } from './slack-logger.js';
import { SlackSocketReceiver } from './socket-receiver.js';
import { slackClientOptions } from './web-client.js';

/** Bolt's `authorize` option. */
type AuthorizeFn = NonNullable<AppOptions['authorize']>;

/** The path Slack posts events and interactions to in HTTP mode. */
export const SLACK_EVENTS_PATH = '/slack/events';

/** Options of {@link createSlackApp}. */
export interface SlackAppOptions {
  /** Single-workspace mode's bot token; ignored when {@link SlackAppOptions.installationStore} is set. */
  botToken: string;
  /**
   * OAuth install mode: Bolt authorizes every request from this store (the team's installation), so each
   * listener's `client` carries that team's bot token. HTTP mode only.
   */
  authorize?: AuthorizeFn | undefined;
  /** Socket Mode when set (`xapp-…`). */
  appToken?: string | undefined;
  /** Required in HTTP mode: requests are verified with it (HMAC-SHA256, 5 minute replay window). */
  signingSecret?: string | undefined;
  /** Web API base URL override (proxies, tests), ending in `/api/`. */
  apiUrl?: string | undefined;
  /** The bot's user and bot ids (from `auth.test`), so Bolt skips its own start-up check. */
  botUserId: string;
  botId: string;
  handlers: Omit<SlackHandlerDeps, 'botUserId'>;
  logger: Logger;
  /** Socket Mode: how long `start` waits for the socket, in ms (default 30 s). */
  connectTimeoutMs?: number | undefined;
  /** Socket Mode: the socket cannot come back after a drop (see `SlackSocketReceiverOptions.onGiveUp`). */
  onGiveUp?: ((message: string, error: unknown) => void) | undefined;
}

/** A Bolt app wired to holdpoint's listeners. */
export interface SlackApp {
  app: App;
  mode: 'socket' | 'http';
  /**
   * In HTTP mode, the Node request listener for {@link SLACK_EVENTS_PATH} (signature-checked by Bolt);
   * mount it in the process's HTTP server. Null in Socket Mode.
   */
  requestListener: ((req: IncomingMessage, res: ServerResponse) => Promise<void>) | null;
  /** Socket Mode: connects the WebSocket. HTTP mode: nothing to do (the server is ours). */
  start(): Promise<void>;
  stop(): Promise<void>;
  /** Socket Mode: the socket is connected. HTTP mode: always true once constructed. */
  connected(): boolean;
}

/**
 * Builds the Bolt 5 app: Socket Mode when an app token is given, else HTTP mode with request signing.
 * @throws Error from Bolt when the signing secret is missing in HTTP mode.
 */
export function createSlackApp(options: SlackAppOptions): SlackApp {
  const logger = slackLogger(options.logger);
  const clientOptions = slackClientOptions(options.apiUrl);
  const deps: SlackHandlerDeps = { ...options.handlers, botUserId: options.botUserId };
  let connected = false;

  let receiver: SlackSocketReceiver | SlackHttpReceiver;
  let requestListener: SlackApp['requestListener'] = null;
  let mode: SlackApp['mode'];
  if (options.appToken) {
    mode = 'socket';
    const socket = new SlackSocketReceiver({
      appToken: options.appToken,
      logger: options.logger,
      slackLogger: logger,
      clientOptions,
      ...(options.connectTimeoutMs !== undefined ? { connectTimeoutMs: options.connectTimeoutMs } : {}),
      ...(options.onGiveUp ? { onGiveUp: options.onGiveUp } : {}),
    });
    socket.client.on('connected', () => {
      connected = true;
    });
    socket.client.on('disconnected', () => {
      connected = false;
    });
    // A refused or dropped socket (e.g. `too_many_websockets`) must never crash the process:
    // the client reconnects with backoff; we log and report not ready meanwhile.
    socket.client.on('error', (error: unknown) => {
      connected = false;
      options.logger.error({ err: error }, 'Slack Socket Mode error; reconnecting');
    });
    receiver = socket;
  } else {
    mode = 'http';
    const http = new SlackHttpReceiver({
      signingSecret: options.signingSecret ?? '',
      logger: options.logger,
    });
    requestListener = http.requestListener;
    connected = true;
    receiver = http;
  }
  const app = new App({
    ...(options.authorize
      ? { authorize: options.authorize }
      : { token: options.botToken, botId: options.botId, botUserId: options.botUserId }),
    receiver,
    clientOptions,
    logger,
    // No conversation state in process memory (it would be wrong across processes anyway).
    convoStore: false,
  });

  app.error(async (error) => {
    options.logger.error({ err: error }, 'unhandled error in a Slack listener');
  });
  registerEventHandlers(app, deps);
  registerUninstallHandlers(app, deps);
  registerActionHandlers(app, deps);
  registerViewHandlers(app, deps);
  registerHomeHandlers(app, deps);

  return {
    app,
    mode,
    requestListener,
    async start() {
      if (mode === 'socket') await app.start();
    },
    async stop() {
      if (mode === 'socket') await app.stop();
    },
    connected: () => connected,
  };
}
