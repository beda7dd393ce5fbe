/**
 * The load generator of bench section 6: signed clicks POSTed with `node:http` over a keep-alive agent that
 * holds one socket per concurrent click, so a burst of 50 costs the sender about what Slack's own senders
 * cost (an already open connection each, one write). `fetch` (undici) costs this process about 0.3 ms of CPU
 * per request on this machine; with 50 sent at once from one process, that alone put 15-20 ms into the p99 it
 * measured, on top of whatever the server did.
 */
import { Agent, request } from 'node:http';
import type { SignedSlackRequest } from '../test/support/slack-payloads.js';

/** A keep-alive client for one server: `post` resolves with the status once the whole response is read. */
export interface ClickClient {
  /** POSTs `signed` to the client's URL; resolves with the HTTP status. */
  post(signed: SignedSlackRequest): Promise<number>;
  /** Closes the sockets. */
  close(): void;
}

/**
 * @param url the app's Slack request URL (`http://host:port/slack/events`).
 * @param sockets sockets kept open (the burst size).
 */
export function clickClient(url: string, sockets: number): ClickClient {
  const target = new URL(url);
  const agent = new Agent({ keepAlive: true, maxSockets: sockets, maxFreeSockets: sockets });
  return {
    post: (signed) =>
      new Promise<number>((resolve, reject) => {
        const body = Buffer.from(signed.body);
        const outgoing = request(
          {
            agent,
            method: 'POST',
            host: target.hostname,
            port: target.port,
            path: target.pathname,
            headers: { ...signed.headers, 'content-length': body.length },
          },
          (response) => {
            response.resume();
            response.on('end', () => resolve(response.statusCode ?? 0));
            response.on('error', reject);
          },
        );
        outgoing.on('error', reject);
        outgoing.end(body);
      }),
    close: () => agent.destroy(),
  };
}
