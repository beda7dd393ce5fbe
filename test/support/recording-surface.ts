import type { ModelMessage } from 'ai';
import type { Redis } from 'ioredis';
import type { ActivityTarget, Surface, TurnActivity, TurnTrigger } from '../../src/agent/surface.js';
import type { AskNotice } from '../../src/asks/ask-ports.js';
import type { ConversationRef } from '../../src/asks/conversation.js';
import type { AskRecord } from '../../src/asks/types.js';

/** One thing the surface was asked to do, as recorded. */
export type SurfaceEvent =
  | { type: 'showAsk'; askId: string; turnId: string; ref: string; at: number; questions: number }
  | { type: 'syncAsk'; askId: string; ref: string; at: number; statuses: Array<string | null> }
  | { type: 'postMessage'; key: string; kind: 'reply' | 'error'; text: string; at: number; threadTs: string }
  | { type: 'setActivity'; activity: TurnActivity; at: number }
  | { type: 'notice'; key: string; kind: AskNotice['kind']; at: number; mentions: string[] };

/**
 * A {@link Surface} for tests that records into Redis, so a test can watch worker child processes
 * (and their restarts) through one shared log. Honours the surface contract like the Slack surface:
 * `showAsk` is idempotent by ask id and `postMessage` by key (the Slack surface finds its own earlier
 * message by metadata); every raw call is counted too, so a test can tell the engine's retries from
 * what people would see.
 */
export class RecordingSurface implements Surface {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {}

  private key(name: string): string {
    return `${this.prefix}:surface:${name}`;
  }

  async loadHistory(_conversation: ConversationRef, trigger: TurnTrigger): Promise<ModelMessage[]> {
    return [{ role: 'user', content: trigger.text }];
  }

  async showAsk(_conversation: ConversationRef, ask: AskRecord): Promise<string> {
    await this.redis.incr(this.key('calls:showAsk'));
    const failures = await this.redis.decr(this.key('fail:showAsk'));
    if (failures >= 0) throw new Error('recording surface: showAsk failure injected');
    const ref = `msg-${ask.askId}`;
    const fresh = await this.redis.set(this.key(`shown:${ask.askId}`), ref, 'NX');
    if (fresh === 'OK') {
      await this.record({
        type: 'showAsk',
        askId: ask.askId,
        turnId: ask.scope,
        ref,
        at: Date.now(),
        questions: ask.questions.length,
      });
    }
    return ref;
  }

  async syncAsk(ask: AskRecord): Promise<void> {
    if (ask.messageRef === null) return;
    await this.record({
      type: 'syncAsk',
      askId: ask.askId,
      ref: ask.messageRef,
      at: Date.now(),
      statuses: ask.resolutions.map((r) => r?.status ?? null),
    });
  }

  async postMessage(
    conversation: ConversationRef,
    text: string,
    key: string,
    kind: 'reply' | 'error',
  ): Promise<void> {
    await this.redis.incr(this.key('calls:postMessage'));
    const fresh = await this.redis.set(this.key(`posted:${key}`), '1', 'NX');
    if (fresh === 'OK')
      await this.record({
        type: 'postMessage',
        key,
        kind,
        text,
        at: Date.now(),
        threadTs: conversation.threadTs,
      });
  }

  async postNotice(_ask: AskRecord, notice: AskNotice): Promise<void> {
    await this.redis.incr(this.key('calls:postNotice'));
    const fresh = await this.redis.set(this.key(`posted:${notice.key}`), '1', 'NX');
    const mentions =
      notice.kind === 'reminder'
        ? [...notice.waitingOn.userIds, ...notice.waitingOn.groupIds]
        : notice.kind === 'escalation'
          ? [...notice.targets.userIds, ...notice.targets.groupIds]
          : [];
    if (fresh === 'OK')
      await this.record({ type: 'notice', key: notice.key, kind: notice.kind, at: Date.now(), mentions });
  }

  async setActivity(_target: ActivityTarget, activity: TurnActivity): Promise<void> {
    await this.record({ type: 'setActivity', activity, at: Date.now() });
  }

  /** Makes the next `count` showAsk calls throw. */
  async failShowAsk(count: number): Promise<void> {
    await this.redis.set(this.key('fail:showAsk'), String(count));
  }

  /** Everything recorded so far, in order. */
  async events(): Promise<SurfaceEvent[]> {
    const raw = await this.redis.lrange(this.key('events'), 0, -1);
    return raw.map((line) => JSON.parse(line) as SurfaceEvent);
  }

  /** Raw call count of a method (including de-duplicated repeats). */
  async calls(method: 'showAsk' | 'postMessage' | 'postNotice'): Promise<number> {
    return Number((await this.redis.get(this.key(`calls:${method}`))) ?? 0);
  }

  private async record(event: SurfaceEvent): Promise<void> {
    await this.redis.rpush(this.key('events'), JSON.stringify(event));
  }
}
