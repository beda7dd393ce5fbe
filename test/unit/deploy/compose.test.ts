// biome-ignore-all lint/suspicious/noTemplateCurlyInString: compose and config text hold ${VAR}
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { z } from 'zod';
import { NODE_FLAGS } from '../../../scripts/node-flags.mjs';
import { readRedisFlags, redisFlagsFromCompose } from '../../../scripts/redis-flags.mjs';
import { parseConfigFile } from '../../../src/config/config-file.js';
import { CONFIG_VARIABLES } from '../../../src/config/config-variables.js';
import { parseDuration } from '../../../src/config/durations.js';

const root = new URL('../../../', import.meta.url);
const read = (path: string): string => readFileSync(new URL(path, root), 'utf8');

const healthcheck = z.object({
  test: z.union([z.string(), z.array(z.string())]),
  interval: z.string().optional(),
  timeout: z.string().optional(),
  retries: z.number().optional(),
});
const service = z.object({
  image: z.string().optional(),
  build: z.unknown().optional(),
  command: z.union([z.string(), z.array(z.string())]).optional(),
  env_file: z.union([z.string(), z.array(z.string())]).optional(),
  environment: z.record(z.string(), z.string()).optional(),
  ports: z.array(z.string()).optional(),
  volumes: z.array(z.string()).optional(),
  depends_on: z.record(z.string(), z.object({ condition: z.string() })).optional(),
  healthcheck: healthcheck.optional(),
  restart: z.string().optional(),
  stop_grace_period: z.string().optional(),
  container_name: z.string().optional(),
  init: z.boolean().optional(),
});
const composeSchema = z.object({
  services: z.object({ redis: service, holdpoint: service, worker: service }),
  volumes: z.record(z.string(), z.unknown().nullable()),
});

const composeText = read('docker-compose.yml');
const compose = composeSchema.parse(parse(composeText));
const { redis, holdpoint, worker } = compose.services;

function envFiles(entry: z.infer<typeof service>): string[] {
  return entry.env_file === undefined
    ? []
    : typeof entry.env_file === 'string'
      ? [entry.env_file]
      : entry.env_file;
}

describe('docker-compose.yml: redis', () => {
  it('runs a pinned BSD-licensed Valkey (7.2 or newer, which reports redis_version 7.2.4), not the RSALv2/SSPL redis image', () => {
    const match = /^valkey\/valkey:(\d+)\.(\d+)(?:\.\d+)?-alpine$/.exec(redis.image ?? '');
    expect(match, redis.image).not.toBeNull();
    const [major, minor] = [Number(match?.[1]), Number(match?.[2])];
    expect(major * 100 + minor).toBeGreaterThanOrEqual(702);
    expect(redis.image).not.toMatch(/^redis:/);
    expect(redis.command?.[0]).toBe('valkey-server');
    // Why it is not the redis image is said where the next person will look.
    expect(composeText).toMatch(/BSD-3-Clause/);
    expect(composeText).toMatch(/RSALv2\/SSPL/);
  });

  it('runs with append-only persistence every second, noeviction and 1 KB listpack hash values', () => {
    const flags = redisFlagsFromCompose(composeText);
    const value = (flag: string): string | undefined => flags[flags.indexOf(flag) + 1];
    expect(flags.filter((flag) => flag.startsWith('--'))).toEqual([
      '--appendonly',
      '--appendfsync',
      '--maxmemory-policy',
      '--hash-max-ziplist-value',
    ]);
    expect(value('--appendonly')).toBe('yes');
    expect(value('--appendfsync')).toBe('everysec');
    expect(value('--maxmemory-policy')).toBe('noeviction');
    expect(value('--hash-max-ziplist-value')).toBe('1024');
  });

  it('scripts/redis-flags.mjs reads the same flags CI and the e2e tests use', () => {
    expect(readRedisFlags()).toEqual([
      '--appendonly',
      'yes',
      '--appendfsync',
      'everysec',
      '--maxmemory-policy',
      'noeviction',
      '--hash-max-ziplist-value',
      '1024',
    ]);
    for (const program of ['redis-server', 'valkey-server'])
      expect(
        redisFlagsFromCompose(`services:\n  redis:\n    command: ${program} --appendonly yes\n`),
      ).toEqual(['--appendonly', 'yes']);
  });

  it('keeps its data in a named volume at /data and has a ping health check', () => {
    const [volume] = redis.volumes ?? [];
    const [name, path] = (volume ?? '').split(':');
    expect(path).toBe('/data');
    expect(Object.keys(compose.volumes)).toContain(name);
    expect(redis.healthcheck?.test).toEqual(['CMD', 'valkey-cli', 'ping']);
    expect(redis.restart).toBe('unless-stopped');
  });
});

