#!/usr/bin/env node
// Prints the redis-server flags of docker-compose.yml's `redis` service, space-separated on one line, so
// that CI and the end-to-end tests start Redis exactly as compose does:
//   redis-server --port 6390 $(node scripts/redis-flags.mjs)
// Also importable: `redisFlagsFromCompose(text)` and `readRedisFlags(path)` (types in redis-flags.d.mts).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

/** The server programs a `services.redis.command` may start with (the compose file runs Valkey). */
const SERVER_PROGRAMS = ['redis-server', 'valkey-server'];

/**
 * The flags of `services.redis.command` (array or string form) without the leading `redis-server` or
 * `valkey-server` (Valkey takes the same flags).
 * @param {string} text docker-compose.yml text
 * @returns {string[]}
 */
export function redisFlagsFromCompose(text) {
  const compose = parse(text);
  const command = compose?.services?.redis?.command;
  const parts = Array.isArray(command)
    ? command.map(String)
    : typeof command === 'string'
      ? command.trim().split(/\s+/)
      : null;
  if (parts === null) throw new Error('docker-compose.yml has no services.redis.command');
  return SERVER_PROGRAMS.includes(parts[0] ?? '') ? parts.slice(1) : parts;
}

/**
 * Reads the flags from a compose file (default: docker-compose.yml at the repository root).
 * @param {string} [composePath]
 * @returns {string[]}
 */
export function readRedisFlags(
  composePath = fileURLToPath(new URL('../docker-compose.yml', import.meta.url)),
) {
  return redisFlagsFromCompose(readFileSync(composePath, 'utf8'));
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  process.stdout.write(`${readRedisFlags(process.argv[2]).join(' ')}\n`);
}
