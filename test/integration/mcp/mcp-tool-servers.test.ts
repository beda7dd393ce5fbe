/**
 * McpToolServers against real MCP servers written with the SDK (test/support): a stdio child and a
 * Streamable HTTP server. Tools are named <server>_<tool> with their hints and approval needs; calls reach
 * the server and are counted there; a hanging call times out; a huge output is cut; a server that crashes
 * mid-call gives an error result, is reconnected and serves again; a server that is down at start-up
 * leaves its tools out and joins when it comes up; nothing ever throws out of start.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import type { McpServerConfig } from '../../../src/config/config-file.js';
import { McpToolServers } from '../../../src/mcp/mcp-tool-servers.js';
import { waitFor } from '../../support/engine-harness.js';
import { startMcpHttpServer, type TestMcpHttpServer } from '../../support/mcp-http-server.js';
import { freePort } from '../../support/redis-server.js';

const STDIO_SERVER = fileURLToPath(new URL('../../support/mcp-stdio-server.ts', import.meta.url));
const TOKEN = 't'.repeat(40);

interface LogLine {
  level: string;
  fields: Record<string, unknown>;
  message: string;
}
function recordingLog(lines: LogLine[]) {
  const at =
    (level: string) =>
    (fields: Record<string, unknown>, message?: string): void => {
      lines.push({ level, fields, message: message ?? '' });
    };
  return { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}

const open: Array<McpToolServers | TestMcpHttpServer> = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((item) => item.close()));
});

function stdio(name: string, dir: string, extra: Partial<McpServerConfig> = {}): McpServerConfig {
  return {
    name,
    transport: 'stdio',
    command: process.execPath,
    args: ['--import', 'tsx', STDIO_SERVER],
    env: { MCP_CALLS_FILE: join(dir, 'calls'), MCP_STARTS_FILE: join(dir, 'starts') },
    cwd: process.cwd(),
    callTimeoutMs: 1500,
    ...extra,
  } as McpServerConfig;
}

function lines(path: string): string[] {
  try {
    return readFileSync(path, 'utf8').split('\n').filter(Boolean);
  } catch {
    return [];
  }
}

async function servers(configs: McpServerConfig[], log: LogLine[] = [], rules = []) {
  const started = new McpToolServers({
    servers: configs,
    approvals: rules,
    log: recordingLog(log),
    reconnect: { firstMs: 100, maxMs: 400 },
    connectTimeoutMs: 5000,
  });
  open.push(started);
  await started.start();
  return started;
}

const context = { turnId: 't1', toolCallId: 'c1' };

describe('McpToolServers', () => {
  it('offers a stdio server tools as <server>_<tool> with their hints, and calls reach the server', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hp-mcp-'));
    writeFileSync(join(dir, 'calls'), '');
    const tools = await servers([stdio('deploy', dir)]);
    expect([...tools.tools.keys()].sort()).toEqual([
      'deploy_crash',
      'deploy_fails',
      'deploy_huge',
      'deploy_restart',
      'deploy_rollback',
      'deploy_slow',
      'deploy_status',
    ]);
    expect(tools.tools.get('deploy_status')?.hints).toEqual({
      readOnly: true,
      destructive: false,
      idempotent: false,
    });
    expect(tools.tools.get('deploy_status')?.approval).toBeNull();
    expect(tools.tools.get('deploy_rollback')?.approval).toMatchObject({
      reason: 'destructive',
      onTimeout: 'deny',
    });
    expect(tools.status()).toEqual([
      { name: 'deploy', transport: 'stdio', state: 'connected', tools: 7, error: null },
    ]);
    const status = tools.tools.get('deploy_status');
    expect(await status?.execute({ service: 'payments-api' }, context)).toBe('payments-api 2.41 is healthy');
    expect(lines(join(dir, 'calls'))).toEqual(['status']);
    await expect(tools.tools.get('deploy_fails')?.execute({}, context)).rejects.toThrow(
      'deploy API answered 503',
    );
  });

  it('a hanging call times out, a huge output is cut, and the server keeps serving', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hp-mcp-'));
    const log: LogLine[] = [];
    const tools = await servers([stdio('deploy', dir)], log);
    await expect(tools.tools.get('deploy_slow')?.execute({}, context)).rejects.toThrow(
      'MCP server "deploy" did not answer slow within 1.5 s',
    );
    const huge = String(await tools.tools.get('deploy_huge')?.execute({}, context));
    expect(huge.length).toBeLessThan(16_100);
    expect(huge).toContain('[output cut: 50,000 characters, the first 16,000 shown]');
    expect(await tools.tools.get('deploy_status')?.execute({ service: 'a' }, context)).toBe(
      'a 2.41 is healthy',
    );
    expect(log.some((line) => line.level === 'warn' && line.fields.mcpServer === 'deploy')).toBe(true);
  });

  it('a server that crashes mid-call: an error result, then it is reconnected and serves again', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hp-mcp-'));
    const log: LogLine[] = [];
    const tools = await servers([stdio('deploy', dir, { callTimeoutMs: 10_000 })], log);
    await expect(tools.tools.get('deploy_crash')?.execute({}, context)).rejects.toThrow(
      /MCP server "deploy"/,
    );
    await waitFor(async () => lines(join(dir, 'starts')).length === 2, 10_000, 'a restarted server');
    await waitFor(async () => tools.status()[0]?.state === 'connected', 10_000, 'connected again');
    expect(await tools.tools.get('deploy_status')?.execute({ service: 'b' }, context)).toBe(
      'b 2.41 is healthy',
    );
    expect(log.some((line) => line.message.startsWith('MCP server is down'))).toBe(true);
  });

  it('a server that is down at start-up: start resolves, its tools are left out, and it joins when it is up', async () => {
    const port = await freePort();
    const log: LogLine[] = [];
    const missing: McpServerConfig = {
      name: 'ghost',
      transport: 'stdio',
      command: '/nonexistent/mcp-server',
      args: [],
      env: {},
      cwd: null,
      callTimeoutMs: 1000,
    };
    const http: McpServerConfig = {
      name: 'remote',
      transport: 'http',
      url: `http://127.0.0.1:${port}/mcp`,
      headers: { Authorization: `Bearer ${TOKEN}` },
      callTimeoutMs: 2000,
    };
    const tools = await servers([missing, http], log);
    expect(tools.tools.size).toBe(0);
    expect(tools.status().map((s) => [s.name, s.state])).toEqual([
      ['ghost', 'down'],
      ['remote', 'down'],
    ]);
    expect(tools.status()[0]?.error).toMatch(/ENOENT/);

    const remote = await startMcpHttpServer(TOKEN, port);
    open.push(remote);
    await waitFor(async () => tools.tools.has('remote_status'), 10_000, 'the HTTP server joining');
    expect(await tools.tools.get('remote_status')?.execute({ service: 'c' }, context)).toBe(
      'c 2.41 is healthy',
    );
    expect(remote.calls.get('status')).toBe(1);
    expect(remote.refused).toBe(0);
    expect(tools.status()[0]?.state).toBe('down');
  });

  it('an HTTP server that refuses our token stays down with the reason, and nothing is called', async () => {
    const remote = await startMcpHttpServer(TOKEN);
    open.push(remote);
    const tools = await servers([
      {
        name: 'remote',
        transport: 'http',
        url: remote.url,
        headers: { Authorization: 'Bearer wrong' },
        callTimeoutMs: 1000,
      },
    ]);
    expect(tools.status()[0]).toMatchObject({ state: 'down', tools: 0 });
    expect(tools.status()[0]?.error).toMatch(/401|Unauthorized/i);
    expect(remote.refused).toBeGreaterThan(0);
    expect(remote.calls.size).toBe(0);
  });

  it('tools whose model names collide: the second is left out and named in collisions', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hp-mcp-'));
    const config = stdio('deploy', dir);
    const tools = await servers([
      {
        ...config,
        env: { ...(config as { env: Record<string, string> }).env, MCP_COLLIDE: '1' },
      } as McpServerConfig,
    ]);
    expect(tools.tools.has('deploy_status_v2')).toBe(true);
    expect(tools.collisions).toEqual(['deploy.status_v2 -> deploy_status_v2']);
  });

  it('close ends a stdio server that is still connecting (no child outlives holdpoint)', async () => {
    const seconds = `${1000 + Math.floor(Math.random() * 1000)}.5`;
    const hanging = new McpToolServers({
      servers: [
        {
          name: 'hang',
          transport: 'stdio',
          command: 'sleep',
          args: [seconds],
          env: {},
          cwd: null,
          callTimeoutMs: 1000,
        },
      ],
      approvals: [],
      log: recordingLog([]),
      connectTimeoutMs: 30_000,
    });
    const running = () => execFileSync('ps', ['-eo', 'args']).toString().includes(`sleep ${seconds}`);
    const started = hanging.start();
    await waitFor(async () => running(), 5000, 'the server process');
    await hanging.close();
    await started;
    await waitFor(async () => !running(), 5000, 'the server process ended');
  });
});
