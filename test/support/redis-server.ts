import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';

/** A private `redis-server` child process on a free loopback port. */
export interface RedisServerHandle {
  /** `redis://127.0.0.1:<port>` */
  url: string;
  port: number;
  /** Data directory (temporary; removed by `stop`). */
  dir: string;
  process: ChildProcess;
  /** Stops the server (SIGTERM, then SIGKILL after 2000 ms) and removes its directory. */
  stop(): Promise<void>;
}

/** Thrown when no `redis-server` binary is on PATH and no `REDIS_URL` was given. */
export const NO_REDIS_MESSAGE =
  'holdpoint tests need Redis: no `redis-server` on PATH and REDIS_URL is not set.\n' +
  '  Debian/Ubuntu: apt-get install -y redis-server\n' +
  '  macOS:         brew install redis\n' +
  '  or point REDIS_URL at a Redis 7 you own (tests write under unique prefixes).';

/** Finds a free TCP port on 127.0.0.1 by binding port 0. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** True when `redis-server` can be run from PATH. */
export function hasRedisServerBinary(): boolean {
  const probe = spawnSync('redis-server', ['--version'], { stdio: 'ignore' });
  return probe.status === 0;
}

/**
 * Starts `redis-server` with the given extra flags (for example the ones docker-compose.yml uses),
 * waits until it answers PING (at most 10 000 ms) and returns a handle.
 * @throws Error with {@link NO_REDIS_MESSAGE} when the binary is missing.
 */
export async function startRedisServer(
  extraArgs: readonly string[] = [],
  options: { port?: number; dir?: string } = {},
): Promise<RedisServerHandle> {
  if (!hasRedisServerBinary()) throw new Error(NO_REDIS_MESSAGE);
  const port = options.port ?? (await freePort());
  const dir = options.dir ?? mkdtempSync(join(tmpdir(), 'holdpoint-redis-'));
  const child = spawn(
    'redis-server',
    [
      '--port',
      String(port),
      '--bind',
      '127.0.0.1',
      '--dir',
      dir,
      '--save',
      '',
      '--appendonly',
      'no',
      ...extraArgs,
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  // What redis-server says before it exits (a flag it does not know, a port in use), for the error below.
  let said = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    if (said.length < 4_000) said += chunk.toString('utf8');
  });
  const stderrClosed = new Promise<void>((resolve) => {
    if (child.stderr) child.stderr.once('close', resolve);
    else resolve();
  });
  const url = `redis://127.0.0.1:${port}`;
  const probe = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  probe.on('error', () => {});
  const started = Date.now();
  for (;;) {
    try {
      await probe.connect();
      await probe.ping();
      break;
    } catch {
      probe.disconnect();
      if (child.exitCode !== null) {
        // Let its last stderr output arrive: it says why (for example an unknown flag on an older Redis).
        await Promise.race([stderrClosed, sleep(1_000)]);
        const reason = said.trim().split('\n').slice(-6).join('\n');
        throw new Error(
          `redis-server exited with code ${child.exitCode}${reason ? `:\n${reason}` : ''} (flags: ${extraArgs.join(' ') || 'none'})`,
        );
      }
      if (Date.now() - started > 10_000) throw new Error(`redis-server did not answer on ${url} within 10 s`);
      await sleep(50);
    }
  }
  probe.disconnect();
  const ownsDir = options.dir === undefined;
  return {
    url,
    port,
    dir,
    process: child,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 2000);
        await exited;
        clearTimeout(timer);
      }
      if (ownsDir) rmSync(dir, { recursive: true, force: true });
    },
  };
}
