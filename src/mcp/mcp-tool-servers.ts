import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { type JSONSchema7, jsonSchema } from 'ai';
import type { AgentTool, ToolApproval } from '../agent/tool-registry.js';
import type { EngineLogger } from '../asks/logger.js';
import type { ApprovalRule, McpServerConfig } from '../config/config-file.js';
import { approvalOf, matchesToolGlob } from './approval-of.js';
import { modelToolName, ruleToolName } from './tool-names.js';
import { MAX_TOOL_OUTPUT_CHARS, type McpCallResult, toolOutputText } from './tool-output.js';

/** How long connecting to one server (start, `initialize`, `tools/list`) may take, in ms. */
export const MCP_CONNECT_TIMEOUT_MS = 10_000;
/** Reconnect delays after a server went down, in ms: doubled from the first up to the last. */
export const MCP_RECONNECT_DELAYS = { firstMs: 1000, maxMs: 60_000 } as const;

/** One server's state, for `/readyz`, `doctor` and the log. */
export interface McpServerStatus {
  name: string;
  transport: McpServerConfig['transport'];
  state: 'connecting' | 'connected' | 'down';
  /** Tools offered to the model from it (kept from the last listing while it is down). */
  tools: number;
  /** Why it is down (the last connect or transport error), or null. */
  error: string | null;
}

/** Options of {@link McpToolServers}. */
export interface McpToolServersOptions {
  servers: readonly McpServerConfig[];
  approvals: readonly ApprovalRule[];
  log: EngineLogger;
  /** Most characters of one result that reach the model (default {@link MAX_TOOL_OUTPUT_CHARS}). */
  maxOutputChars?: number;
  connectTimeoutMs?: number;
  reconnect?: { firstMs: number; maxMs: number };
  /** The registry to put the tools in (default: a new map, {@link McpToolServers.tools}). */
  into?: Map<string, AgentTool>;
  /** Tool names that are taken already (`ask_question`, built-in tools): a server tool of that name is left out. */
  reservedNames?: readonly string[];
}

interface ServerState {
  config: McpServerConfig;
  status: McpServerStatus;
  client: Client | null;
  /** The client while it connects (closed by {@link McpToolServers.close}, so no child outlives us). */
  connecting: Client | null;
  /** Model names of the tools this server put in the registry. */
  names: Set<string>;
  retryDelayMs: number;
  timer: NodeJS.Timeout | null;
}

/**
 * The MCP tool servers of the config file (`mcpServers`), through the official SDK's `Client` over stdio
 * or Streamable HTTP. Each server's tools are offered to the model as `<server>_<tool>` in
 * {@link McpToolServers.tools}, a live registry: a server that is down at start-up is left out and joins
 * when it connects; one that dies later keeps its tools listed, and their calls get an error result until
 * it is back. Down servers are reconnected with backoff ({@link MCP_RECONNECT_DELAYS}). Each call has the
 * server's `callTimeout` and its output is cut to {@link MAX_TOOL_OUTPUT_CHARS}. Never throws from
 * `start`: a problem is logged with the server's name and shown by {@link McpToolServers.status}.
 *
 * A stdio server gets the SDK's default environment (`HOME`, `PATH`, …) plus its own `env`, never
 * holdpoint's secrets.
 */
export class McpToolServers {
  /** Every tool of every server, by the model's name for it. Read on every model step. */
  readonly tools: Map<string, AgentTool>;
  /**
   * Tools left out because their model name was taken (another tool of the server sanitizes to the same
   * `<server>_<tool>`, or a built-in tool has it), as `<server>.<tool> -> <name>` lines. The runtime refuses
   * to start when the first connections found any.
   */
  readonly collisions: string[] = [];
  readonly #servers: ServerState[];
  readonly #options: McpToolServersOptions;
  #closed = false;

