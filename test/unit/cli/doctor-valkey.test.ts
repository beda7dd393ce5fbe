/**
 * `holdpoint doctor`'s Redis lines against a server that answers like Valkey 8.1 (a small RESP server
 * here, through the real ioredis client): the version check passes and the line names Valkey. The same
 * server answering like Redis 6.2 (which knows only `hash-max-ziplist-value`) shows the name it answered to.
 */

import type { AddressInfo } from 'node:net';
import { createServer, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkRedisServer } from '../../../src/doctor/check-redis.js';

const VALKEY_SERVER_INFO =
  '# Server\r\nredis_version:7.2.4\r\nserver_name:valkey\r\nvalkey_version:8.1.1\r\nredis_mode:standalone\r\n';
const MEMORY_INFO = '# Memory\r\nmaxmemory_policy:noeviction\r\n';

const bulk = (text: string) => `$${Buffer.byteLength(text)}\r\n${text}\r\n`;

/** The commands of a RESP buffer (arrays of bulk strings), and what is left of an incomplete one. */
function parseCommands(buffer: string): { commands: string[][]; rest: string } {
  const commands: string[][] = [];
  let at = 0;
  for (;;) {
    const header = /^\*(\d+)\r\n/.exec(buffer.slice(at));
    if (!header) break;
    let cursor = at + header[0].length;
    const parts: string[] = [];
    for (let index = 0; index < Number(header[1]); index += 1) {
      const size = /^\$(\d+)\r\n/.exec(buffer.slice(cursor));
      if (!size || buffer.length < cursor + size[0].length + Number(size[1]) + 2)
        return { commands, rest: buffer.slice(at) };
      cursor += size[0].length;
      parts.push(buffer.slice(cursor, cursor + Number(size[1])));
      cursor += Number(size[1]) + 2;
    }
    commands.push(parts);
    at = cursor;
  }
  return { commands, rest: buffer.slice(at) };
}

/** Redis 6.2 answers `CONFIG GET` of a name it does not know with an empty array. */
let knowsListpackName = true;

function reply(command: string[]): string {
  const [name = '', argument = ''] = command.map((part) => part.toLowerCase());
  if (name === 'ping') return '+PONG\r\n';
  if (name === 'client') return '+OK\r\n';
  if (name === 'config' && command[2] === 'hash-max-listpack-value')
    return knowsListpackName ? `*2\r\n${bulk('hash-max-listpack-value')}${bulk('1024')}` : '*0\r\n';
  if (name === 'config' && command[2] === 'hash-max-ziplist-value')
    return `*2\r\n${bulk('hash-max-ziplist-value')}${bulk('512')}`;
  if (name === 'info')
    return bulk(
      argument === 'memory' ? MEMORY_INFO : `${VALKEY_SERVER_INFO}\r\n# Persistence\r\nloading:0\r\n`,
    );
  return `-ERR unknown command '${name}'\r\n`;
}

let server: Server;
let url: string;
const sockets = new Set<Socket>();

beforeAll(async () => {
  server = createServer((socket) => {
    sockets.add(socket);
    let buffer = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      const parsed = parseCommands(buffer + chunk);
      buffer = parsed.rest;
      for (const command of parsed.commands) socket.write(reply(command));
    });
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  url = `redis://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  for (const socket of sockets) socket.destroy();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

describe('checkRedisServer on Valkey', () => {
  it('passes the version check and names Valkey with the Redis version it reports', async () => {
    const checks = await checkRedisServer(url, { connectTimeoutMs: 2000 });
    expect(checks.map(({ name, ok }) => ({ name, ok }))).toEqual([
      { name: 'Redis reachable', ok: true },
      { name: 'Redis version', ok: true },
      { name: 'Redis eviction policy', ok: true },
      { name: 'Redis hash encoding', ok: true },
    ]);
    expect(checks[3]).toEqual({
      name: 'Redis hash encoding',
      ok: true,
      detail: 'hash-max-listpack-value 1024',
    });
    expect(checks[1]?.detail).toBe('Valkey 8.1.1, Redis-compatible 7.2.4 (needs 6.2.0 or newer)');
    expect(checks[1]?.fix).toBeUndefined();
  });

  it('names the setting as a server that knows only the older name does, with its value', async () => {
    knowsListpackName = false;
    try {
      const checks = await checkRedisServer(url, { connectTimeoutMs: 2000 });
      expect(checks[3]).toMatchObject({
        name: 'Redis hash encoding',
        ok: true,
        warning: true,
        detail: 'hash-max-ziplist-value 512 (1024 recommended)',
      });
    } finally {
      knowsListpackName = true;
    }
  });
});

describe('checkRedisServer with a URL ioredis cannot parse', () => {
  it('is one failed line naming the URL, not a thrown TypeError', async () => {
    const checks = await checkRedisServer('redis://[::1', { connectTimeoutMs: 2000 });
    expect(checks).toHaveLength(1);
    expect(checks[0]).toMatchObject({ name: 'Redis reachable', ok: false });
    expect(checks[0]?.detail).toMatch(/^cannot use REDIS_URL /);
  });
});
