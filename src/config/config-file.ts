import picomatch from 'picomatch';
import { isMap, isPair, isScalar, isSeq, LineCounter, type Node, parseDocument } from 'yaml';
import { z } from 'zod';
import type { TimeoutPolicy } from '../ask/types.js';
import type { AnswererPolicy, Escalation } from '../asks/types.js';
import { parseDuration } from './durations.js';

/** Default timeout of one MCP tool call, in ms (60 s). */
export const DEFAULT_TOOL_CALL_TIMEOUT_MS = 60_000;

/** An MCP tool server of the config file, in the shape Claude Desktop, Claude Code and Cursor use. */
export type McpServerConfig = {
  /** Its key under `mcpServers`; tools are offered to the model as `<name>_<tool>`. */
  name: string;
  /** Longest wait for one tool call, in ms (`callTimeout`, default {@link DEFAULT_TOOL_CALL_TIMEOUT_MS}). */
  callTimeoutMs: number;
} & (
  | {
      transport: 'stdio';
      command: string;
      args: string[];
      /** Added to the child's environment (`${VAR}` already replaced). Secret values may be in here. */
      env: Record<string, string>;
      cwd: string | null;
    }
  | {
      transport: 'http';
      /** Streamable HTTP endpoint. */
      url: string;
      /** Sent with every request (`${VAR}` already replaced). Secret values may be in here. */
      headers: Record<string, string>;
    }
);

/** What a timed-out approval does (`onTimeout`). */
export type ApprovalTimeoutAction = 'deny' | 'approve';

/** One rule of `approvals:`: which tool calls need a person's approval, and whose. */
export interface ApprovalRule {
  /** Globs over `<server>.<tool>` (picomatch: `*` is any characters, `{a,b}` either). */
  tools: string[];
  /** User (U…, W…) and user-group (S…) ids; null: the person who started the turn. */
  approvers: string[] | null;
  /** How long the approval waits, in ms; null: `ASK_TIMEOUT`. */
  timeoutMs: number | null;
  onTimeout: ApprovalTimeoutAction;
  /** `never`: calls it matches run without approval, even when the server marks the tool destructive. */
  approval: 'always' | 'never';
  /** Distinct approvers who must approve (default 1); any single Deny denies. */
  quorum: number;
  /** Who else may approve once nobody did for a while; null: `ASK_ESCALATE_AFTER` / `ASK_ESCALATE_TO`. */
  escalation: Escalation | null;
}

/**
 * What a channel (or `defaults:`) sets; every field is optional and falls back to `defaults:`, then to the
 * environment (`SYSTEM_PROMPT*`, `ASK_TIMEOUT`, `ASK_TIMEOUT_POLICY`, `ASK_ANSWERERS`, every tool).
 */
export interface ChannelSettings {
  /** The system prompt text; `systemPromptFile` is read into it when the config loads. */
  systemPrompt?: string;
  /** Path of a UTF-8 file holding the system prompt (read once at start-up, like SYSTEM_PROMPT_FILE). */
  systemPromptFile?: string;
  /** ms. */
  askTimeoutMs?: number;
  timeoutPolicy?: TimeoutPolicy;
  answerers?: AnswererPolicy;
  /** Globs over `<server>.<tool>`: the tools the agent may use here; absent: every tool. */
  tools?: string[];
  /** Approval rules checked before `defaults:`'s and the top-level ones (the first match decides). */
  approvals: ApprovalRule[];
}

/** The validated config file (`HOLDPOINT_CONFIG`). */
export interface ConfigFile {
  /** The path it was read from; null when none is configured (then everything below is empty). */
  path: string | null;
  mcpServers: McpServerConfig[];
  approvals: ApprovalRule[];
  /** `defaults:`: what every channel gets unless it sets its own. */
  defaults: ChannelSettings;
  /** `channels:` by channel id (C…, G…, D…). */
  channels: Record<string, ChannelSettings>;
}

/** The config file of a process started without `HOLDPOINT_CONFIG`. */
export const EMPTY_CONFIG_FILE: ConfigFile = {
  path: null,
  mcpServers: [],
  approvals: [],
  defaults: { approvals: [] },
  channels: {},
};

const SERVER_NAME = /^[A-Za-z0-9-]{1,32}$/;
const ID_LIST = /^[UWS][A-Z0-9]{2,}$/;