  constructor(options: McpToolServersOptions) {
    this.#options = options;
    this.tools = options.into ?? new Map();
    this.#servers = options.servers.map((config) => ({
      config,
      status: { name: config.name, transport: config.transport, state: 'connecting', tools: 0, error: null },
      client: null,
      connecting: null,
      names: new Set(),
      retryDelayMs: (options.reconnect ?? MCP_RECONNECT_DELAYS).firstMs,
      timer: null,
    }));
  }

  /** Connects every server at once; resolves when each is connected or has failed (and will retry). */
  async start(): Promise<void> {
    await Promise.all(this.#servers.map((server) => this.#connect(server)));
  }

  /**
   * Globs of the approval rules that match none of the tools listed so far (`<server>.<tool>`): often a
   * typo, which would quietly leave a tool ungated. A server that is down has listed nothing yet.
   */
  unmatchedGlobs(globs: readonly string[] = this.#options.approvals.flatMap((rule) => rule.tools)): string[] {
    const names = [...this.tools.values()].flatMap((tool) =>
      tool.source ? [ruleToolName(tool.source.server, tool.source.tool)] : [],
    );
    return globs.filter((glob) => !names.some((name) => matchesToolGlob(name, glob)));
  }

  /** Each server's state. */
  status(): McpServerStatus[] {
    return this.#servers.map((server) => ({ ...server.status }));
  }

  /** Stops reconnecting and closes every connection (stdio children are ended). Never throws. */
  async close(): Promise<void> {
    this.#closed = true;
    await Promise.all(
      this.#servers.map(async (server) => {
        if (server.timer) clearTimeout(server.timer);
        const clients = [server.client, server.connecting];
        server.client = null;
        server.connecting = null;
        await Promise.all(clients.map((client) => client?.close().catch(() => undefined)));
      }),
    );
  }

  async #connect(server: ServerState): Promise<void> {
    if (this.#closed) return;
    const { config } = server;
    const log = this.#options.log;
    server.status.state = 'connecting';
    const client = new Client({ name: 'holdpoint', version: '0.1.0' });
    server.connecting = client;
    let transport: Transport;
    if (config.transport === 'stdio') {
      const stdio = new StdioClientTransport({
        command: config.command,
        args: config.args,
        env: { ...getDefaultEnvironment(), ...config.env },
        ...(config.cwd ? { cwd: config.cwd } : {}),
        stderr: 'pipe',
      });
      stdio.stderr?.on('data', (chunk: Buffer) => {
        const text = chunk.toString('utf8').trim();
        if (text)
          log.info({ mcpServer: config.name, stderr: text.slice(0, 2000) }, 'MCP server wrote to stderr');
      });
      transport = stdio;
    } else {
      transport = new StreamableHTTPClientTransport(new URL(config.url), {
        requestInit: { headers: config.headers },
      });
    }
    const timeout = this.#options.connectTimeoutMs ?? MCP_CONNECT_TIMEOUT_MS;
    try {
      await client.connect(transport, { timeout });
      const listed = await client.listTools(undefined, { timeout });
      if (this.#closed) {
        await client.close().catch(() => undefined);
        return;
      }
      server.connecting = null;
      server.client = client;
      this.#register(server, listed.tools);
      server.status = { ...server.status, state: 'connected', tools: server.names.size, error: null };
      server.retryDelayMs = (this.#options.reconnect ?? MCP_RECONNECT_DELAYS).firstMs;
      log.info({ mcpServer: config.name, tools: server.names.size }, 'MCP server connected');
      client.onclose = () => {
        if (server.client !== client) return;
        server.client = null;
        this.#down(server, 'the connection closed (the server exited or hung up)');
      };
      client.onerror = (error) => {
        log.warn({ mcpServer: config.name, err: error }, 'MCP server transport error');
      };
    } catch (error) {
      server.connecting = null;
      await client.close().catch(() => undefined);
      if (this.#closed) return;
      this.#down(server, redactSecrets(describe(error), config));
    }
  }

  #down(server: ServerState, reason: string): void {
    server.status = { ...server.status, state: 'down', error: reason };
    if (this.#closed) return;
    const delay = server.retryDelayMs;
    this.#options.log.warn(
      { mcpServer: server.config.name, reason, retryInMs: delay, toolsKept: server.names.size },
      'MCP server is down; its tools give an error result until it is back',
    );
    const max = (this.#options.reconnect ?? MCP_RECONNECT_DELAYS).maxMs;
    server.retryDelayMs = Math.min(delay * 2, max);
    server.timer = setTimeout(() => {
      server.timer = null;
      void this.#connect(server);
    }, delay);
    server.timer.unref();
  }

  #register(
    server: ServerState,
    tools: ReadonlyArray<{
      name: string;
      description?: string | undefined;
      inputSchema: unknown;
      annotations?:
        | { readOnlyHint?: boolean; destructiveHint?: boolean; idempotentHint?: boolean }
        | undefined;
    }>,
  ): void {
    const { config } = server;
    const reserved = new Set(this.#options.reservedNames ?? []);
    const listed = new Set<string>();
    for (const tool of tools) {
      const name = modelToolName(config.name, tool.name);
      const holder = this.tools.get(name);
      if (reserved.has(name) || (holder && !server.names.has(name)) || listed.has(name)) {
        const line = `${ruleToolName(config.name, tool.name)} -> ${name}`;
        if (!this.collisions.includes(line)) this.collisions.push(line);
        this.#options.log.warn(
          { mcpServer: config.name, tool: tool.name, name },
          'MCP tool left out: another tool has the same name',
        );
        continue;
      }
      listed.add(name);
      const hints = {
        readOnly: tool.annotations?.readOnlyHint === true,
        destructive: tool.annotations?.destructiveHint === true,
        idempotent: tool.annotations?.idempotentHint === true,
      };
      const approval: ToolApproval | null = approvalOf(
        ruleToolName(config.name, tool.name),
        hints,
        this.#options.approvals,
      );
      this.tools.set(name, {
        name,
        description: `${tool.description ?? tool.name} (MCP server "${config.name}", tool "${tool.name}")`,
        inputSchema: jsonSchema(normalizeSchema(tool.inputSchema)),
        hints,
        approval,
        source: { server: config.name, tool: tool.name },
        execute: (input, context) => this.#call(server, tool.name, input, context.signal),
      });
    }
    // Tools the server no longer lists are gone.
    for (const name of server.names) if (!listed.has(name)) this.tools.delete(name);
    server.names = listed;
  }

  async #call(server: ServerState, tool: string, input: unknown, signal?: AbortSignal): Promise<string> {
    const client = server.client;
    if (!client)
      throw new Error(
        `MCP server "${server.config.name}" is not connected (${server.status.error ?? 'connecting'}); nothing was run. It is reconnected automatically; try again later.`,
      );
    let result: McpCallResult;
    try {
      result = (await client.callTool(
        { name: tool, arguments: (input ?? {}) as Record<string, unknown> },
        undefined,
        { timeout: server.config.callTimeoutMs, ...(signal ? { signal } : {}) },
      )) as McpCallResult;
    } catch (error) {
      this.#options.log.warn({ mcpServer: server.config.name, tool, err: error }, 'MCP tool call failed');
      const timedOut = /timed out|RequestTimeout|-32001/i.test(describe(error));
      const closed = /connection closed|-32000/i.test(describe(error));
      throw new Error(
        timedOut
          ? `MCP server "${server.config.name}" did not answer ${tool} within ${server.config.callTimeoutMs / 1000} s; it may still be running it.`
          : closed
            ? `MCP server "${server.config.name}" stopped during ${tool} (the connection closed); the call may have had an effect. Check before you call it again.`
            : `MCP server "${server.config.name}" failed on ${tool}: ${redactSecrets(describe(error), server.config)}`,
      );
    }
    const text = toolOutputText(result, this.#options.maxOutputChars ?? MAX_TOOL_OUTPUT_CHARS);
    if (result.isError) throw new Error(text);
    return text;
  }
}

