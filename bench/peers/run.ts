/**
 * `npm run bench:peers`: holdpoint's pause + resume against two peers, in one process, round-robin, with the
 * same ~20 KB history and mock models that answer at once. Prints numbers; asserts nothing.
 *
 * Per iteration each framework does the same work:
 * - pause: a fresh run of the 40-message history (500 characters each, user and assistant in turn) plus one
 *   new user message; one model call, which answers with text and a call of the human-in-the-loop tool
 *   `ask_question`; the run stops there and its state is persisted.
 * - resume: the person's answer arrives; the state is loaded and the run goes on with the answer as the
 *   tool's result, up to the moment the next model call starts (the clock stops when the mock model is
 *   entered). The rest of the run (the final answer) is awaited outside the clock; the "to end of run" line
 *   shows it.
 *
 * What each path includes:
 * - holdpoint: its real engine and store on Redis, wired as src/runtime.ts does (bench/holdpoint-engine.ts;
 *   a surface without Slack I/O). pause = `startTurn` as the `turn` job runs it: thread admission, turn
 *   record created, turn lease, one model step through the AI SDK (`generateText`, `MockLanguageModelV3`),
 *   the ask decoded, the paused turn and its ask stored (Lua), the ask shown and its timeout job added on
 *   the timer lane (BullMQ). resume = the click path (read the ask, store the answer answer-once, add the
 *   resume job, remove the timeout job) and then what the `resume` job runs (`advanceTurn`: lease, turn and
 *   ask read, the tool result committed, next model step); the job itself is not fetched through BullMQ.
 * - LangGraph.js: a `StateGraph` over `MessagesAnnotation` with an `agent` node (a `BaseChatModel` with the
 *   tool bound) and an `ask_human` node that calls `interrupt()`, compiled with `MemorySaver` (in process
 *   memory, no Redis). pause = `graph.invoke(messages)` until the interrupt; resume =
 *   `graph.invoke(new Command({ resume: answer }))`, the node returns the tool message, `agent` calls the model.
 * - OpenAI Agents SDK: an `Agent` with a `Model` of our own (the SDK's interface, answering at once), the tool
 *   with `needsApproval: true`, tracing off. pause = `runner.run(agent, items)` until the interruption, then
 *   `state.toString()` SET in Redis; resume = GET, `RunState.fromStringWithContext` (the answer in the run
 *   context), `state.approve()`, `runner.run(agent, state)`: the tool returns the answer, the model is called.
 *   The answer itself is not stored anywhere before the model call (holdpoint stores it first).
 *
 * - floor: what any durable pause + resume over the AI SDK and Redis costs at least: the same two
 *   `generateText` steps, the state as one JSON string SET at the pause and read back with one GET at the
 *   resume, the answer one HSET; none of holdpoint's guarantees (admission, lease, answer-once, index, timer,
 *   resume job). Its ratio to holdpoint says how far below holdpoint a peer could possibly be.
 *
 * Ratios are peer / holdpoint (> 1: holdpoint is cheaper), taken pair by pair: each iteration's peer time over
 * the same iteration's holdpoint time, then the percentiles of those ratios. The order of the three rotates
 * each iteration. Environment: BENCH_PEERS_ITERATIONS (default 500), BENCH_PEERS_WARMUP (default 100).
 */
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { BaseChatModel } from '@langchain/core/language_models/chat_models';
import {
  AIMessage,
  type BaseMessage,
  HumanMessage,
  SystemMessage,
  ToolMessage,
} from '@langchain/core/messages';
import type { ChatResult } from '@langchain/core/outputs';
import { convertToOpenAITool } from '@langchain/core/utils/function_calling';
import {
  Command,
  END,
  interrupt,
  MemorySaver,
  MessagesAnnotation,
  START,
  StateGraph,
} from '@langchain/langgraph';
import {
  Agent,
  type AgentInputItem,
  assistant,
  type Model,
  type ModelResponse,
  RunContext,
  Runner,
  RunState,
  tool,
  Usage,
  user,
} from '@openai/agents';
import { tool as aiTool, generateText, jsonSchema, type ModelMessage, stepCountIs } from 'ai';
import { standardizePrompt } from 'ai/internal';
import { Redis } from 'ioredis';
import { z } from 'zod';
import { readRedisFlags } from '../../scripts/redis-flags.mjs';
import { advanceTurn } from '../../src/agent/advance-turn.js';
import { startTurn } from '../../src/agent/thread-admission.js';
import { askToolDefinitionFor } from '../../src/ask/ask-schema.js';
import type { QuestionResolution } from '../../src/ask/types.js';
import { startRedisServer } from '../../test/support/redis-server.js';
import {
  ASK_ARGS,
  createBenchEngine,
  historyTexts,
  instantAskingModel,
  quietSurface,
  SYSTEM_PROMPT,
} from '../holdpoint-engine.js';