describe('docker-compose.yml: holdpoint and worker', () => {
  it.each([
    ['holdpoint', holdpoint, 'web'],
    ['worker', worker, 'worker'],
  ] as const)(
    '%s: built image, role, Redis URL, env file, waits for a healthy Redis, restarts',
    (_name, entry, role) => {
      expect(entry.build).toBe('.');
      expect(entry.image).toBe('holdpoint:local');
      expect(entry.command).toEqual(['node', ...NODE_FLAGS, 'dist/src/main.js']);
      expect(entry.environment?.ROLE).toBe(role);
      expect(entry.environment?.REDIS_URL).toBe('redis://redis:6379');
      expect(envFiles(entry)).toContain('.env');
      expect(entry.depends_on?.redis?.condition).toBe('service_healthy');
      expect(entry.restart).toBe('unless-stopped');
      expect(entry.container_name).toBeUndefined();
    },
  );

  it.each([
    ['holdpoint', holdpoint],
    ['worker', worker],
  ] as const)(
    '%s: health check hits /readyz (healthy = ready) with node (no curl in slim images)',
    (_name, entry) => {
      const test = entry.healthcheck?.test;
      expect(Array.isArray(test) ? test.slice(0, 3) : test).toEqual(['CMD', 'node', '-e']);
      expect(Array.isArray(test) ? test[3] : '').toContain("'/readyz'");
      expect(Array.isArray(test) ? test[3] : '').not.toContain('/healthz');
      expect(Array.isArray(test) ? test[3] : '').toContain('r.ok ? 0 : 1');
      expect(Array.isArray(test) ? test[3] : '').toContain('process.env.PORT || 3000');
    },
  );

  it.each([
    ['holdpoint', holdpoint],
    ['worker', worker],
  ] as const)('%s: the stop grace period exceeds the default SHUTDOWN_TIMEOUT', (_name, entry) => {
    const shutdownDefault =
      CONFIG_VARIABLES.find((variable) => variable.name === 'SHUTDOWN_TIMEOUT')?.default ?? '';
    const grace = parseDuration(entry.stop_grace_period ?? '0s') ?? 0;
    expect(grace).toBeGreaterThan(parseDuration(shutdownDefault) ?? Number.POSITIVE_INFINITY);
  });

  it('mounts ./config read-only in both roles, where holdpoint.example.yaml says the config file goes', () => {
    for (const entry of [holdpoint, worker]) expect(entry.volumes).toContain('./config:/app/config:ro');
    expect(read('holdpoint.example.yaml')).toContain('HOLDPOINT_CONFIG=/app/config/holdpoint.yaml');
  });

  it('holdpoint.example.yaml is a valid config file (with its ${VAR} set)', () => {
    const parsed = parseConfigFile(
      read('holdpoint.example.yaml'),
      { DEPLOY_TOKEN: 'x' },
      'holdpoint.example.yaml',
    );
    expect(parsed.ok ? parsed.file.mcpServers.map((server) => server.name) : parsed.problems).toEqual([
      'deploy',
    ]);
    expect(parsed.ok && parsed.file.approvals.length).toBe(2);
  });

  it('holdpoint publishes PORT; the worker publishes nothing so it can scale', () => {
    expect(holdpoint.ports).toEqual([`\${PORT:-3000}:\${PORT:-3000}`]);
    expect(worker.ports).toBeUndefined();
    const portDefault = CONFIG_VARIABLES.find((variable) => variable.name === 'PORT')?.default;
    expect(portDefault).toBe('3000');
  });

  it('provides every variable the app requires, through .env (from .env.example) or environment', () => {
    const example = read('.env.example');
    const filledIn = new Set(
      example
        .split('\n')
        .map((line) => /^([A-Z][A-Z0-9_]*)=/.exec(line)?.[1])
        .filter((name): name is string => name !== undefined),
    );
    const needed = CONFIG_VARIABLES.filter((variable) => variable.required || variable.requiredWhen !== null);
    expect(needed.map((variable) => variable.name)).toContain('SLACK_BOT_TOKEN');
    for (const entry of [holdpoint, worker]) {
      for (const variable of needed) {
        const provided =
          entry.environment?.[variable.name] !== undefined ||
          (envFiles(entry).includes('.env') && filledIn.has(variable.name));
        expect(provided, variable.name).toBe(true);
      }
    }
  });

  it('puts no secret inline', () => {
    const secrets = CONFIG_VARIABLES.filter((variable) => variable.secret).map((variable) => variable.name);
    for (const entry of [holdpoint, worker]) {
      for (const name of secrets) expect(entry.environment?.[name], name).toBeUndefined();
    }
  });
});

