import { createServer } from 'node:net';
import { Writable } from 'node:stream';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createLogger } from '../log.js';
import { slackLogger } from './slack-logger.js';
import { createWebClient } from './web-client.js';

function memoryLogger() {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      chunks.push(chunk.toString('utf8'));
      callback();
    },
  });
  const lines = () =>
    chunks
      .join('')
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as { level: number; msg: string; component?: string });
  return { logger: createLogger({ level: 'debug' }, stream), lines };
}

/** A loopback port where nothing listens. */
async function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 1));
    });
  });
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('slackLogger', () => {
  it('turns each Slack log call into one pino JSON line of the same level, marked component slack', () => {
    const memory = memoryLogger();
    const logger = slackLogger(memory.logger);
    logger.debug('socket-mode:SlackWebSocket:0', 'ping');
    logger.info('connected');
    logger.warn('http request failed', 'fetch failed');
    logger.error('boom', { code: 'x' });
    expect(memory.lines().map(({ level, msg, component }) => ({ level, msg, component }))).toEqual([
      { level: 20, msg: 'socket-mode:SlackWebSocket:0 ping', component: 'slack' },
      { level: 30, msg: 'connected', component: 'slack' },
      { level: 40, msg: 'http request failed fetch failed', component: 'slack' },
      { level: 50, msg: 'boom {"code":"x"}', component: 'slack' },
    ]);
  });

  it("carries a WebClient's retry warnings, and nothing reaches the console", async () => {
    const memory = memoryLogger();
    const consoleCalls = [
      vi.spyOn(console, 'warn').mockImplementation(() => {}),
      vi.spyOn(console, 'error').mockImplementation(() => {}),
      vi.spyOn(console, 'info').mockImplementation(() => {}),
      vi.spyOn(console, 'log').mockImplementation(() => {}),
    ];
    const client = createWebClient('xoxb-test', `http://127.0.0.1:${await closedPort()}/api/`, {
      logger: slackLogger(memory.logger),
      retryConfig: { retries: 1, minTimeout: 1, maxTimeout: 1 },
    });
    await expect(client.auth.test()).rejects.toThrow();
    const warnings = memory.lines().filter((line) => line.level === 40);
    expect(warnings.length).toBeGreaterThanOrEqual(1);
    expect(warnings[0]?.msg).toContain('http request failed');
    expect(warnings[0]?.component).toBe('slack');
    for (const spy of consoleCalls) expect(spy).not.toHaveBeenCalled();
  });
});
