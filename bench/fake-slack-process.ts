/**
 * The fake Slack Web API of bench section 6 in a process of its own, so that the chat.update calls the app
 * makes after each ack are served outside the process that measures the acks (on one event loop they would
 * delay reading the responses, and so the numbers). Seeds the thread parent `FAKE_SLACK_SEED_TS` in channel
 * `FAKE_SLACK_SEED_CHANNEL`, prints one JSON line `{ url, botToken, responseUrl }` on stdout, and runs until
 * SIGTERM.
 */
import { startFakeSlack } from '../test/support/fake-slack/index.js';

const fake = await startFakeSlack();
fake.seedMessage({
  channel: process.env.FAKE_SLACK_SEED_CHANNEL ?? 'C0OPS',
  user: 'U0ALICE',
  text: 'thread',
  ts: process.env.FAKE_SLACK_SEED_TS ?? '1780000000.000100',
});
process.stdout.write(
  `${JSON.stringify({ url: fake.url, botToken: fake.botToken, responseUrl: fake.responseUrl() })}\n`,
);
process.once('SIGTERM', () => {
  void fake.close().finally(() => process.exit(0));
});
