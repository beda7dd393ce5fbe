/**
 * scripts/dev.mjs (`npm run dev`): the plan it prints with --dry-run in each situation, and one real run
 * that starts redis-server with the compose flags in a temporary directory, runs the bot in watch mode
 * (which fails its configuration on purpose and waits for file changes), and on SIGTERM stops the bot and
 * then Redis.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readRedisFlags } from '../../scripts/redis-flags.mjs';
import { captureChild } from '../support/child-output.js';
import { freePort } from '../support/redis-server.js';
import { repoRoot } from '../unit/cli/holdpoint-process.js';

const script = join(repoRoot, 'scripts/dev.mjs');
let scratch: string;

beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), 'holdpoint-dev-'));
});

afterAll(() => {
  rmSync(scratch, { recursive: true, force: true });
});

/** A minimal environment: no REDIS_URL, no Slack or model variables. */
function baseEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH, HOME: process.env.HOME, ...extra };
}

function runDev(
  args: string[],
  env: NodeJS.ProcessEnv,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script, ...args], {
      cwd: repoRoot,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const captured = captureChild(child);
    child.on('error', reject);
    void captured.closed.then(({ code }) =>
      resolve({ code, stdout: captured.stdout(), stderr: captured.stderr() }),
    );
  });
}

describe('scripts/dev.mjs --dry-run', () => {
  let busy: Server;
  let busyPort: number;

  beforeAll(async () => {
    busy = createServer();
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
    busyPort = (busy.address() as { port: number }).port;
  });

  afterAll(async () => {
    await new Promise<void>((resolve) => busy.close(() => resolve()));
  });

  it('plans a local redis-server with the compose flags on the next free port when REDIS_URL is unset', async () => {
    const dataDir = join(scratch, 'plan-redis');
    const run = await runDev(
      [
        '--dry-run',
        '--redis-port',
        String(busyPort),
        '--data-dir',
        dataDir,
        '--dotenv',
        join(scratch, 'none.env'),
      ],
      baseEnv(),
    );
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const redisLine = run.stdout.split('\n').find((line) => line.startsWith('[dev] redis: ')) ?? '';
    const argv = redisLine.replace('[dev] redis: ', '').split(' ');
    expect(argv[0]).toBe('redis-server');
    const port = Number(argv[argv.indexOf('--port') + 1]);
    expect(port).toBeGreaterThan(busyPort);
    expect(argv[argv.indexOf('--dir') + 1]).toBe(dataDir);
    expect(argv.slice(-readRedisFlags().length)).toEqual(readRedisFlags());
    expect(argv).toContain('noeviction');
    expect(run.stdout).toContain('[dev] no .env file: using the environment only');
    expect(run.stdout).toContain(
      `[dev] bot: REDIS_URL=redis://127.0.0.1:${port} ${process.execPath} --watch --import tsx src/main.ts`,
    );
    expect(run.stdout).toContain('[dev] dry run: nothing started');
  });

  it('uses REDIS_URL from the environment, password masked, and starts no Redis', async () => {
    const run = await runDev(
      ['--dry-run', '--dotenv', join(scratch, 'none.env')],
      baseEnv({ REDIS_URL: 'redis://app:s3cret@redis.internal:6380/2' }),
    );
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(
      '[dev] using REDIS_URL=redis://app:***@redis.internal:6380/2 (from the environment)',
    );
    expect(run.stdout).not.toContain('s3cret');
    expect(run.stdout).not.toContain('[dev] redis:');
  });

  it('loads the env file when it exists: the bot runs with --env-file and its REDIS_URL counts', async () => {
    const envFile = join(scratch, 'dev.env');
    writeFileSync(envFile, '# local\nREDIS_URL=redis://127.0.0.1:6390\nLOG_LEVEL=debug\n');
    const run = await runDev(['--dry-run', '--dotenv', envFile], baseEnv());
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`[dev] loading ${envFile}`);
    expect(run.stdout).toContain(`[dev] using REDIS_URL=redis://127.0.0.1:6390 (from ${envFile})`);
    expect(run.stdout).toContain(
      `[dev] bot: ${process.execPath} --env-file=${envFile} --watch --import tsx src/main.ts`,
    );
  });

  it('says what to do when REDIS_URL is unset and redis-server is not on PATH', async () => {
    const bin = join(scratch, 'bin-without-redis');
    rmSync(bin, { recursive: true, force: true });
    mkdirSync(bin);
    symlinkSync(process.execPath, join(bin, 'node'));
    const run = await runDev(['--dry-run', '--dotenv', join(scratch, 'none.env')], {
      PATH: bin,
      HOME: process.env.HOME,
    });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('REDIS_URL is unset and redis-server is not on PATH');
    expect(run.stdout).toContain('Install Redis');
    expect(run.stdout).not.toContain('[dev] redis:');
  });

  it('rejects a bad --redis-port with exit 2', async () => {
    const run = await runDev(['--dry-run', '--redis-port', 'abc'], baseEnv());
    expect(run.code).toBe(2);
    expect(run.stderr).toBe('[dev] --redis-port abc is not a TCP port\n');
  });
});

describe('scripts/dev.mjs for real', () => {
  it('starts Redis with the compose flags, runs the bot in watch mode, and on SIGTERM stops both: exit 0', async () => {
    const port = await freePort();
    const dataDir = join(scratch, 'real-redis');
    const child = spawn(
      process.execPath,
      [script, '--redis-port', String(port), '--data-dir', dataDir, '--dotenv', join(scratch, 'none.env')],
      { cwd: repoRoot, env: baseEnv(), stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      output += chunk;
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      output += chunk;
    });
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    const waitFor = async (text: string) => {
      const started = Date.now();
      while (!output.includes(text)) {
        if (child.exitCode !== null) throw new Error(`dev.mjs exited early:\n${output}`);
        if (Date.now() - started > 20_000) throw new Error(`no "${text}" within 20 s:\n${output}`);
        await sleep(50);
      }
    };
    try {
      await waitFor(`[dev] Redis ready at redis://127.0.0.1:${port}`);
      const redis = new Redis(`redis://127.0.0.1:${port}`, {
        maxRetriesPerRequest: 0,
        retryStrategy: () => null,
      });
      try {
        expect(await redis.config('GET', 'maxmemory-policy')).toEqual(['maxmemory-policy', 'noeviction']);
        expect(await redis.config('GET', 'appendonly')).toEqual(['appendonly', 'yes']);
        expect(await redis.config('GET', 'dir')).toEqual(['dir', dataDir]);
      } finally {
        redis.disconnect();
      }
      // The bot ran (with this Redis) and failed its configuration; node --watch now waits for changes.
      await waitFor('SLACK_BOT_TOKEN is missing');
      await waitFor("Failed running 'src/main.ts'");
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
      expect(output).toContain('[dev] SIGTERM: stopping the bot');
      expect(output).toContain('[dev] Redis stopped');
      const probe = new Redis(`redis://127.0.0.1:${port}`, {
        lazyConnect: true,
        maxRetriesPerRequest: 0,
        retryStrategy: () => null,
      });
      probe.on('error', () => {});
      await expect(probe.connect()).rejects.toThrow();
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  });
});