/** A count from the environment: a whole number of at least `min`; anything else stops the bench with a message. */
function countFromEnv(name: string, fallback: number, min: number): number {
  const raw = process.env[name];
  const value = raw === undefined || raw.trim() === '' ? fallback : Number(raw);
  if (!Number.isInteger(value) || value < min) {
    console.error(`${name} must be a whole number of at least ${min}, got ${JSON.stringify(raw)}`);
    process.exit(2);
  }
  return value;
}

const ITERATIONS = countFromEnv('BENCH_PEERS_ITERATIONS', 500, 1);
const WARMUP = countFromEnv('BENCH_PEERS_WARMUP', 100, 0);
const HISTORY = historyTexts(40, 500);
const TRIGGER = 'The payments-api deploy failed on canary. What now?';
const ANSWER = { answers: [{ question: 'What now?', selected: ['Roll back'], answeredBy: 'U0BOB' }] };

/** When the last continuation model call started (set by each framework's mock model). */
let continuationAt = Number.NaN;
const markContinuation = () => {
  continuationAt = performance.now();
};

/** One iteration's times of one framework, in ms. */
interface Sample {
  pause: number;
  resume: number;
  /** resume to the end of the run (the final answer returned and, where the framework does, persisted). */
  resumeToEnd: number;
}

/** The sample of one iteration from its clock readings (performance.now(), ms) and {@link continuationAt}. */
function sample(began: number, pausedAt: number, resumeBegan: number, endedAt: number): Sample {
  return {
    pause: pausedAt - began,
    resume: continuationAt - resumeBegan,
    resumeToEnd: endedAt - resumeBegan,
  };
}

interface Framework {
  name: string;
  /** Runs one pause and one resume; returns their times. */
  iteration(n: number): Promise<Sample>;
  close(): Promise<void>;
}

// ---------------------------------------------------------------------------------------------- holdpoint

async function holdpoint(redisUrl: string): Promise<Framework> {
  const history = HISTORY.map(({ role, text }) => ({ role, content: text }));
  const engine = createBenchEngine({
    redisUrl,
    model: instantAskingModel({ onContinuation: markContinuation }),
    surface: quietSurface(history),
    label: 'peers',
  });
  await engine.connections.request.ping();
  await engine.connections.bullmq.ping();
  const resolution = (): QuestionResolution => ({
    status: 'answered',
    selected: ['Roll back'],
    other: null,
    answeredBy: 'U0BOB',
    answeredAt: new Date().toISOString(),
    source: 'button',
    assumption: null,
  });
  return {
    name: 'holdpoint',
    async iteration(n) {
      const turnId = randomUUID();
      const threadTs = `1780000000.${String(n + 1_000_000).slice(-6)}`;
      const began = performance.now();
      const paused = await startTurn(engine.deps, {
        turnId,
        conversation: { surface: 'memory', channel: 'C0OPS', threadTs: `${threadTs}${n}` },
        requestedBy: 'U0ALICE',
        trigger: { text: TRIGGER, ts: threadTs, userId: 'U0ALICE' },
      });
      const pausedAt = performance.now();
      if (paused.state !== 'paused') throw new Error(`holdpoint: turn ended ${paused.state}, not paused`);
      // The click (web process, request connection): the handler reads the ask, stores the answer, then
      // adds the resume job and tidies the timeout.
      continuationAt = Number.NaN;
      const resumeBegan = performance.now();
      const ask = await engine.requestDeps.store.getAsk(turnId, paused.askId);
      if (ask?.status !== 'open') throw new Error('holdpoint: the ask is not open');
      const result = await engine.requestDeps.asks.record({
        turnId,
        askId: paused.askId,
        questionIndex: 0,
        resolution: resolution(),
      });
      if (result.status !== 'completed') throw new Error(`holdpoint: answer ${result.status}`);
      await engine.requestDeps.asks.continueAfter(result);
      // The resume job's work (worker process).
      const ended = await advanceTurn(engine.deps, turnId, { askId: paused.askId });
      const endedAt = performance.now();
      if (ended.state !== 'completed') throw new Error(`holdpoint: resumed turn ended ${ended.state}`);
      return sample(began, pausedAt, resumeBegan, endedAt);
    },
    close: () => engine.close(),
  };
}