const duration = (what: string) =>
  z.union([z.string(), z.number()]).transform((value, ctx) => {
    const ms = parseDuration(String(value));
    if (ms === null || ms < 1000 || ms > 7 * 24 * 3600 * 1000) {
      ctx.addIssue({
        code: 'custom',
        message: `${what}: "${value}" is not a duration from 1s to 7d (e.g. 90s, 15m, 2h)`,
      });
      return z.NEVER;
    }
    return ms;
  });

const stringMap = z.record(z.string(), z.string({ error: 'expected a string' }), {
  error: 'expected a map of names to strings',
});

const stdioServer = z.strictObject({
  command: z
    .string({
      error: (issue) =>
        issue.input === undefined
          ? 'missing: give command (a stdio server) or url (a Streamable HTTP server)'
          : 'expected the command that starts the server',
    })
    .min(1, 'expected the command that starts the server'),
  args: z
    .array(z.string({ error: 'expected a string' }), { error: 'expected a list of strings' })
    .default([]),
  env: stringMap.default({}),
  cwd: z.string().min(1).optional(),
  callTimeout: duration('callTimeout').optional(),
});

const httpServer = z.strictObject({
  url: z
    .string()
    .refine((text) => /^https?:\/\//i.test(text) && URL.canParse(text), 'expected an http or https URL')
    .refine(
      (text) => !URL.canParse(text) || (new URL(text).username === '' && new URL(text).password === ''),
      'credentials in the URL are refused (fetch does not send them): put them in headers, e.g. Authorization',
    ),
  headers: stringMap.default({}),
  callTimeout: duration('callTimeout').optional(),
});

const globSchema = z.string().superRefine((glob, ctx) => {
  if (!/^[A-Za-z0-9_.*?{},![\]/:-]+$/.test(glob)) {
    ctx.addIssue({
      code: 'custom',
      message: `"${glob}" is not a glob over <server>.<tool>: use letters, digits, - _ . / : and the wildcards * ? {a,b}`,
    });
    return;
  }
  try {
    picomatch.makeRe(glob, { strictBrackets: true });
  } catch (error) {
    ctx.addIssue({
      code: 'custom',
      message: `"${glob}" is not a valid glob (${error instanceof Error ? error.message : String(error)})`,
    });
  }
});

const approvalRule = z.strictObject({
  tools: z
    .array(globSchema, { error: 'expected a list of globs such as "deploy.*"' })
    .min(1, 'name at least one tool glob'),
  approvers: z
    .array(z.string().regex(ID_LIST, 'expected a user id (U…, W…) or user-group id (S…)'), {
      error: 'expected a list of user and user-group ids',
    })
    .min(1, 'name at least one approver, or leave approvers out (the person who started the turn)')
    .optional(),
  timeout: duration('timeout').optional(),
  onTimeout: z.enum(['deny', 'approve'], { error: 'expected deny or approve' }).default('deny'),
  approval: z.enum(['always', 'never'], { error: 'expected always or never' }).default('always'),
  quorum: z
    .number({ error: 'expected a whole number of approvers' })
    .int('expected a whole number of approvers')
    .min(1, 'at least 1')
    .max(20, 'at most 20')
    .default(1),
  escalateAfter: duration('escalateAfter').optional(),
  escalateTo: z
    .array(z.string().regex(ID_LIST, 'expected a user id (U…, W…) or user-group id (S…)'), {
      error: 'expected a list of user and user-group ids',
    })
    .min(1, 'name at least one person or group to escalate to')
    .optional(),
});

const channelSchema = z.strictObject(
  {
    systemPrompt: z
      .string({ error: 'expected the prompt text' })
      .min(1, 'expected the prompt text')
      .optional(),
    systemPromptFile: z
      .string({ error: 'expected the path of a UTF-8 file' })
      .min(1, 'expected the path of a UTF-8 file')
      .optional(),
    askTimeout: duration('askTimeout').optional(),
    timeoutPolicy: z
      .enum(['recommended-or-first', 'recommended-only', 'no-answer'], {
        error: 'expected recommended-or-first, recommended-only or no-answer',
      })
      .optional(),
    answerers: z
      .union(
        [
          z.enum(['anyone', 'requester']),
          z
            .array(z.string().regex(ID_LIST, 'expected a user id (U…, W…) or user-group id (S…)'))
            .min(1, 'name at least one person or group, or use anyone or requester'),
        ],
        { error: 'expected anyone, requester, or a list of user and user-group ids' },
      )
      .optional(),
    tools: z.array(globSchema, { error: 'expected a list of globs such as "deploy.*"' }).optional(),
    approvals: z.array(z.unknown(), { error: 'expected a list of rules' }).default([]),
  },
  { error: 'expected a map of channel settings' },
);

const fileSchema = z.strictObject(
  {
    mcpServers: z
      .record(z.string(), z.unknown(), { error: 'expected a map of server names to servers' })
      .default({}),
    approvals: z.array(z.unknown(), { error: 'expected a list of rules' }).default([]),
    defaults: z.unknown().optional(),
    channels: z
      .record(z.string(), z.unknown(), { error: 'expected a map of channel ids to settings' })
      .default({}),
  },
  { error: 'expected a map with mcpServers, approvals, defaults and channels' },
);

/** One problem of a config file, with the line it is on (1-based; null when it is about the whole file). */
export interface ConfigFileProblem {
  line: number | null;
  /** A sentence naming the key path, what is wrong and how to fix it. Never contains a secret value. */
  message: string;
}

/** Outcome of {@link parseConfigFile}. */
export type ParseConfigFileResult =
  | { ok: true; file: ConfigFile }
  | { ok: false; problems: ConfigFileProblem[] };

/**
 * Parses and validates a config file (YAML; JSON is YAML too). `${VAR}` in any string value is replaced
 * from `env` (a name that is not set is a problem; `$${` writes a literal `${`). Every problem is reported
 * at once, each with its line. Pure; never throws.
 * @param text the file's content
 * @param env the environment `${VAR}` reads
 */
export function parseConfigFile(
  text: string,
  env: Readonly<Record<string, string | undefined>>,
  path: string,
): ParseConfigFileResult {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text.replace(/^\uFEFF/, ''), { lineCounter, prettyErrors: false });
  const lineAt = (offset: number | undefined) =>
    offset === undefined ? null : lineCounter.linePos(offset).line;
  if (doc.errors.length > 0)
    return {
      ok: false,
      problems: doc.errors.map((error) => ({
        line: lineAt(error.pos[0]),
        message: `not valid YAML: ${error.message.split('\n')[0]}`,
      })),
    };
  const problems: ConfigFileProblem[] = [];
  const lineOf = (keys: ReadonlyArray<PropertyKey>, key?: string) => lineAt(nodeAt(doc.contents, keys, key));

  // `${VAR}` first, on the plain value, so that every later check sees the real strings.
  const raw: unknown = doc.toJS() ?? {};
  const substituted = substitute(raw, [], env, (keys, message) =>
    problems.push({ line: lineOf(keys), message }),
  );

  const parsed = fileSchema.safeParse(substituted);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) problems.push(problemOf(issue, [], lineOf));
    return { ok: false, problems };
  }
  const servers: McpServerConfig[] = [];
  for (const [name, value] of Object.entries(parsed.data.mcpServers)) {
    const at = ['mcpServers', name];
    if (!SERVER_NAME.test(name)) {
      problems.push({
        line: lineOf(['mcpServers'], name),
        message: `mcpServers.${name}: a server name is 1 to 32 letters, digits or -, so that its tools can be named <server>_<tool>`,
      });
      continue;
    }
    const isHttp = value !== null && typeof value === 'object' && 'url' in value;
    const result = (isHttp ? httpServer : stdioServer).safeParse(value);
    if (!result.success) {
      for (const issue of result.error.issues) problems.push(problemOf(issue, at, lineOf));
      continue;
    }
    const data = result.data;
    const callTimeoutMs = data.callTimeout ?? DEFAULT_TOOL_CALL_TIMEOUT_MS;
    if ('url' in data)
      servers.push({ name, transport: 'http', url: data.url, headers: data.headers, callTimeoutMs });
    else
      servers.push({
        name,
        transport: 'stdio',
        command: data.command,
        args: data.args,
        env: data.env,
        cwd: data.cwd ?? null,
        callTimeoutMs,
      });
  }
  const approvals = parseApprovals(parsed.data.approvals, [], problems, lineOf);
  const channelSettings = (value: unknown, base: PropertyKey[]): ChannelSettings => {
    const result = channelSchema.safeParse(value ?? {});
    if (!result.success) {
      for (const issue of result.error.issues) problems.push(problemOf(issue, base, lineOf));
      return { approvals: [] };
    }
    const data = result.data;
    if (data.systemPrompt !== undefined && data.systemPromptFile !== undefined)
      problems.push({
        line: lineOf(base),
        message: `${formatPath(base)}: set systemPrompt or systemPromptFile, not both`,
      });
    const answerers: AnswererPolicy | undefined =
      data.answerers === undefined
        ? undefined
        : typeof data.answerers === 'string'
          ? { mode: data.answerers }
          : {
              mode: 'list',
              userIds: data.answerers.filter((id) => !id.startsWith('S')),
              groupIds: data.answerers.filter((id) => id.startsWith('S')),
            };
    return {
      ...(data.systemPrompt !== undefined ? { systemPrompt: data.systemPrompt } : {}),
      ...(data.systemPromptFile !== undefined ? { systemPromptFile: data.systemPromptFile } : {}),
      ...(data.askTimeout !== undefined ? { askTimeoutMs: data.askTimeout } : {}),
      ...(data.timeoutPolicy !== undefined ? { timeoutPolicy: data.timeoutPolicy } : {}),
      ...(answerers !== undefined ? { answerers } : {}),
      ...(data.tools !== undefined ? { tools: data.tools } : {}),
      approvals: parseApprovals(data.approvals, [...base, 'approvals'], problems, lineOf),
    };
  };
  const defaults = channelSettings(parsed.data.defaults, ['defaults']);
  const channels: Record<string, ChannelSettings> = {};
  for (const [channel, value] of Object.entries(parsed.data.channels)) {
    if (!/^[CGD][A-Z0-9]{2,}$/.test(channel)) {
      problems.push({
        line: lineOf(['channels'], channel),
        message: `channels.${channel}: expected a channel id (C…, G…, D…) as the key, as Slack shows it in the channel's details`,
      });
      continue;
    }
    channels[channel] = channelSettings(value, ['channels', channel]);
  }
  const lowered = new Map<string, string>();
  for (const server of servers) {
    const earlier = lowered.get(server.name.toLowerCase());
    if (earlier)
      problems.push({
        line: lineOf(['mcpServers'], server.name),
        message: `mcpServers.${server.name}: the same name as ${earlier} apart from case; tool names would collide`,
      });
    lowered.set(server.name.toLowerCase(), server.name);
  }
  if (problems.length > 0) return { ok: false, problems };
  return {
    ok: true,
    file: {
      path,
      mcpServers: servers,
      approvals,
      defaults,
      channels,
    },
  };
}

