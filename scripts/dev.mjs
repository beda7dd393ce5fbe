#!/usr/bin/env node
// `npm run dev`: holdpoint in watch mode on this machine, without Docker.
//
//   node scripts/dev.mjs [--dry-run] [--redis-port N] [--data-dir DIR] [--dotenv FILE]
// (not `--env-file`: Node 20 reads that flag even after the script name.)
//
// 1. Loads FILE (default .env) when it exists: the bot runs with `node --env-file=FILE` (variables already
//    set in the environment win, as with Node's --env-file).
// 2. When REDIS_URL is set neither in the environment nor in FILE and `redis-server` is on PATH, starts a
//    local redis-server with the flags of docker-compose.yml (scripts/redis-flags.mjs) in DIR (default
//    .data/redis, git-ignored) on 127.0.0.1, port N (default 6379) or the next free one, and sets REDIS_URL.
// 3. Runs the bot with `node --watch --import tsx src/main.ts` (restarts when a source file changes),
//    forwards SIGINT/SIGTERM to it, and stops Redis when the bot exits. Exits with the bot's exit code.
// --dry-run prints what it would run and exits 0 without starting anything.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs, parseEnv } from 'node:util';
import { readRedisFlags } from './redis-flags.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));

/** Prints one progress line. */
function say(text) {
  process.stdout.write(`[dev] ${text}\n`);
}

/** Prints one problem line on stderr. */
function complain(text) {
  process.stderr.write(`[dev] ${text}\n`);
}

/** @returns {{ dryRun: boolean, redisPort: number, dataDir: string, envFile: string }} */
function options() {
  const { values } = parseArgs({
    options: {
      'dry-run': { type: 'boolean', default: false },
      'redis-port': { type: 'string', default: '6379' },
      'data-dir': { type: 'string', default: '.data/redis' },
      dotenv: { type: 'string', default: '.env' },
      help: { type: 'boolean', short: 'h', default: false },
    },
    strict: true,
  });
  if (values.help) {
    process.stdout.write(
      'Usage: node scripts/dev.mjs [--dry-run] [--redis-port N] [--data-dir DIR] [--dotenv FILE]\n',
    );
    process.exit(0);
  }
  const redisPort = Number(values['redis-port']);
  if (!Number.isInteger(redisPort) || redisPort < 1 || redisPort > 65535) {
    throw new Error(`--redis-port ${values['redis-port']} is not a TCP port`);
  }
  return {
    dryRun: values['dry-run'],
    redisPort,
    dataDir: resolve(root, values['data-dir']),
    envFile: resolve(root, values.dotenv),
  };
}

/** True when nothing listens on 127.0.0.1:port and we may bind it. */
function portIsFree(port) {
  return new Promise((done) => {
    const server = createServer();
    server.once('error', () => done(false));
    server.listen(port, '127.0.0.1', () => server.close(() => done(true)));
  });
}

/** The first free port from `preferred` on (at most 50 tries). */
async function firstFreePort(preferred) {
  for (let port = preferred; port < preferred + 50 && port <= 65535; port += 1) {
    if (await portIsFree(port)) return port;
  }
  throw new Error(`no free port from ${preferred} to ${preferred + 49} for redis-server`);
}

/** True when Redis answers PING on 127.0.0.1:port. */
function pings(port) {
  return new Promise((done) => {
    const socket = connect({ port, host: '127.0.0.1' });
    let reply = '';
    const finish = (ok) => {
      socket.destroy();
      done(ok);
    };
    socket.setTimeout(1000, () => finish(false));
    socket.once('error', () => finish(false));
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.on('data', (chunk) => {
      reply += chunk.toString('latin1');
      if (reply.includes('\r\n')) finish(reply.startsWith('+PONG'));
    });
  });
}

/** Quotes a command line for display. */
function shown(argv) {
  return argv
    .map((part) => (/^[\w@%+=:,./-]+$/.test(part) ? part : `'${part.replaceAll("'", "'\\''")}'`))
    .join(' ');
}

/** A path for display: relative to the repository when inside it, else absolute. */
function where(path) {
  const inside = relative(root, path);
  return inside === '' || inside.startsWith('..') ? path : inside;
}

/** Redacts the password of a redis:// URL for display. */
function redact(url) {
  return url.replace(/^([a-z]+:\/\/[^:@/]*):[^@/]*@/i, '$1:***@');
}

/**
 * Decides what to run. Starts nothing.
 * @returns {Promise<{ envFile: string | null, redis: { argv: string[], port: number, url: string, dir: string } | null,
 *   redisUrl: string | null, redisUrlSource: string, bot: string[] }>}
 */
