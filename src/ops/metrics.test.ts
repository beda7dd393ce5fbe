import { describe, expect, it } from 'vitest';
import { createMetrics, METRIC_NAMES } from './metrics.js';

describe('createMetrics', () => {
  it('registers every metric with its type', async () => {
    const metrics = createMetrics({ collectDefault: false });
    const text = await metrics.registry.metrics();
    const types: Record<string, string> = {
      [METRIC_NAMES.asksOpen]: 'gauge',
      [METRIC_NAMES.asksAnswered]: 'counter',
      [METRIC_NAMES.asksAssumed]: 'counter',
      [METRIC_NAMES.asksCanceled]: 'counter',
      [METRIC_NAMES.asksAssumedByPolicy]: 'counter',
      [METRIC_NAMES.followUps]: 'counter',
      [METRIC_NAMES.answerLatency]: 'histogram',
      [METRIC_NAMES.turnDuration]: 'histogram',
      [METRIC_NAMES.jobFailures]: 'counter',
      [METRIC_NAMES.modelErrors]: 'counter',
      [METRIC_NAMES.slackApiErrors]: 'counter',
    };
    for (const [name, type] of Object.entries(types)) expect(text).toContain(`# TYPE ${name} ${type}\n`);
    expect(Object.keys(types)).toHaveLength(Object.keys(METRIC_NAMES).length);
  });

  it('records values, labels and histogram buckets', async () => {
    const metrics = createMetrics({ collectDefault: false });
    metrics.asksOpen.inc();
    metrics.asksOpen.inc();
    metrics.asksOpen.dec();
    metrics.asksAnswered.inc();
    metrics.asksAssumed.inc(2);
    metrics.asksCanceled.inc();
    metrics.answerLatency.observe(42);
    metrics.turnDuration.observe(3);
    metrics.jobFailures.inc({ queue: 'holdpoint', name: 'resume' });
    metrics.followUps.inc({ kind: 'reminder' });
    metrics.asksAssumedByPolicy.inc({ policy: 'no-answer' });
    metrics.modelErrors.inc();
    metrics.slackApiErrors.inc({ method: 'chat.postMessage' });
    const text = await metrics.registry.metrics();
    expect(text).toContain('holdpoint_asks_open 1\n');
    expect(text).toContain('holdpoint_asks_answered_total 1\n');
    expect(text).toContain('holdpoint_asks_assumed_total 2\n');
    expect(text).toContain('holdpoint_asks_canceled_total 1\n');
    expect(text).toContain('holdpoint_answer_latency_seconds_bucket{le="30"} 0\n');
    expect(text).toContain('holdpoint_answer_latency_seconds_bucket{le="60"} 1\n');
    expect(text).toContain('holdpoint_answer_latency_seconds_sum 42\n');
    expect(text).toContain('holdpoint_turn_duration_seconds_bucket{le="2"} 0\n');
    expect(text).toContain('holdpoint_turn_duration_seconds_bucket{le="5"} 1\n');
    expect(text).toContain('holdpoint_job_failures_total{queue="holdpoint",name="resume"} 1\n');
    expect(text).toContain('holdpoint_model_errors_total 1\n');
    expect(text).toContain('holdpoint_ask_follow_ups_total{kind="reminder"} 1\n');
    expect(text).toContain('holdpoint_asks_assumed_by_policy_total{policy="no-answer"} 1\n');
    expect(text).toContain('holdpoint_slack_api_errors_total{method="chat.postMessage"} 1\n');
  });

  it('reads asks_open from countOpenAsks at scrape time', async () => {
    let open = 3;
    const metrics = createMetrics({ collectDefault: false, countOpenAsks: async () => open });
    expect(await metrics.registry.metrics()).toContain('holdpoint_asks_open 3\n');
    open = 0;
    expect(await metrics.registry.metrics()).toContain('holdpoint_asks_open 0\n');
  });

  it('keeps registries apart and adds process metrics by default', async () => {
    const first = createMetrics();
    const second = createMetrics({ collectDefault: false });
    first.modelErrors.inc();
    expect(await second.registry.metrics()).toContain('holdpoint_model_errors_total 0\n');
    expect(await first.registry.metrics()).toContain('holdpoint_process_cpu_user_seconds_total');
    expect(first.registry.contentType).toContain('text/plain');
  });
});