/** Parses a list of approval rules at `base` (`approvals`, `channels.C1.approvals`, …); problems are added. */
function parseApprovals(
  values: readonly unknown[],
  base: PropertyKey[],
  problems: ConfigFileProblem[],
  lineOf: (keys: ReadonlyArray<PropertyKey>, key?: string) => number | null,
): ApprovalRule[] {
  const at = base.length > 0 ? base : ['approvals'];
  const approvals: ApprovalRule[] = [];
  for (const [index, value] of values.entries()) {
    const result = approvalRule.safeParse(value);
    if (!result.success) {
      for (const issue of result.error.issues) problems.push(problemOf(issue, [...at, index], lineOf));
      continue;
    }
    const rule = result.data;
    if ((rule.escalateAfter === undefined) !== (rule.escalateTo === undefined)) {
      problems.push({
        line: lineOf([...at, index]),
        message: `${formatPath([...at, index])}: escalateAfter and escalateTo go together: set both or neither`,
      });
      continue;
    }
    approvals.push({
      tools: rule.tools,
      approvers: rule.approvers ?? null,
      timeoutMs: rule.timeout ?? null,
      onTimeout: rule.onTimeout,
      approval: rule.approval,
      quorum: rule.quorum,
      escalation: escalationOf(rule.escalateAfter, rule.escalateTo),
    });
  }
  return approvals;
}

