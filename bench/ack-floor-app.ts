/**
 * The floor lines of bench section 6, in a process of their own like the app: `bolt` serves `POST` with Bolt
 * behind holdpoint's HTTP transport (signature check and body parsing by Bolt's `HTTPModuleFunctions`, then
 * Bolt's middleware and listener dispatch) and one action listener that only acks; `http` answers every
 * request 200 at once with Node's HTTP server. Prints `{ "url": ... }` on stdout, runs until SIGTERM.
 * Usage: `node --import tsx bench/ack-floor-app.ts bolt|http <signing secret>`.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { App, LogLevel } from '@slack/bolt';
import pino from 'pino';
import { SlackHttpReceiver } from '../src/slack/http-receiver.js';

const [kind = 'http', secret = ''] = process.argv.slice(2);
let listener: (req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse) => void;
if (kind === 'bolt') {
  const receiver = new SlackHttpReceiver({ signingSecret: secret, logger: pino({ level: 'warn' }) });
  const app = new App({
    receiver,
    token: 'xoxb-floor',
    botId: 'B0FLOOR',
    botUserId: 'U0FLOOR',
    tokenVerificationEnabled: false,
    logLevel: LogLevel.ERROR,
    convoStore: false,
  });
  app.action(/^hp\./, async ({ ack }) => {
    await ack();
  });
  listener = (req, res) => void receiver.requestListener(req, res);
} else {
  listener = (req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(200).end());
  };
}
const server = createServer(listener);
server.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as AddressInfo;
  process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${port}/slack/events` })}\n`);
});
process.once('SIGTERM', () => server.close(() => process.exit(0)));
