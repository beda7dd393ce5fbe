import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';

/** Metric names, all prefixed `holdpoint_` (Prometheus naming: application prefix, `_total` counters, base units). */
export const METRIC_NAMES = {
  asksOpen: 'holdpoint_asks_open',
  asksAnswered: 'holdpoint_asks_answered_total',
  asksAssumed: 'holdpoint_asks_assumed_total',
  asksCanceled: 'holdpoint_asks_canceled_total',
  asksAssumedByPolicy: 'holdpoint_asks_assumed_by_policy_total',
  followUps: 'holdpoint_ask_follow_ups_total',
  answerLatency: 'holdpoint_answer_latency_seconds',
  turnDuration: 'holdpoint_turn_duration_seconds',
  jobFailures: 'holdpoint_job_failures_total',
  modelErrors: 'holdpoint_model_errors_total',
  slackApiErrors: 'holdpoint_slack_api_errors_total',
} as const;

/** Buckets of {@link METRIC_NAMES.answerLatency}, in seconds: 5 s to 1 day (people answer in minutes, asks time out at 30 min by default). */
export const ANSWER_LATENCY_BUCKETS = [5, 15, 30, 60, 120, 300, 600, 1200, 1800, 3600, 7200, 21_600, 86_400];
/** Buckets of {@link METRIC_NAMES.turnDuration}, in seconds of work (a paused turn's wait is not counted). */
export const TURN_DURATION_BUCKETS = [0.25, 0.5, 1, 2, 5, 10, 20, 30, 60, 120, 300, 600];

/** Options of {@link createMetrics}. */
export interface MetricsOptions {
  /** Also collect Node process metrics (CPU, memory, event loop lag) with the `holdpoint_` prefix; default true. */
  collectDefault?: boolean;
  /**
   * Counts open asks at scrape time (e.g. from the store's open-ask index), so that `asks_open` is right
   * across any number of processes. Without it the gauge is whatever `inc`/`dec`/`set` made it in this process.
   */
  countOpenAsks?: () => Promise<number>;
}

/** The process's Prometheus registry and typed handles for every holdpoint metric. */
export interface Metrics {
  /** Serve `await registry.metrics()` with content type `registry.contentType` on `/metrics`. */
  registry: Registry;
  /** Asks waiting for people right now. */
  asksOpen: Gauge;
  /** Asks whose every question a person resolved (per ask, counted when the ask completes by answers). */
  asksAnswered: Counter;
  /** Asks resolved (partly) by the timeout policy or because they could not be shown. */
  asksAssumed: Counter;
  /** Asks canceled. */
  asksCanceled: Counter;
  /** Asks resolved by the timeout, by the timeout policy that picked (`recommended-or-first`, …). */
  asksAssumedByPolicy: Counter<'policy'>;
  /**
   * What happened around open asks, by kind: `reminder` and `escalation` posts, `extension`s of the deadline,
   * quorum `vote`s that did not resolve yet, late-answer `override`s and `delegation`s.
   */
  followUps: Counter<'kind'>;
  /** Seconds from the ask being shown to a person's answer (per answered question). */
  answerLatency: Histogram;
  /** Seconds a turn spent working (model steps and tools), per turn that ended. */
  turnDuration: Histogram;
  /** Failed BullMQ job attempts by queue and job name (`turn`, `resume`, `timeout`). */
  jobFailures: Counter<'queue' | 'name'>;
  /** Failed model calls (after the SDK's own retries). */
  modelErrors: Counter;
  /** Failed Slack Web API calls by method, e.g. `chat.postMessage`. */
  slackApiErrors: Counter<'method'>;
}

/**
 * Creates a private prom-client registry (never the global one, so tests and several apps in one process
 * do not collide) with every holdpoint metric registered. Names in {@link METRIC_NAMES}.
 */
export function createMetrics(options: MetricsOptions = {}): Metrics {
  const registry = new Registry();
  const registers = [registry];
  if (options.collectDefault ?? true) collectDefaultMetrics({ register: registry, prefix: 'holdpoint_' });
  const countOpenAsks = options.countOpenAsks;
  const asksOpen = new Gauge({
    name: METRIC_NAMES.asksOpen,
    help: 'Asks waiting for people right now.',
    registers,
    ...(countOpenAsks === undefined
      ? {}
      : {
          async collect(this: Gauge) {
            this.set(await countOpenAsks());
          },
        }),
  });
  return {
    registry,
    asksOpen,
    asksAnswered: new Counter({
      name: METRIC_NAMES.asksAnswered,
      help: 'Asks resolved by people answering every question.',
      registers,
    }),
    asksAssumed: new Counter({
      name: METRIC_NAMES.asksAssumed,
      help: 'Asks resolved by the timeout policy (nobody answered in time, or the ask could not be shown).',
      registers,
    }),
    asksCanceled: new Counter({ name: METRIC_NAMES.asksCanceled, help: 'Asks canceled.', registers }),
    asksAssumedByPolicy: new Counter({
      name: METRIC_NAMES.asksAssumedByPolicy,
      help: 'Asks resolved by the timeout, by timeout policy.',
      labelNames: ['policy'],
      registers,
    }),
    followUps: new Counter({
      name: METRIC_NAMES.followUps,
      help: 'Reminders, escalations, extensions, quorum votes, late-answer overrides and delegations of asks.',
      labelNames: ['kind'],
      registers,
    }),
    answerLatency: new Histogram({
      name: METRIC_NAMES.answerLatency,
      help: 'Seconds from an ask being shown to a person answering a question.',
      buckets: ANSWER_LATENCY_BUCKETS,
      registers,
    }),
    turnDuration: new Histogram({
      name: METRIC_NAMES.turnDuration,
      help: 'Seconds a turn spent working (model steps and tool calls), excluding time paused on asks.',
      buckets: TURN_DURATION_BUCKETS,
      registers,
    }),
    jobFailures: new Counter({
      name: METRIC_NAMES.jobFailures,
      help: 'Failed BullMQ job attempts.',
      labelNames: ['queue', 'name'] as const,
      registers,
    }),
    modelErrors: new Counter({ name: METRIC_NAMES.modelErrors, help: 'Failed model calls.', registers }),
    slackApiErrors: new Counter({
      name: METRIC_NAMES.slackApiErrors,
      help: 'Failed Slack Web API calls.',
      labelNames: ['method'] as const,
      registers,
    }),
  };
}