// ------------------------------------------------------------------------------------------------- floor

/**
 * The floor of any durable pause + resume over the AI SDK and Redis: the same two `generateText` steps as
 * holdpoint's (same tools, history and mock model), the state as one JSON string SET at the pause and read
 * back at the resume, the answer as one HSET. No thread admission, lease, answer-once check, index, timer or
 * job: none of holdpoint's guarantees, so nothing can be cheaper and still durable.
 */
async function floor(redisUrl: string): Promise<Framework> {
  const redis = new Redis(redisUrl, { maxRetriesPerRequest: null });
  await redis.ping();
  const askTool = askToolDefinitionFor('recommended-or-first');
  const tools = {
    [askTool.name]: aiTool({
      description: askTool.description,
      inputSchema: jsonSchema(askTool.inputSchema),
    }),
  };
  const model = instantAskingModel({ onContinuation: markContinuation });
  const step = (messages: ModelMessage[]) =>
    generateText({ model, system: SYSTEM_PROMPT, messages, tools, stopWhen: stepCountIs(1) });
  return {
    name: 'floor: AI SDK + one Redis SET/GET',
    async iteration() {
      const key = `bench-peers-floor:${randomUUID()}`;
      const began = performance.now();
      const messages: ModelMessage[] = [
        ...HISTORY.map(({ role, text }): ModelMessage => ({ role, content: text })),
        { role: 'user', content: TRIGGER },
      ];
      const paused = await step(messages);
      const call = paused.toolCalls[0];
      if (!call) throw new Error('floor: the step did not call ask_question');
      await redis.set(key, JSON.stringify([...messages, ...paused.response.messages]));
      const pausedAt = performance.now();
      continuationAt = Number.NaN;
      const resumeBegan = performance.now();
      await redis.hset(`${key}:answer`, 'q0', JSON.stringify(ANSWER));
      const stored = await redis.get(key);
      if (stored === null) throw new Error('floor: no stored state');
      const resumed: ModelMessage[] = [
        ...(JSON.parse(stored) as ModelMessage[]),
        {
          role: 'tool',
          content: [
            {
              type: 'tool-result',
              toolCallId: call.toolCallId,
              toolName: call.toolName,
              output: { type: 'text', value: JSON.stringify(ANSWER) },
            },
          ],
        },
      ];
      const ended = await step(resumed);
      const endedAt = performance.now();
      if (ended.text !== 'FINAL done') throw new Error('floor: the run did not end');
      await redis.del(key, `${key}:answer`);
      return sample(began, pausedAt, resumeBegan, endedAt);
    },
    close: async () => {
      await redis.quit();
    },
  };
}

// ---------------------------------------------------------------------------------------------- LangGraph

/** A chat model that answers at once: a tool call of `ask_question`, or (after a tool result) `FINAL done`. */
class InstantChatModel extends BaseChatModel {
  #calls = 0;
  _llmType(): string {
    return 'instant';
  }
  // As provider models do: the tools are converted to the provider's format once, when bound.
  override bindTools(tools: Parameters<typeof convertToOpenAITool>[0][]) {
    return this.withConfig({ tools: tools.map((t) => convertToOpenAITool(t)) } as Partial<
      this['ParsedCallOptions']
    >);
  }
  async _generate(messages: BaseMessage[]): Promise<ChatResult> {
    const last = messages.at(-1);
    let message: AIMessage;
    if (last && ToolMessage.isInstance(last)) {
      markContinuation();
      message = new AIMessage('FINAL done');
    } else {
      this.#calls++;
      message = new AIMessage({
        content: 'Let me ask.',
        tool_calls: [{ id: `call_${this.#calls}`, name: 'ask_question', args: ASK_ARGS, type: 'tool_call' }],
      });
    }
    return { generations: [{ message, text: typeof message.content === 'string' ? message.content : '' }] };
  }
}

const askSchema = z.object({
  questions: z.array(
    z.object({
      header: z.string(),
      question: z.string(),
      options: z.array(z.object({ label: z.string(), recommended: z.boolean().optional() })),
    }),
  ),
});

