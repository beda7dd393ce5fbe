import type { LanguageModel } from 'ai';
import { type AskToolDefinition, askToolDefinitionFor } from '../ask/ask-schema.js';
import type { TimeoutPolicy } from '../ask/types.js';
import type { AskWakeups } from '../asks/ask-ports.js';
import { type AskCheckpoint, type AskEvent, AskService } from '../asks/ask-service.js';
import type { AskStore } from '../asks/ask-store.js';
import type { ConversationRef } from '../asks/conversation.js';
import type { EngineLogger } from '../asks/logger.js';
import { ProgramWaiter } from '../asks/program-waiter.js';
import type { AnswererPolicy, AskFollowUp } from '../asks/types.js';
import type { Scheduler } from './scheduler.js';
import type { Surface } from './surface.js';
import type { ToolRegistry } from './tool-registry.js';
import type { ThreadQueue, ToolCallLog, TurnLeases, TurnStore } from './turn-store.js';
import { TurnWaiter } from './turn-waiter.js';

/** Everything the engine keeps: turns, their leases, thread queues, asks and tool-call runs (one Redis store implements all). */
export type EngineStore = TurnStore & TurnLeases & ThreadQueue & AskStore & ToolCallLog;

/** Engine settings (from the environment; see `src/config`). */
export interface EngineConfig {
  systemPrompt: string;
  /** Model steps per turn before the turn ends with a message (default 20). */
  stepLimit: number;
  /** Invalid `ask_question` calls per turn before the turn ends with a message (default 3). */
  maxInvalidAsks: number;
  /** How long an ask waits for people, in ms, counted from when it was shown. */
  askTimeoutMs: number;
  timeoutPolicy: TimeoutPolicy;
  answerers: AnswererPolicy;
  /** Reminders, escalation, snooze and late answers of the asks turns open (approvals take their rule's quorum and escalation). */
  followUp: AskFollowUp;
  /** Tries to show an ask before it resolves as "not shown" (default 3). */
  showAttempts: number;
  /** Pause between those tries, in ms (default 500, doubled each time). */
  showRetryDelayMs: number;
  /**
   * Whether a turn's text streams into the conversation while the model writes it (when the surface can
   * stream; default false: each reply is posted once complete).
   */
  streamReplies?: boolean;
  /**
   * How long a turn's lease lives without renewal, in ms (default 2500, the job lock's length; renewed
   * every third of it while the turn is advanced). After a crash, another process can take the turn over
   * once it lapses.
   */
  turnLeaseMs?: number;
}

/**
 * What a conversation's channel sets for its turns (from the config file's `channels:` and `defaults:`);
 * whatever is absent comes from {@link EngineConfig} and the engine's tools.
 */
export interface TurnSettings {
  systemPrompt?: string;
  /** ms. */
  askTimeoutMs?: number;
  timeoutPolicy?: TimeoutPolicy;
  answerers?: AnswererPolicy;
  /** The tools the agent may use there, with that channel's approvals applied. */
  tools?: ToolRegistry;
}

/**
 * The engine as a turn in `conversation` sees it: its channel's {@link TurnSettings} over the engine's.
 * The same object when the channel sets nothing. Pure.
 */
export function forConversation(deps: EngineDeps, conversation: ConversationRef): EngineDeps {
  const settings = deps.settingsFor?.(conversation) ?? null;
  if (settings === null) return deps;
  return {
    ...deps,
    config: {
      ...deps.config,
      ...(settings.systemPrompt !== undefined ? { systemPrompt: settings.systemPrompt } : {}),
      ...(settings.askTimeoutMs !== undefined ? { askTimeoutMs: settings.askTimeoutMs } : {}),
      ...(settings.timeoutPolicy !== undefined ? { timeoutPolicy: settings.timeoutPolicy } : {}),
      ...(settings.answerers !== undefined ? { answerers: settings.answerers } : {}),
    },
    ...(settings.tools !== undefined ? { tools: settings.tools } : {}),
    // The model is told what a timeout picks: under the channel's own policy.
    ...(settings.timeoutPolicy !== undefined
      ? { askTool: askToolDefinitionFor(settings.timeoutPolicy) }
      : {}),
  };
}

/** Named points in the engine where crash tests kill the process. No effect in production. */
export type Checkpoint =
  | AskCheckpoint
  | 'after-model-step'
  | 'after-pause-stored'
  | 'after-reply-posted'
  /** A tool call's run was claimed and the tool is about to be called. */
  | 'during-tool-call';

/** Something worth counting happened (metrics). */
export type EngineEvent =
  | AskEvent
  | { type: 'turn-ended'; status: 'completed' | 'failed'; durationMs: number }
  | { type: 'model-error'; turnId: string };

/** What the engine needs. Built once per process by the composition root. */
export interface EngineDeps {
  store: EngineStore;
  surface: Surface;
  scheduler: Scheduler;
  /** The ask lifecycle over the same store, timers and surface (see {@link withAskService}). */
  asks: AskService;
  model: LanguageModel;
  tools: ToolRegistry;
  askTool: AskToolDefinition;
  config: EngineConfig;
  log: EngineLogger;
  /** Epoch ms. */
  now: () => number;
  /** A new colon-free, not-all-digit id (e.g. a UUID). */
  newId: () => string;
  onCheckpoint?: ((name: Checkpoint, ids: { turnId: string; askId?: string }) => void) | undefined;
  /** Called for countable events (metrics); must not throw. */
  observe?: ((event: EngineEvent) => void) | undefined;
  /** What a conversation's channel sets for its turns (see {@link forConversation}); null: nothing. */
  settingsFor?: ((conversation: ConversationRef) => TurnSettings | null) | undefined;
  abortSignal?: AbortSignal | undefined;
  /** Wakes programs' long-polls when their asks resolve (Redis pub/sub); without it they look every second. */
  wakeups?: AskWakeups | undefined;
}

/** Where {@link advanceTurn} left a turn. */
export type AdvanceOutcome =
  | { state: 'paused'; askId: string }
  | { state: 'completed' | 'failed' }
  | { state: 'missing' }
  /** Another process holds the turn's lease and is advancing it; try again shortly. */
  | { state: 'busy' };

/**
 * Completes engine dependencies with their {@link AskService}: over the same store, the scheduler as its
 * timers, the surface, a {@link TurnWaiter} for turns' asks and a {@link ProgramWaiter} for programs'.
 * Checkpoints and metrics are read from the returned object when they happen, so a test may set
 * `onCheckpoint` later.
 */
export function withAskService(deps: Omit<EngineDeps, 'asks'>): EngineDeps {
  const full = { ...deps } as EngineDeps;
  full.asks = new AskService({
    store: deps.store,
    timers: deps.scheduler,
    surface: deps.surface,
    waiters: {
      turn: new TurnWaiter({ store: deps.store, scheduler: deps.scheduler, now: deps.now }),
      api: new ProgramWaiter({
        store: deps.store,
        show: (conversation, ask) => full.asks.show(conversation, ask),
        notifier: deps.scheduler,
        sync: (ask) => full.asks.syncQuietly(ask),
        ...(deps.wakeups ? { wakeups: deps.wakeups } : {}),
      }),
    },
    log: deps.log,
    now: deps.now,
    showAttempts: deps.config.showAttempts,
    showRetryDelayMs: deps.config.showRetryDelayMs,
    onCheckpoint: (name, ids) => full.onCheckpoint?.(name, ids),
    observe: (event) => full.observe?.(event),
  });
  return full;
}