describe('Dockerfile', () => {
  const BUILD_STAGE = `FROM \${NODE_IMAGE} AS build`;
  const RUNTIME_STAGE = `FROM \${NODE_IMAGE} AS runtime`;
  const dockerfile = read('Dockerfile');
  const instructions = dockerfile
    .replace(/\\\n\s*/g, ' ')
    .split('\n')
    .filter((line) => line.trim() !== '' && !line.trimStart().startsWith('#'));

  it('is multi-stage on a Node LTS slim image (20 or newer)', () => {
    expect(dockerfile).toMatch(/ARG NODE_IMAGE=node:(\d+)-bookworm-slim/);
    const major = Number(/ARG NODE_IMAGE=node:(\d+)/.exec(dockerfile)?.[1]);
    expect(major).toBeGreaterThanOrEqual(20);
    expect(major % 2).toBe(0);
    expect(instructions.filter((line) => line.startsWith('FROM '))).toEqual([BUILD_STAGE, RUNTIME_STAGE]);
  });

  it('npm start runs with the same Node flags as the image and compose', () => {
    const scripts = z
      .object({ scripts: z.record(z.string(), z.string()) })
      .parse(JSON.parse(read('package.json')));
    expect(scripts.scripts.start).toBe(['node', ...NODE_FLAGS, 'dist/src/main.js'].join(' '));
    expect(NODE_FLAGS).toContain('--max-semi-space-size=64');
  });

  it('builds with dev dependencies and runs with production dependencies only', () => {
    const runtime = instructions.slice(instructions.indexOf(RUNTIME_STAGE));
    const build = instructions.slice(0, instructions.indexOf(RUNTIME_STAGE));
    expect(build.some((line) => line.startsWith('RUN npm ci'))).toBe(true);
    expect(build.some((line) => line.includes('npm run build'))).toBe(true);
    expect(runtime.some((line) => /^RUN npm ci --omit=dev/.test(line))).toBe(true);
    expect(runtime).toContain('COPY --from=build /app/dist ./dist');
    expect(runtime).toContain('USER node');
    expect(runtime.some((line) => line.startsWith('HEALTHCHECK ') && line.includes("'/readyz'"))).toBe(true);
    expect(runtime.at(-1)).toBe(
      `CMD ${JSON.stringify(['node', ...NODE_FLAGS, 'dist/src/main.js']).replaceAll(',', ', ')}`,
    );
  });

  it('.dockerignore keeps secrets, dependencies and build output out of the context', () => {
    const ignored = read('.dockerignore').split('\n');
    for (const entry of ['.env', 'node_modules', 'dist', '.git', '.data']) expect(ignored).toContain(entry);
  });
});