async function langgraph(): Promise<Framework> {
  const model = new InstantChatModel({}).bindTools([
    {
      name: 'ask_question',
      description: 'Ask people a question and wait for the answer.',
      schema: askSchema,
    },
  ]);
  const checkpointer = new MemorySaver();
  const graph = new StateGraph(MessagesAnnotation)
    .addNode('agent', async (state) => ({
      messages: [await model.invoke([new SystemMessage(SYSTEM_PROMPT), ...state.messages])],
    }))
    .addNode('ask_human', (state) => {
      const last = state.messages.at(-1);
      const call = last && AIMessage.isInstance(last) ? last.tool_calls?.[0] : undefined;
      if (!call?.id) throw new Error('langgraph: no tool call to answer');
      const answer: unknown = interrupt({ tool: call.name, args: call.args });
      return {
        messages: [
          new ToolMessage({ tool_call_id: call.id, name: call.name, content: JSON.stringify(answer) }),
        ],
      };
    })
    .addEdge(START, 'agent')
    .addConditionalEdges(
      'agent',
      (state) => {
        const last = state.messages.at(-1);
        return last && AIMessage.isInstance(last) && (last.tool_calls?.length ?? 0) > 0 ? 'ask_human' : END;
      },
      ['ask_human', END],
    )
    .addEdge('ask_human', 'agent')
    .compile({ checkpointer });
  return {
    name: 'LangGraph MemorySaver',
    async iteration() {
      const config = { configurable: { thread_id: randomUUID() } };
      const began = performance.now();
      const messages = [
        ...HISTORY.map(({ role, text }) => (role === 'user' ? new HumanMessage(text) : new AIMessage(text))),
        new HumanMessage(TRIGGER),
      ];
      const paused = await graph.invoke({ messages }, config);
      const pausedAt = performance.now();
      if (!('__interrupt__' in paused)) throw new Error('langgraph: the run did not interrupt');
      continuationAt = Number.NaN;
      const resumeBegan = performance.now();
      const ended = await graph.invoke(new Command({ resume: ANSWER }), config);
      const endedAt = performance.now();
      if (ended.messages.at(-1)?.content !== 'FINAL done') throw new Error('langgraph: the run did not end');
      await checkpointer.deleteThread(config.configurable.thread_id);
      return sample(began, pausedAt, resumeBegan, endedAt);
    },
    close: async () => {},
  };
}

// ------------------------------------------------------------------------------------------ OpenAI Agents

/** The SDK's `Model` interface, answering at once: a call of `ask_question`, or `FINAL done` after its result. */
class InstantAgentsModel implements Model {
  #calls = 0;
  async getResponse(request: Parameters<Model['getResponse']>[0]): Promise<ModelResponse> {
    const input = typeof request.input === 'string' ? [] : request.input;
    const last = input.at(-1);
    if (last && 'type' in last && last.type === 'function_call_result') {
      markContinuation();
      return {
        usage: new Usage(),
        output: [
          {
            type: 'message',
            role: 'assistant',
            status: 'completed',
            content: [{ type: 'output_text', text: 'FINAL done' }],
          },
        ],
      };
    }
    this.#calls++;
    return {
      usage: new Usage(),
      output: [
        {
          type: 'message',
          role: 'assistant',
          status: 'completed',
          content: [{ type: 'output_text', text: 'Let me ask.' }],
        },
        {
          type: 'function_call',
          callId: `call_${this.#calls}`,
          name: 'ask_question',
          arguments: JSON.stringify(ASK_ARGS),
          status: 'completed',
        },
      ],
    };
  }
  // biome-ignore lint/correctness/useYield: the bench never streams.
  async *getStreamedResponse(): AsyncIterable<never> {
    throw new Error('not streamed in the bench');
  }
}

interface AnswerContext {
  answer?: unknown;
}