/** The sentence of one zod issue, with its full key path and line. */
function problemOf(
  issue: z.core.$ZodIssue,
  base: ReadonlyArray<PropertyKey>,
  lineOf: (keys: ReadonlyArray<PropertyKey>, key?: string) => number | null,
): ConfigFileProblem {
  const keys = [...base, ...issue.path];
  const where = keys.length > 0 ? formatPath(keys) : 'the file';
  if (issue.code === 'unrecognized_keys') {
    const key = issue.keys[0] ?? '';
    const known = knownKeys(keys);
    const hint = known.length > 0 ? ` (known keys: ${known.join(', ')})` : '';
    return {
      line: lineOf(keys, key),
      message: `${where === 'the file' ? '' : `${where}: `}unknown key ${issue.keys.map((k) => `"${k}"`).join(', ')}${hint}`,
    };
  }
  const message = issue.message.startsWith('Invalid input') ? 'not understood' : issue.message;
  return { line: lineOf(keys), message: `${where}: ${message}` };
}

function knownKeys(keys: ReadonlyArray<PropertyKey>): string[] {
  if (keys.length === 0) return ['mcpServers', 'approvals', 'defaults', 'channels'];
  if ((keys[0] === 'defaults' && keys.length === 1) || (keys[0] === 'channels' && keys.length === 2))
    return [
      'systemPrompt',
      'systemPromptFile',
      'askTimeout',
      'timeoutPolicy',
      'answerers',
      'tools',
      'approvals',
    ];
  if (keys[0] === 'mcpServers' && keys.length === 2)
    return ['command', 'args', 'env', 'cwd', 'url', 'headers', 'callTimeout'];
  if (keys[0] === 'approvals' && keys.length === 2)
    return [
      'tools',
      'approvers',
      'timeout',
      'onTimeout',
      'approval',
      'quorum',
      'escalateAfter',
      'escalateTo',
    ];
  return [];
}