async function plan(opts) {
  const envFile = existsSync(opts.envFile) ? opts.envFile : null;
  const fileEnv = envFile === null ? {} : parseEnv(readFileSync(envFile, 'utf8'));
  const bot = [
    process.execPath,
    ...(envFile === null ? [] : [`--env-file=${where(envFile)}`]),
    '--watch',
    '--import',
    'tsx',
    'src/main.ts',
  ];
  const given = process.env.REDIS_URL || fileEnv.REDIS_URL;
  if (given) {
    return {
      envFile,
      redis: null,
      redisUrl: given,
      redisUrlSource: process.env.REDIS_URL ? 'the environment' : where(envFile ?? ''),
      bot,
    };
  }
  const probe = spawnSync('redis-server', ['--version'], { stdio: 'ignore' });
  if (probe.error !== undefined || probe.status !== 0) {
    return { envFile, redis: null, redisUrl: null, redisUrlSource: 'unset', bot };
  }
  const port = await firstFreePort(opts.redisPort);
  const argv = [
    'redis-server',
    '--port',
    String(port),
    '--bind',
    '127.0.0.1',
    '--dir',
    opts.dataDir,
    '--logfile',
    resolve(opts.dataDir, 'redis.log'),
    ...readRedisFlags(),
  ];
  const url = `redis://127.0.0.1:${port}`;
  return {
    envFile,
    redis: { argv, port, url, dir: opts.dataDir },
    redisUrl: url,
    redisUrlSource: 'local',
    bot,
  };
}

function describePlan(steps) {
  say(
    steps.envFile === null ? 'no .env file: using the environment only' : `loading ${where(steps.envFile)}`,
  );
  if (steps.redis !== null) {
    say(`REDIS_URL is unset: starting a local Redis in ${where(steps.redis.dir)}`);
    say(`redis: ${shown(steps.redis.argv)}`);
  } else if (steps.redisUrl !== null) {
    say(`using REDIS_URL=${redact(steps.redisUrl)} (from ${steps.redisUrlSource})`);
  } else {
    say(
      'REDIS_URL is unset and redis-server is not on PATH: holdpoint will try redis://127.0.0.1:6379.' +
        ' Install Redis (apt-get install redis-server, brew install redis) or set REDIS_URL.',
    );
  }
  say(
    `bot: ${steps.redisUrl !== null && steps.redis !== null ? `REDIS_URL=${steps.redisUrl} ` : ''}${shown(steps.bot)}`,
  );
}

/** Starts redis-server and waits for PING (10 s). @returns the child process */
async function startRedis(redis) {
  mkdirSync(redis.dir, { recursive: true });
  const [command, ...args] = redis.argv;
  // Own process group: Ctrl-C in the terminal reaches only this script, which stops Redis after the bot.
  const child = spawn(command, args, { cwd: redis.dir, stdio: 'ignore', detached: true });
  const started = Date.now();
  while (!(await pings(redis.port))) {
    if (child.exitCode !== null) {
      throw new Error(
        `redis-server exited with code ${child.exitCode}; see ${resolve(redis.dir, 'redis.log')}`,
      );
    }
    if (Date.now() - started > 10_000) {
      child.kill('SIGKILL');
      throw new Error(`redis-server did not answer on port ${redis.port} within 10 s`);
    }
    await new Promise((done) => setTimeout(done, 50));
  }
  say(`Redis ready at ${redis.url} (pid ${child.pid}; log ${where(resolve(redis.dir, 'redis.log'))})`);
  return child;
}

/** Stops redis-server: SIGTERM (it writes its append-only file and exits), SIGKILL after 5 s. */
async function stopRedis(child) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((done) => child.once('exit', done));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
  await exited;
  clearTimeout(timer);
  say('Redis stopped');
}

async function run() {
  let opts;
  try {
    opts = options();
  } catch (error) {
    complain(error instanceof Error ? error.message : String(error));
    return 2;
  }
  const steps = await plan(opts);
  describePlan(steps);
  if (opts.dryRun) {
    say('dry run: nothing started');
    return 0;
  }

  let redis = null;
  if (steps.redis !== null) {
    try {
      redis = await startRedis(steps.redis);
    } catch (error) {
      complain(`cannot start Redis: ${error instanceof Error ? error.message : String(error)}`);
      return 1;
    }
  }

  const [command, ...args] = steps.bot;
  const env = { ...process.env, ...(steps.redis !== null ? { REDIS_URL: steps.redis.url } : {}) };
  const bot = spawn(command, args, {
    cwd: root,
    env,
    stdio: ['ignore', 'inherit', 'inherit'],
    detached: true,
  });
  say(`bot started (pid ${bot.pid}); it restarts when a source file changes. Ctrl-C stops everything.`);

  // SIGINT/SIGTERM (and SIGHUP, as SIGTERM) go to the bot once; a second one kills its process group.
  let stopping = false;
  const forward = (signal) => {
    if (stopping) {
      say(`${signal} again: killing the bot`);
      try {
        process.kill(-bot.pid, 'SIGKILL');
      } catch {
        // already gone
      }
      return;
    }
    stopping = true;
    say(`${signal}: stopping the bot`);
    bot.kill(signal === 'SIGHUP' ? 'SIGTERM' : signal);
  };
  process.on('SIGINT', forward);
  process.on('SIGTERM', forward);
  process.on('SIGHUP', forward);

  const code = await new Promise((done) => {
    bot.once('error', (error) => {
      complain(`cannot run the bot: ${error.message}`);
      done(1);
    });
    bot.once('exit', (exitCode, signal) => done(exitCode ?? (stopping ? 0 : signal ? 1 : 0)));
  });
  say(`bot exited (code ${code})`);
  if (redis !== null) await stopRedis(redis);
  return code;
}

process.exitCode = await run();