async function openaiAgents(redisUrl: string): Promise<Framework> {
  const redis = new Redis(redisUrl, { maxRetriesPerRequest: null });
  await redis.ping();
  const askTool = tool({
    name: 'ask_question',
    description: 'Ask people a question and wait for the answer.',
    parameters: askSchema,
    needsApproval: true,
    execute: (_input, context?: RunContext<AnswerContext>) => JSON.stringify(context?.context.answer ?? null),
  });
  const agent = new Agent<AnswerContext>({
    name: 'on-call',
    instructions: SYSTEM_PROMPT,
    model: new InstantAgentsModel(),
    tools: [askTool],
  });
  const runner = new Runner({ tracingDisabled: true });
  return {
    name: 'OpenAI Agents + Redis',
    async iteration() {
      const key = `bench-peers-oa:${randomUUID()}`;
      const began = performance.now();
      const input: AgentInputItem[] = [
        ...HISTORY.map(({ role, text }) => (role === 'user' ? user(text) : assistant(text))),
        user(TRIGGER),
      ];
      const paused = await runner.run(agent, input, { context: {} });
      if (paused.interruptions.length !== 1) throw new Error('openai agents: the run did not pause');
      await redis.set(key, paused.state.toString());
      const pausedAt = performance.now();
      continuationAt = Number.NaN;
      const resumeBegan = performance.now();
      const stored = await redis.get(key);
      if (stored === null) throw new Error('openai agents: no stored state');
      const state = await RunState.fromStringWithContext(
        agent,
        stored,
        new RunContext<AnswerContext>({ answer: ANSWER }),
      );
      const interruption = state.getInterruptions()[0];
      if (!interruption) throw new Error('openai agents: no interruption in the stored state');
      state.approve(interruption);
      const ended = await runner.run(agent, state);
      const endedAt = performance.now();
      if (ended.finalOutput !== 'FINAL done') throw new Error('openai agents: the run did not end');
      await redis.del(key);
      return sample(began, pausedAt, resumeBegan, endedAt);
    },
    close: async () => {
      await redis.quit();
    },
  };
}

// ------------------------------------------------------------------------------------- AI SDK per call

/**
 * What one model step costs inside the AI SDK with this history, apart from the model: `generateText` as
 * holdpoint calls it (one step, the `ask_question` tool, the mock model answering at once), and the part of it
 * that validates the prompt against the `ModelMessage[]` schema (`standardizePrompt`, which `generateText` and
 * `streamText` run on every call with no option to skip it, even for messages they returned themselves).
 * Median of `runs` calls after a warm-up, in µs.
 */
async function sdkPerCall(runs = 2000): Promise<{ generateText: number; standardizePrompt: number }> {
  const askTool = askToolDefinitionFor('recommended-or-first');
  const tools = {
    [askTool.name]: aiTool({
      description: askTool.description,
      inputSchema: jsonSchema(askTool.inputSchema),
    }),
  };
  const messages: ModelMessage[] = [
    ...HISTORY.map(({ role, text }): ModelMessage => ({ role, content: text })),
    { role: 'user', content: TRIGGER },
  ];
  const model = instantAskingModel();
  const median = async (call: () => Promise<unknown>): Promise<number> => {
    const samples: number[] = [];
    for (let n = 0; n < runs + 200; n++) {
      const began = performance.now();
      await call();
      if (n >= 200) samples.push((performance.now() - began) * 1000);
    }
    return stats(samples).p50;
  };
  return {
    generateText: await median(() =>
      generateText({ model, system: SYSTEM_PROMPT, messages, tools, stopWhen: stepCountIs(1) }),
    ),
    standardizePrompt: await median(() => standardizePrompt({ system: SYSTEM_PROMPT, messages })),
  };
}

// ----------------------------------------------------------------------------------------------- report

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index] ?? Number.NaN;
}

function stats(values: number[]): { p50: number; p95: number; p99: number } {
  const sorted = [...values].sort((a, b) => a - b);
  return { p50: percentile(sorted, 50), p95: percentile(sorted, 95), p99: percentile(sorted, 99) };
}

function line(label: string, values: number[], unit = 'ms', digits = 2): string {
  const { p50, p95, p99 } = stats(values);
  const f = (x: number) => x.toFixed(digits).padStart(7);
  return `  ${label.padEnd(34)} p50 ${f(p50)} ${unit}  p95 ${f(p95)} ${unit}  p99 ${f(p99)} ${unit}`;
}

/** The names BENCH_PEERS_ONLY takes, in the order the frameworks are built. */
const FRAMEWORK_NAMES = ['holdpoint', 'langgraph', 'openai', 'floor'] as const;