/** A tool's input schema as the providers want it: an object schema (MCP requires one; be lenient). */
function normalizeSchema(schema: unknown): JSONSchema7 {
  if (schema !== null && typeof schema === 'object' && (schema as { type?: unknown }).type === 'object')
    return schema as JSONSchema7;
  return { type: 'object', properties: {} };
}

/**
 * `text` without the server's secrets: its header and env values (at least 4 characters) become `***`, and
 * so do the user-info and query of any URL in it. Status lines go to `/readyz` and `doctor`. Pure.
 */
export function redactSecrets(text: string, config: McpServerConfig): string {
  const values = Object.values(config.transport === 'http' ? config.headers : config.env).filter(
    (value) => value.length >= 4,
  );
  let out = text;
  for (const value of values.sort((a, b) => b.length - a.length)) out = out.split(value).join('***');
  return out
    .replace(/(https?:\/\/)[^/\s@]+@/gi, '$1***@')
    .replace(/(https?:\/\/[^\s?#]+)\?[^\s#]*/gi, '$1?***');
}

function describe(error: unknown): string {
  let text = error instanceof Error ? error.message : String(error);
  // The SDK's StreamableHTTPError carries the HTTP status as `code` and may have an empty message body.
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'number' && code >= 100 && code < 600) text = `HTTP ${code}: ${text}`;
  return text.replace(/\s+/g, ' ').trim().slice(0, 500);
}
