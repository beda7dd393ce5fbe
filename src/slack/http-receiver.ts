import type { IncomingMessage, ServerResponse } from 'node:http';
import { type App, HTTPModuleFunctions, type Receiver } from '@slack/bolt';
import type { Logger } from 'pino';
import { dispatchEnvelope, type EnvelopeReply } from './dispatch-envelope.js';

/** Options of {@link SlackHttpReceiver}. */
export interface SlackHttpReceiverOptions {
  /** Requests are verified with it (HMAC-SHA256 of `v0:<timestamp>:<body>`, 5 minute replay window; Bolt's check). */
  signingSecret: string;
  logger: Logger;
  /**
   * Largest body read, in bytes (default {@link SLACK_BODY_LIMIT}). The body is read before its signature
   * can be checked, so this bounds what an unsigned request can make the process hold.
   */
  bodyLimit?: number;
  /** Epoch ms (tests). */
  now?: () => number;
}

/**
 * 1 MiB: Slack's largest payloads (a `block_actions` carrying a 50-block message and its state, a modal
 * submission) are a few hundred KB at most; Bolt's default is 4 MB.
 */
export const SLACK_BODY_LIMIT = 1024 * 1024;

/**
 * How far a request's `X-Slack-Request-Timestamp` may be ahead of our clock, in seconds. Bolt refuses old
 * timestamps (5 minutes) but not future ones, so a captured request stamped a year ahead could be replayed
 * for a year.
 */
export const MAX_CLOCK_AHEAD_SEC = 5 * 60;

/**
 * Bolt's HTTP transport, ours: it verifies and parses with Bolt's own functions (`HTTPModuleFunctions`),
 * answers `ssl_check` and `url_verification`, and hands everything else to {@link dispatchEnvelope}.
 * Unlike Bolt's `HTTPReceiver`, whose request handling runs in a promise nobody awaits (a throw inside it
 * ends the process), {@link requestListener} returns a promise that never rejects, and a request no
 * listener acks is answered as soon as Bolt is done instead of after 3 s. The HTTP server is the
 * process's own (see `server/ops-server.ts`); `start`/`stop` have nothing to do.
 */
export class SlackHttpReceiver implements Receiver {
  #app: App | undefined;
  readonly #options: SlackHttpReceiverOptions;

  constructor(options: SlackHttpReceiverOptions) {
    this.#options = options;
  }

  init(app: App): void {
    this.#app = app;
  }

  async start(): Promise<void> {}

  async stop(): Promise<void> {}

  /** Handles one `POST /slack/events`. Resolves once the request is answered and Bolt is done; never rejects. */
  readonly requestListener = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const log = this.#options.logger;
    try {
      await this.#handle(req, res);
    } catch (error) {
      log.warn({ err: error }, 'Slack request failed');
      if (!res.headersSent) HTTPModuleFunctions.buildNoBodyResponse(res, 500);
    }
  };

  async #handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const log = this.#options.logger;
    const header = req.headers['x-slack-request-timestamp'];
    const stamp = typeof header === 'string' ? Number(header) : Number.NaN;
    const nowSec = Math.floor((this.#options.now?.() ?? Date.now()) / 1000);
    if (!Number.isFinite(stamp) || stamp - nowSec > MAX_CLOCK_AHEAD_SEC) {
      log.warn(
        { timestamp: String(stamp) },
        'Slack request not verified: timestamp missing or in the future',
      );
      HTTPModuleFunctions.buildNoBodyResponse(res, 401);
      req.resume();
      return;
    }
    let buffered: Awaited<ReturnType<typeof HTTPModuleFunctions.parseAndVerifyHTTPRequest>>;
    try {
      buffered = await HTTPModuleFunctions.parseAndVerifyHTTPRequest(
        {
          enabled: true,
          signingSecret: this.#options.signingSecret,
          bodyLimit: this.#options.bodyLimit ?? SLACK_BODY_LIMIT,
        },
        req,
      );
    } catch (error) {
      const tooLarge =
        HTTPModuleFunctions.isRawBodyError(error) &&
        ((error as { statusCode?: number }).statusCode === 413 ||
          (error as { type?: string }).type === 'entity.too.large');
      log.warn(
        { reason: error instanceof Error ? error.message : String(error) },
        tooLarge ? 'Slack request body too large' : 'Slack request not verified',
      );
      HTTPModuleFunctions.buildNoBodyResponse(res, tooLarge ? 413 : 401);
      return;
    }
    let body: unknown;
    try {
      body = HTTPModuleFunctions.parseHTTPRequestBody(buffered);
    } catch (error) {
      log.warn(
        { reason: error instanceof Error ? error.message : String(error) },
        'Slack request body unreadable',
      );
      HTTPModuleFunctions.buildNoBodyResponse(res, 400);
      return;
    }
    if (typeof body === 'object' && body !== null) {
      const fields = body as { ssl_check?: unknown; type?: unknown; challenge?: unknown };
      if (fields.ssl_check === '1') {
        HTTPModuleFunctions.buildSSLCheckResponse(res);
        return;
      }
      if (fields.type === 'url_verification' && typeof fields.challenge === 'string') {
        HTTPModuleFunctions.buildUrlVerificationResponse(res, { challenge: fields.challenge });
        return;
      }
    }
    const app = this.#app;
    if (!app) {
      HTTPModuleFunctions.buildNoBodyResponse(res, 503);
      return;
    }
    await dispatchEnvelope(
      app,
      {
        body,
        retryNum: HTTPModuleFunctions.extractRetryNumFromHTTPRequest(req),
        retryReason: HTTPModuleFunctions.extractRetryReasonFromHTTPRequest(req),
      },
      httpReply(res),
      log,
    );
  }
}

/** Answers over the HTTP response: 200 with the ack's payload (JSON or text), 400 for a refusal. */
function httpReply(res: ServerResponse): EnvelopeReply {
  let answered = false;
  return {
    answered: () => answered || res.headersSent,
    async ack(response?: unknown) {
      answered = true;
      HTTPModuleFunctions.buildContentResponse(res, response);
    },
    async refuse() {
      answered = true;
      HTTPModuleFunctions.buildNoBodyResponse(res, 400);
    },
  };
}