async function main(): Promise<void> {
  // BENCH_PEERS_ONLY=holdpoint (or a comma list) runs only those, e.g. to profile one of them alone.
  const only = process.env.BENCH_PEERS_ONLY?.split(',').map((name) => name.trim().toLowerCase());
  const unknown = only?.filter((name) => !(FRAMEWORK_NAMES as readonly string[]).includes(name)) ?? [];
  if (unknown.length > 0) {
    console.error(
      `BENCH_PEERS_ONLY names unknown frameworks: ${unknown.join(', ')} (known: ${FRAMEWORK_NAMES.join(', ')})`,
    );
    process.exit(2);
  }
  const server = process.env.REDIS_URL ? null : await startRedisServer(readRedisFlags());
  const redisUrl = process.env.REDIS_URL ?? server?.url ?? '';
  const probe = new Redis(redisUrl);
  if (server) await probe.config('SET', 'auto-aof-rewrite-percentage', '0');
  const info = await probe.info('server');
  const builders: Array<[(typeof FRAMEWORK_NAMES)[number], () => Promise<Framework>]> = [
    ['holdpoint', () => holdpoint(redisUrl)],
    ['langgraph', langgraph],
    ['openai', () => openaiAgents(redisUrl)],
    ['floor', () => floor(redisUrl)],
  ];
  const frameworks: Framework[] = [];
  for (const [name, build] of builders) if (!only || only.includes(name)) frameworks.push(await build());
  const historyChars = HISTORY.reduce((sum, { text }) => sum + text.length, 0);
  console.log(
    `holdpoint bench:peers: node ${process.version}, redis ${/redis_version:(\S+)/.exec(info)?.[1]} (${server ? 'private, docker-compose flags, automatic AOF rewrites off' : 'REDIS_URL'}); ` +
      `history ${HISTORY.length} messages, ${historyChars} characters, plus one user message; ` +
      `${WARMUP} warm-up + ${ITERATIONS} timed iterations, round-robin (order rotates)`,
  );
  const samples = new Map<string, Sample[]>(frameworks.map((f) => [f.name, []]));
  const began = Date.now();
  try {
    for (let n = 0; n < WARMUP + ITERATIONS; n++) {
      for (let k = 0; k < frameworks.length; k++) {
        const framework = frameworks[(n + k) % frameworks.length];
        if (!framework) continue;
        const sample = await framework.iteration(n);
        if (n >= WARMUP) samples.get(framework.name)?.push(sample);
      }
    }
  } finally {
    for (const framework of frameworks) await framework.close();
    await probe.quit();
    await server?.stop();
  }
  const own = samples.get('holdpoint') ?? [];
  for (const framework of frameworks) {
    const mine = samples.get(framework.name) ?? [];
    console.log(`${framework.name}`);
    console.log(
      line(
        'pause',
        mine.map((s) => s.pause),
      ),
    );
    console.log(
      line(
        'resume (to the next model call)',
        mine.map((s) => s.resume),
      ),
    );
    console.log(
      line(
        'pause + resume',
        mine.map((s) => s.pause + s.resume),
      ),
    );
    console.log(
      line(
        'resume, to end of run (info)',
        mine.map((s) => s.resumeToEnd),
      ),
    );
  }
  const peers = frameworks.filter((framework) => framework.name !== 'holdpoint');
  if (own.length > 0 && peers.length > 0)
    console.log('ratio peer / holdpoint, pair by pair (same iteration; > 1: holdpoint is cheaper)');
  for (const framework of own.length > 0 ? peers : []) {
    const theirs = samples.get(framework.name) ?? [];
    const ratios = (pick: (s: Sample) => number) =>
      theirs.map((s, i) => {
        const mine = own[i];
        return mine ? pick(s) / pick(mine) : Number.NaN;
      });
    console.log(`${framework.name} / holdpoint`);
    console.log(
      line(
        'pause',
        ratios((s) => s.pause),
        'x',
      ),
    );
    console.log(
      line(
        'resume',
        ratios((s) => s.resume),
        'x',
      ),
    );
    console.log(
      line(
        'pause + resume',
        ratios((s) => s.pause + s.resume),
        'x',
      ),
    );
    const p50 = (values: Sample[]) => stats(values.map((s) => s.pause + s.resume)).p50;
    console.log(
      `  ${'ratio of the pause + resume p50s'.padEnd(34)} ${(p50(theirs) / p50(own)).toFixed(2)} x`,
    );
  }
  const sdk = await sdkPerCall();
  console.log(
    `AI SDK per model step with this history (no model time): generateText p50 ${sdk.generateText.toFixed(0)} µs, of which prompt validation (standardizePrompt) ${sdk.standardizePrompt.toFixed(0)} µs; a pause + resume makes two such calls`,
  );
  console.log(`done in ${((Date.now() - began) / 1000).toFixed(1)} s`);
  process.exit(0);
}

await main();
