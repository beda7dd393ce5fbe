import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import type { LanguageModel } from 'ai';
import type { Job, Queue, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import {
  type EngineConfig,
  type EngineDeps,
  type TurnSettings,
  withAskService,
} from './agent/engine-deps.js';
import { type AgentTool, createToolRegistry, type ToolRegistry } from './agent/tool-registry.js';
import { type AskApiDeps, createAskApi } from './api/ask-api.js';
import { deliverWebhook } from './api/deliver-webhook.js';
import { createMcpHandler } from './api/mcp-server.js';
import { askToolDefinitionFor } from './ask/ask-schema.js';
import { effectiveChannelSettings } from './config/channel-settings.js';
import type { ConfigFile } from './config/config-file.js';
import { redactUrl } from './config/redact-url.js';
import type { Config } from './config/types.js';
import { ConfigError, SystemError } from './errors.js';
import { BullmqScheduler } from './jobs/bullmq-scheduler.js';
import { DueTimerLane } from './jobs/due-timer-lane.js';
import { createHoldpointQueue, QUEUE_DEFAULTS, TIMER_CONCURRENCY, timerQueueName } from './jobs/queue.js';
import { type Sweeper, startSweeper } from './jobs/sweeper.js';
import { createHoldpointWorker, JOB_TIMINGS } from './jobs/worker.js';
import type { Logger } from './log.js';
import { channelTools } from './mcp/channel-tools.js';
import { McpToolServers } from './mcp/mcp-tool-servers.js';
import { createLanguageModel } from './model/create-model.js';
import { createMetrics, type Metrics } from './ops/metrics.js';
import { checkRedis } from './ops/redis-checks.js';
import {
  createRedisConnections,
  createSubscriberConnection,
  type RedisConnections,
} from './ops/redis-connections.js';
import { startHttpServer } from './server/ops-server.js';
import { createSlackApp, SLACK_EVENTS_PATH, type SlackApp } from './slack/app.js';
import { cachedGroupMembers } from './slack/handlers/answerer-check.js';
import type { UninstalledTeam } from './slack/handlers/handler-deps.js';
import { HomeTab } from './slack/home-tab.js';
import { createSlackInstaller, type SlackInstaller, workspaceAllowed } from './slack/oauth-install.js';
import { installedSlackClients, type SlackClients, singleSlackClient } from './slack/slack-clients.js';
import { slackErrorCode } from './slack/slack-error-code.js';
import { slackLogger } from './slack/slack-logger.js';
import { SlackSurface } from './slack/slack-surface.js';
import { openSocketConnection } from './slack/socket-preflight.js';
import { uninstallWorkspace } from './slack/uninstall-workspace.js';
import { createWebClient } from './slack/web-client.js';
import { RedisApiMarks } from './store/redis-api-marks.js';
import { RedisAskChanges } from './store/redis-ask-changes.js';
import { RedisDueTimers } from './store/redis-due-timers.js';
import { RedisHomeMarks } from './store/redis-home-marks.js';
import { RedisInstallationStore } from './store/redis-installation-store.js';
import { RedisSlackMarks } from './store/redis-slack-marks.js';
import { RedisTurnStore } from './store/redis-turn-store.js';
import { createTokenCipher } from './store/token-cipher.js';

/** Tunables that tests and benchmarks shorten; production uses the defaults. */
export interface RuntimeTuning {
  /** BullMQ lock of a running job, in ms (default `JOB_TIMINGS`, 2500): a killed worker's job is taken over after it. */
  lockDuration?: number;
  /** How often stalled jobs are looked for, in ms (default `JOB_TIMINGS`, 1000). */
  stalledInterval?: number;
  /** Sweep interval, in ms (default 60 000). */
  sweepIntervalMs?: number;
  /** BullMQ queue name (default `holdpoint`) and key prefix (default `{hp}`). */
  queueName?: string;
  queuePrefix?: string;
  /** Store key prefix (default `hp`). */
  storePrefix?: string;
  /** Use this model instead of the configured provider (tests: the AI SDK mock model). */
  model?: LanguageModel;
  /** Tools the agent may call besides `ask_question` (default none). */
  tools?: AgentTool[];
  /**
   * How often a long-poll or MCP call looks at its ask without an announcement, in ms (default 1000). Tests
   * set it past their wait so that only the announcement can return them.
   */
  askPollIntervalMs?: number;
  /** How often a waiting MCP `ask_question` call sends progress, in ms (default 15 000). */
  mcpProgressIntervalMs?: number;
  /** How long a Socket Mode start waits for the socket, in ms (default 30 s). */
  socketConnectTimeoutMs?: number | undefined;
  /**
   * Called when the process cannot go on serving (Socket Mode cannot reconnect: a refused app token, or
   * Slack unreachable), with a message that says what to fix. `main` prints it and exits 1.
   */
  onFatal?: ((message: string) => void) | undefined;
}

/** A running holdpoint process: what `main` starts and stops. */
export interface Runtime {
  config: Config;
  server: Server;
  /** Stops taking work, lets running jobs finish within `config.shutdown.timeoutMs`, closes connections. */
  stop(): Promise<void>;
}

/** Turns engine-level config into the engine's settings. */
export function engineConfig(config: Config): EngineConfig {
  return {
    systemPrompt: config.systemPrompt,
    stepLimit: config.agent.stepLimit,
    streamReplies: config.agent.streamReplies,
    maxInvalidAsks: 3,
    askTimeoutMs: config.ask.timeoutMs,
    followUp: config.ask.followUp,
    timeoutPolicy: config.ask.timeoutPolicy,
    answerers: config.ask.answerers,
    showAttempts: 3,
    showRetryDelayMs: 500,
  };
}

/**
 * Checks Redis before anything else: refuses to start on an eviction policy other than `noeviction`
 * (BullMQ locks and paused turns must never be evicted), warns once when the policy cannot be read.
 * @throws ConfigError naming the problem and the fix.
 */
export async function assertRedisUsable(
  connections: RedisConnections,
  logger: Logger,
  url = '',
): Promise<void> {
  let result: Awaited<ReturnType<typeof checkRedis>>;
  // ioredis reports the connection's own error (ECONNREFUSED, ENOTFOUND, NOAUTH) as an event; the command
  // only says it ran out of retries. Keep the event's message for the operator.
  let connectionError: string | undefined;
  const onError = (error: Error) => {
    connectionError = error.message;
  };
  connections.request.on('error', onError);
  try {
    result = await checkRedis(connections.request);
  } catch (error) {
    const reason = connectionError ?? (error instanceof Error ? error.message : String(error));
    throw new SystemError(
      'redis_unreachable',
      `cannot reach Redis at ${redactUrl(url) || 'REDIS_URL'} (REDIS_URL): ${reason}. Start Redis or fix REDIS_URL; \`holdpoint doctor\` checks it.`,
      { cause: error },
    );
  } finally {
    connections.request.off('error', onError);
  }
  for (const warning of result.warnings) logger.warn({ redisVersion: result.version }, warning);
  if (!result.ok) {
    throw new ConfigError(
      'redis_unsuitable',
      `Redis is not usable by holdpoint:\n- ${result.problems.join('\n- ')}`,
      {
        fields: { policy: result.policy, version: result.version },
      },
    );
  }
}

/** How long the worker may take to close after its jobs were aborted at the shutdown bound, in ms. */
const ABORTED_JOBS_GRACE_MS = 1000;

/** Resolves with `promise`'s value, or with `'timeout'` after `ms`. */
/** How long start-up waits for the MCP tool servers before it serves without the slow ones, in ms. */
const MCP_START_WAIT_MS = 3000;

async function within<T>(promise: Promise<T>, ms: number): Promise<T | 'timeout'> {
  let timer: NodeJS.Timeout | undefined;
  const bound = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), ms);
  });
  try {
    return await Promise.race([promise, bound]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Logs a Redis client's connection trouble without flooding: the first error of an outage at WARN (ioredis
 * retries forever and emits one error per attempt), then one INFO line when the client is ready again.
 * `createRedisConnections` only attaches listeners that ignore errors; the composition root adds these.
 */
export function logRedisConnection(client: Redis, name: string, logger: Logger): void {
  let failing = false;
  client.on('error', (error: Error) => {
    if (failing) return;
    failing = true;
    // A connection error's stack says nothing useful (it is the socket's); the code and message do.
    const code = (error as NodeJS.ErrnoException).code;
    logger.warn({ redisClient: name, code, reason: error.message }, 'Redis connection error; reconnecting');
  });
  client.on('ready', () => {
    if (!failing) return;
    failing = false;
    logger.info({ redisClient: name }, 'Redis connection restored');
  });
}

/**
 * Says why `auth.test` failed at start-up: Slack answering no (`invalid_auth`, `token_revoked`: the token is
 * wrong) is a different fix from Slack not being reachable at all (DNS, proxy, firewall).
 */
export function slackStartError(error: unknown, apiUrl: string): SystemError {
  const data =
    (error as {
      code?: unknown;
      data?: { error?: unknown };
      original?: { cause?: { code?: unknown; message?: unknown }; message?: unknown };
    }) ?? {};
  if (data.code === 'slack_webapi_platform_error') {
    return new SystemError(
      'slack_auth_failed',
      `Slack rejected SLACK_BOT_TOKEN (auth.test: ${String(data.data?.error ?? 'error')}). Copy the Bot User OAuth Token (xoxb-…) from your app's OAuth & Permissions page.`,
      { cause: error },
    );
  }
  const cause = data.original?.cause;
  const reason =
    cause?.code ??
    cause?.message ??
    data.original?.message ??
    (error instanceof Error ? error.message : String(error));
  return new SystemError(
    'slack_unreachable',
    `cannot reach the Slack Web API at ${apiUrl} (auth.test): ${String(reason)}. Check the network, a proxy, or SLACK_API_URL.`,
    { cause: error },
  );
}

/**
 * Builds and starts everything the configured role needs (composition root, shared by `main` and
 * the CLI): Redis connections, store, queue, the Slack app and HTTP server (web), the worker and the
 * sweeper (worker).
 * @throws ConfigError for an unusable Redis; SystemError when Redis or Slack cannot be reached.
 */
export async function startRuntime(
  config: Config,
  logger: Logger,
  tuning: RuntimeTuning = {},
): Promise<Runtime> {
  const connections = createRedisConnections(config.redis.url, { cluster: config.redis.cluster });
  /** Aborted when running jobs outlive the shutdown bound. */
  const shutdown = new AbortController();
  logRedisConnection(connections.bullmq, 'bullmq', logger);
  logRedisConnection(connections.request, 'request', logger);
  const closers: Array<() => Promise<void>> = [() => connections.close()];
  const stopAll = async () => {
    for (const close of [...closers].reverse()) {
      try {
        await close();
      } catch (error) {
        logger.warn({ err: error }, 'error while shutting down');
      }
    }
  };
  try {
    await assertRedisUsable(connections, logger, config.redis.url);
    const storeOptions = {
      ...(tuning.storePrefix ? { prefix: tuning.storePrefix } : {}),
      onBackgroundError: (error: unknown, operation: string) =>
        logger.warn({ err: error, operation }, 'a Redis index write failed; the sweep repairs it'),
    };
    const workerStore = new RedisTurnStore(connections.bullmq, storeOptions);
    const requestStore = new RedisTurnStore(connections.request, storeOptions);
    const marks = new RedisSlackMarks(connections.bullmq, storeOptions);
    const queue: Queue = createHoldpointQueue(connections.bullmq, {
      name: tuning.queueName,
      prefix: tuning.queuePrefix,
    });
    queue.on('error', (error) => logger.error({ err: error }, 'queue error'));
    closers.push(() => queue.close());
    // The timer lane: timeouts and reminders on a queue of their own, so they never wait behind model calls.
    const timerQueue: Queue = createHoldpointQueue(connections.bullmq, {
      name: timerQueueName(tuning.queueName ?? QUEUE_DEFAULTS.name),
      prefix: tuning.queuePrefix,
    });
    timerQueue.on('error', (error) => logger.error({ err: error }, 'timer queue error'));
    closers.push(() => timerQueue.close());
    const timerLane = new DueTimerLane(timerQueue, new RedisDueTimers(connections.bullmq, storeOptions));
    const scheduler = new BullmqScheduler(queue, timerLane);
    const metrics: Metrics = createMetrics({ countOpenAsks: () => workerStore.countOpenAsks() });

    // Its own lines (retries, rate limits) go through pino like Bolt's, not to the console.
    const clientOptions = { logger: slackLogger(logger) };
    const apiUrl = config.slack.apiUrl ?? undefined;
    const oauth = config.slack.oauth;
    let installations: RedisInstallationStore | null = null;
    let clients: SlackClients;
    let botUserId = '';
    let botId = '';
    let teamId: string | undefined;
    let workspaceUrl: string | null = null;
    if (oauth) {
      // OAuth install mode: one bot token per workspace, sealed in Redis; nothing to check with Slack yet.
      const store = new RedisInstallationStore(connections.request, {
        ...(tuning.storePrefix ? { prefix: tuning.storePrefix } : {}),
        cipher: createTokenCipher(oauth.encryptionKey, oauth.previousEncryptionKey),
      });
      installations = store;
      clients = installedSlackClients({
        bot: async (team) => (workspaceAllowed(oauth.allowedWorkspaces, team) ? store.botOf(team) : null),
        apiUrl,
        clientOptions,
      });
      const installed = await store.installationIds();
      if (oauth.previousEncryptionKey) {
        const { reencrypted, unreadable } = await store.reencryptAll();
        logger.info(
          { reencrypted, unreadable, installations: installed.length },
          unreadable.length === 0
            ? 'installations re-encrypted under TOKEN_ENCRYPTION_KEY; TOKEN_ENCRYPTION_KEY_PREVIOUS may be unset'
            : 'some installations open with neither key; they need installing again',
        );
      }
      logger.info(
        { installations: installed.length, role: config.role, mode: 'oauth' },
        'serving the Slack workspaces that install holdpoint (OAuth install mode)',
      );
    } else {
      const single = createWebClient(config.slack.botToken, apiUrl, clientOptions);
      clients = singleSlackClient(single);
      let auth: Awaited<ReturnType<typeof single.auth.test>>;
      try {
        auth = await single.auth.test();
      } catch (error) {
        throw slackStartError(error, config.slack.apiUrl ?? 'https://slack.com/api/');
      }
      botUserId = auth.user_id ?? '';
      botId = auth.bot_id ?? '';
      teamId = auth.team_id;
      workspaceUrl = auth.url ?? null;
      logger.info(
        { team: auth.team, botUserId, role: config.role, mode: config.slack.mode },
        'connected to Slack',
      );
    }

    const serveApi = (config.role === 'web' || config.role === 'all') && config.api.tokens.length > 0;
    // Every role announces resolved asks (a click on the web, a timeout on the worker); the processes that
    // serve the API also listen, so their long-polls and MCP calls return at once.
    let subscriber: ReturnType<typeof createSubscriberConnection> | null = null;
    if (serveApi) {
      const opened = createSubscriberConnection(config.redis.url, { cluster: config.redis.cluster });
      subscriber = opened;
      logRedisConnection(opened, 'subscriber', logger);
      closers.push(() => opened.closeQuietly());
    }
    const askChanges = new RedisAskChanges(connections.request, subscriber, storeOptions);
    await askChanges.start();

    // The agent's tools: built-in ones (tests), then the config file's MCP tool servers, on the processes
    // that run turns. Their tools join this registry as each server connects.
    const tools = new Map(createToolRegistry(tuning.tools ?? []));
    let toolServers: McpToolServers | null = null;
    if (config.role !== 'web' && config.file.mcpServers.length > 0) {
      const servers = new McpToolServers({
        servers: config.file.mcpServers,
        approvals: config.file.approvals,
        log: logger,
        into: tools,
        reservedNames: ['ask_question', ...tools.keys()],
      });
      toolServers = servers;
      closers.push(() => servers.close());
      // Servers that answer at once are checked before we serve; a slow one joins when it is up.
      if ((await within(servers.start(), MCP_START_WAIT_MS)) === 'timeout')
        logger.warn(
          { waitedMs: MCP_START_WAIT_MS },
          'some MCP servers are still connecting; serving without their tools until they are up',
        );
      const unmatched = servers.unmatchedGlobs();
      if (unmatched.length > 0)
        logger.warn(
          { globs: unmatched },
          'approval rules match no tool of the MCP servers listed so far (a typo leaves tools ungated)',
        );
      if (servers.collisions.length > 0)
        throw new ConfigError(
          'config_tool_name_collision',
          `holdpoint cannot start: MCP tools whose names collide for the model (rename one, or run it from another server entry):\n${servers.collisions.map((line) => `  - ${line}`).join('\n')}`,
        );
    }

    // The inbox (Home tab, `/holdpoint asks`): read on the request client, like the listeners' reads.
    const groupMembers = cachedGroupMembers();
    const homes = new HomeTab({
      reader: requestStore,
      marks: new RedisHomeMarks(connections.request, storeOptions),
      groupMembers,
      log: logger,
      now: () => Date.now(),
      workspaceUrl,
      scopeByTeam: clients.perTeam,
    });
    const deps: EngineDeps = withAskService({
      wakeups: askChanges,
      store: workerStore,
      surface: new SlackSurface({
        clients,
        marks,
        log: logger,
        homes,
        botUserId,
        teamId,
        readAsk: (turnId, askId) => workerStore.getAsk(turnId, askId),
      }),
      scheduler,
      model: tuning.model ?? createLanguageModel(config.model),
      tools,
      askTool: askToolDefinitionFor(config.ask.timeoutPolicy),
      config: { ...engineConfig(config), turnLeaseMs: tuning.lockDuration ?? JOB_TIMINGS.lockDurationMs },
      log: logger,
      now: () => Date.now(),
      newId: () => randomUUID(),
      abortSignal: shutdown.signal,
      // The config file's `channels:` and `defaults:` (computed per turn step: MCP servers join late).
      settingsFor: (conversation) => turnSettingsFor(config.file, conversation.channel, tools),
      observe: (event) => {
        if (event.type === 'turn-ended') metrics.turnDuration.observe(event.durationMs / 1000);
        else if (event.type === 'model-error') metrics.modelErrors.inc();
        else if (event.type === 'follow-up') metrics.followUps.inc({ kind: event.kind });
        else {
          if (event.how === 'assumed' && event.policy)
            metrics.asksAssumedByPolicy.inc({ policy: event.policy });
          const counter = {
            answered: metrics.asksAnswered,
            assumed: metrics.asksAssumed,
            canceled: metrics.asksCanceled,
          }[event.how];
          counter.inc();
          if (event.waitedMs !== null) metrics.answerLatency.observe(event.waitedMs / 1000);
        }
      },
    });

    const webhookMarks = new RedisApiMarks(connections.bullmq, storeOptions);
    let worker: Worker | null = null;
    let sweeper: Sweeper | null = null;
    const workQueueName = tuning.queueName ?? QUEUE_DEFAULTS.name;
    /** Each failed job attempt on `queue` is counted; one that failed for good is logged. */
    const countFailures =
      (queue: string) =>
      (job: Job | undefined, error: Error, final: boolean): void => {
        metrics.jobFailures.inc({ queue, name: job?.name ?? 'unknown' });
        if (final) logger.error({ jobId: job?.id, queue, err: error }, 'job failed for good');
      };
    if (config.role === 'worker' || config.role === 'all') {
      worker = createHoldpointWorker(deps, {
        queueName: workQueueName,
        prefix: tuning.queuePrefix ?? '{hp}',
        connection: connections.bullmq,
        concurrency: config.worker.concurrency,
        lockDuration: tuning.lockDuration,
        stalledInterval: tuning.stalledInterval,
        ...(config.api.webhookSecret !== null
          ? {
              deliverWebhook: (scope: string, askId: string, questionIndex?: number) =>
                deliverWebhook(
                  {
                    store: workerStore,
                    marks: webhookMarks,
                    secret: config.api.webhookSecret ?? '',
                    now: () => Date.now(),
                    log: logger,
                  },
                  scope,
                  askId,
                  questionIndex,
                ),
            }
          : {}),
        onFailed: countFailures(workQueueName),
      });
      const timers = createHoldpointWorker(deps, {
        queueName: timerQueueName(workQueueName),
        prefix: tuning.queuePrefix ?? QUEUE_DEFAULTS.prefix,
        connection: connections.bullmq,
        concurrency: TIMER_CONCURRENCY,
        dueLane: timerLane,
        lockDuration: tuning.lockDuration,
        stalledInterval: tuning.stalledInterval,
        onFailed: countFailures(timerQueueName(workQueueName)),
      });
      // Timer jobs are short: closing waits for them without the turn jobs' abort dance.
      closers.push(() => timers.close());
      const running = worker;
      closers.push(async () => {
        // Let running jobs finish within the bound. After it, abort them (the model call stops, the job
        // fails this attempt and is retried after its backoff by any worker); if the worker still does not
        // close, stop waiting: its job locks lapse and other workers take the jobs over. Every step is
        // idempotent. (`close(true)` after `close()` would return the same pending promise.)
        const closed = running.close().then(() => 'closed' as const);
        if ((await within(closed, config.shutdown.timeoutMs)) === 'closed') return;
        logger.warn(
          { timeoutMs: config.shutdown.timeoutMs },
          'jobs still running at the shutdown bound; aborting them and leaving them to other workers',
        );
        shutdown.abort(new Error('holdpoint is shutting down'));
        if ((await within(closed, ABORTED_JOBS_GRACE_MS)) !== 'closed') {
          logger.warn('the worker did not close after aborting its jobs; their locks will lapse');
        }
      });
      sweeper = startSweeper(deps, { intervalMs: tuning.sweepIntervalMs, timers: timerLane });
      const runningSweeper = sweeper;
      closers.push(() => runningSweeper.stop());
    }

    let slack: SlackApp | null = null;
    let oauthRoutes: SlackInstaller['routes'] | null = null;
    let api: ReturnType<typeof createAskApi> | null = null;
    let mcp: ReturnType<typeof createMcpHandler> | null = null;
    if (config.role === 'web' || config.role === 'all') {
      const requestEngine = withAskService({ ...deps, store: requestStore });
      if (serveApi) {
        const apiDeps: AskApiDeps = {
          changes: askChanges,
          ...(tuning.askPollIntervalMs ? { pollIntervalMs: tuning.askPollIntervalMs } : {}),
          asks: requestEngine.asks,
          store: requestStore,
          marks: new RedisApiMarks(connections.request, storeOptions),
          tokens: config.api.tokens,
          defaults: {
            timeoutMs: config.ask.timeoutMs,
            policy: config.ask.timeoutPolicy,
            answerers: config.ask.answerers,
            followUp: config.ask.followUp,
          },
          // Single-workspace mode only (the config refuses API_TOKENS in OAuth install mode).
          openDm: async (userId) => {
            const client = await clients.forTeam({});
            const opened = await client.conversations.open({ users: userId });
            if (!opened.channel?.id) throw new Error(`conversations.open gave no channel for ${userId}`);
            return opened.channel.id;
          },
          groupExists: async (groupId) => {
            try {
              await (await clients.forTeam({})).usergroups.users.list({ usergroup: groupId });
              return true;
            } catch (error) {
              if (slackErrorCode(error) === 'no_such_subteam') return false;
              // Slack down or a missing scope (usergroups:read): do not refuse the ask for it.
              logger.warn({ err: error, groupId }, 'could not check a user group of an ask');
              return true;
            }
          },
          newId: () => randomUUID(),
          now: () => Date.now(),
          log: logger,
          webhooks: config.api.webhookSecret !== null,
          ratePerMinute: config.api.ratePerMinute,
        };
        api = createAskApi(apiDeps);
        mcp = createMcpHandler({
          ...apiDeps,
          defaultChannel: config.api.mcpDefaultChannel,
          ...(tuning.mcpProgressIntervalMs ? { progressIntervalMs: tuning.mcpProgressIntervalMs } : {}),
          policy: config.ask.timeoutPolicy,
        });
      }
      const installer =
        oauth && installations
          ? createSlackInstaller({
              clientId: oauth.clientId,
              clientSecret: oauth.clientSecret,
              stateSecret: oauth.stateSecret,
              installationStore: installations,
              apiUrl,
              logger,
              allowedWorkspaces: oauth.allowedWorkspaces,
            })
          : null;
      oauthRoutes = installer?.routes ?? null;
      const installedStore = installations;
      slack = createSlackApp({
        botToken: config.slack.botToken,
        ...(installer && oauth
          ? {
              // Events and clicks from a workspace outside SLACK_ALLOWED_WORKSPACES are not served, even when an
              // installation of it was stored before the list named it.
              authorize: async (source) => {
                if (!workspaceAllowed(oauth.allowedWorkspaces, source))
                  throw new Error(
                    `Slack workspace ${source.teamId ?? source.enterpriseId ?? '?'} is not in SLACK_ALLOWED_WORKSPACES`,
                  );
                return installer.provider.authorize(source);
              },
            }
          : {}),
        appToken: config.slack.mode === 'socket' ? config.slack.appToken : undefined,
        signingSecret: config.slack.signingSecret ?? undefined,
        apiUrl: config.slack.apiUrl ?? undefined,
        botUserId,
        botId,
        logger,
        connectTimeoutMs: tuning.socketConnectTimeoutMs,
        onGiveUp: (message, error) => {
          logger.fatal({ err: error }, message);
          tuning.onFatal?.(message);
        },
        handlers: {
          engine: requestEngine,
          // On the request client too: a Redis outage must fail a listener fast, not hang it.
          marks: new RedisSlackMarks(connections.request, storeOptions),
          groupMembers,
          threadFollow: config.threads.follow,
          homes,
          scopeByTeam: clients.perTeam,
          ...(installedStore
            ? {
                uninstalled: (team: UninstalledTeam) =>
                  uninstallWorkspace(
                    {
                      installations: installedStore,
                      clients,
                      store: requestStore,
                      asks: requestEngine.asks,
                      log: logger,
                    },
                    team,
                  ),
              }
            : {}),
        },
      });
    }

    const server = await startHttpServer({
      port: config.http.port,
      metricsToken: config.http.metricsToken,
      slack: slack?.requestListener ?? null,
      slackPath: SLACK_EVENTS_PATH,
      ...(oauthRoutes ? { getRoutes: oauthRoutes } : {}),
      api,
      mcp,
      onRequestError: (error, request) => logger.error({ err: error, ...request }, 'HTTP request failed'),
      metrics: async () => ({
        contentType: metrics.registry.contentType,
        body: await metrics.registry.metrics(),
      }),
      readiness: [
        {
          name: 'redis',
          check: async () => ({ ok: (await connections.request.ping()) === 'PONG' }),
        },
        ...(toolServers?.status() ?? []).map((status) => ({
          name: `mcp:${status.name}`,
          optional: true,
          check: async () => {
            const now = toolServers?.status().find((s) => s.name === status.name) ?? status;
            const detail = `${now.state}, ${now.tools} tool${now.tools === 1 ? '' : 's'}${now.error ? `: ${now.error}` : ''}`;
            return { ok: now.state === 'connected', detail };
          },
        })),
        ...(worker
          ? [
              {
                name: 'worker',
                check: async () => {
                  const ok = worker?.isRunning() ?? false;
                  return ok ? { ok } : { ok, detail: 'worker not running' };
                },
              },
            ]
          : []),
        ...(slack
          ? [
              {
                name: 'slack',
                check: async () => {
                  const ok = slack?.connected() ?? false;
                  return ok ? { ok } : { ok, detail: 'Slack not connected' };
                },
              },
            ]
          : []),
      ],
    });
    // The server stops taking Slack requests first.
    closers.push(
      () =>
        new Promise<void>((resolve) => {
          server.close(() => resolve());
          // Idle keep-alive sockets go at once; a long-poll or an MCP stream still open after a second is cut
          // (its client asks again; the ask does not depend on the connection), so SIGTERM never waits for them.
          server.closeIdleConnections();
          setTimeout(() => server.closeAllConnections(), 1000).unref();
        }),
    );
    // Slack last, with the HTTP server up: while the socket connects /readyz answers 503 "Slack not
    // connected". A Socket Mode start asks for a connection URL first, so a refused app token or an
    // unreachable API stops the start with a fix instead of the client's endless reconnects.
    if (slack) {
      if (slack.mode === 'socket' && config.slack.mode === 'socket')
        await openSocketConnection(config.slack.appToken, config.slack.apiUrl ?? undefined);
      await slack.start();
      const runningSlack = slack;
      closers.push(() => runningSlack.stop());
    }
    logger.info({ port: config.http.port, role: config.role }, 'holdpoint is running');
    return { config, server, stop: stopAll };
  } catch (error) {
    await stopAll();
    throw error;
  }
}

/**
 * What the config file sets for turns in `channel` (its `channels:` entry over `defaults:`), with the tools
 * it allows and their approvals under its rules; null when it sets nothing.
 */
export function turnSettingsFor(file: ConfigFile, channel: string, tools: ToolRegistry): TurnSettings | null {
  const effective = effectiveChannelSettings(file, channel);
  if (!effective.overrides) return null;
  return {
    ...(effective.systemPrompt !== undefined ? { systemPrompt: effective.systemPrompt } : {}),
    ...(effective.askTimeoutMs !== undefined ? { askTimeoutMs: effective.askTimeoutMs } : {}),
    ...(effective.timeoutPolicy !== undefined ? { timeoutPolicy: effective.timeoutPolicy } : {}),
    ...(effective.answerers !== undefined ? { answerers: effective.answerers } : {}),
    tools: channelTools(tools, effective.tools ?? null, effective.approvals),
  };
}
