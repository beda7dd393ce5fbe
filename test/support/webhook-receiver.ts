import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { verifyWebhook } from '../../src/api/webhook-signature.js';

/** One webhook delivery as a receiver saw it: its delivery id, whether its signature checked out, its body. */
export interface ReceivedWebhook {
  delivery: string;
  valid: boolean;
  body: Record<string, unknown>;
  at: number;
}

/** A local webhook receiver (127.0.0.1, a free port) recording every delivery. */
export interface WebhookReceiver {
  /** `http://127.0.0.1:<port>/hook` */
  url: string;
  received: ReceivedWebhook[];
  close(): Promise<void>;
}

/**
 * Starts a receiver that checks each delivery's signature with `secret` (as a real receiver would) and
 * lets `respond` answer it (`index` counts deliveries from 0): e.g. a 500 first, or no answer at all.
 */
export async function startWebhookReceiver(
  secret: string,
  respond: (index: number, res: ServerResponse) => void,
): Promise<WebhookReceiver> {
  const received: ReceivedWebhook[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => {
      body += chunk;
    });
    req.on('end', () => {
      received.push({
        delivery: String(req.headers['x-holdpoint-delivery']),
        valid: verifyWebhook(
          secret,
          {
            timestamp: req.headers['x-holdpoint-timestamp'] as string,
            signature: req.headers['x-holdpoint-signature'] as string,
          },
          body,
          Math.floor(Date.now() / 1000),
        ),
        body: JSON.parse(body) as Record<string, unknown>,
        at: Date.now(),
      });
      respond(received.length - 1, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