function formatPath(keys: ReadonlyArray<PropertyKey>): string {
  return keys
    .map((key, index) => (typeof key === 'number' ? `[${key}]` : `${index === 0 ? '' : '.'}${String(key)}`))
    .join('');
}

/** Offset of the node at `keys` (or of the key `key` in the map there) in the YAML source. */
function nodeAt(root: Node | null, keys: ReadonlyArray<PropertyKey>, key?: string): number | undefined {
  const rangeOf = (node: unknown) => (node as { range?: [number] } | null | undefined)?.range?.[0];
  let node: unknown = root;
  let offset = rangeOf(root);
  const steps = key === undefined ? keys : [...keys, key];
  for (const [index, step] of steps.entries()) {
    if (isMap(node)) {
      const pair = node.items.find(
        (item) => isPair(item) && isScalar(item.key) && String(item.key.value) === String(step),
      );
      if (!pair) return offset;
      if (key !== undefined && index === steps.length - 1) return rangeOf(pair.key) ?? offset;
      node = pair.value;
      offset = rangeOf(node) ?? rangeOf(pair.key) ?? offset;
    } else if (isSeq(node) && typeof step === 'number') {
      node = node.items[step];
      offset = rangeOf(node) ?? offset;
    } else return offset;
  }
  return offset;
}

const VARIABLE = /\$(\$)?\{([^}]*)\}/g;

/** Replaces `${VAR}` in every string of `value`; reports names that are not set or not names. */
function substitute(
  value: unknown,
  keys: PropertyKey[],
  env: Readonly<Record<string, string | undefined>>,
  report: (keys: PropertyKey[], message: string) => void,
): unknown {
  if (typeof value === 'string') {
    return value.replace(VARIABLE, (match, escaped: string | undefined, name: string) => {
      if (escaped) return match.slice(1);
      if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) {
        report(keys, `${formatPath(keys)}: "\${${name}}" is not a variable name (letters, digits and _)`);
        return '';
      }
      const found = env[name];
      if (found === undefined || found === '') {
        report(
          keys,
          `${formatPath(keys)}: \${${name}} is not set in the environment: set ${name} (e.g. in .env)`,
        );
        return '';
      }
      return found;
    });
  }
  if (Array.isArray(value))
    return value.map((item, index) => substitute(item, [...keys, index], env, report));
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, substitute(item, [...keys, key], env, report)]),
    );
  return value;
}

/** A rule's escalation from its `escalateAfter` and `escalateTo` (both or neither; checked by the caller). */
function escalationOf(afterMs: number | undefined, to: string[] | undefined): Escalation | null {
  if (afterMs === undefined || to === undefined) return null;
  return {
    afterMs,
    userIds: to.filter((id) => !id.startsWith('S')),
    groupIds: to.filter((id) => id.startsWith('S')),
  };
}
