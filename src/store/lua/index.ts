import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Redis } from 'ioredis';

/** The Lua scripts of the store, by file name without the key count (`answerQuestion` -> `answerQuestion-1.lua`). */
export const SCRIPT_FILES = {
  answerQuestion: 'answerQuestion-1.lua',
  resolveOpenQuestions: 'resolveOpenQuestions-1.lua',
  cancelAsk: 'cancelAsk-1.lua',
  markAskShown: 'markAskShown-2.lua',
  markResumeQueued: 'markResumeQueued-1.lua',
  createTurn: 'createTurn-1.lua',
  commitTurn: 'commitTurn-1.lua',
  pauseTurn: 'pauseTurn-2.lua',
  openAsk: 'openAsk-1.lua',
  extendAsk: 'extendAsk-2.lua',
  claimNudge: 'claimNudge-1.lua',
  addDelegate: 'addDelegate-1.lua',
  overrideAnswer: 'overrideAnswer-1.lua',
  admitToThread: 'admitToThread-2.lua',
  releaseThread: 'releaseThread-2.lua',
  renewLease: 'renewLease-1.lua',
  releaseLease: 'releaseLease-1.lua',
  decideHeldReply: 'decideHeldReply-1.lua',
  claimDue: 'claimDue-1.lua',
  releaseDue: 'releaseDue-1.lua',
} as const;

/** Name of one store script. */
export type ScriptName = keyof typeof SCRIPT_FILES;

/** A loaded script: its source and its key count (parsed from the `-<n>.lua` file name suffix). */
export interface ScriptSource {
  file: string;
  numberOfKeys: number;
  lua: string;
}

/**
 * Finds a script file. It is read next to this module (`src/store/lua/` under tsx and vitest, or
 * `dist/src/store/lua/` when the build copies the `.lua` files there), else from `src/store/lua/` relative
 * to `dist/src/store/lua/` (the plain `tsc` build does not copy `.lua` files; the repository checkout has them).
 */
function scriptPath(file: string): string {
  const candidates = [
    new URL(`./${file}`, import.meta.url),
    new URL(`../../../../src/store/lua/${file}`, import.meta.url),
  ];
  for (const candidate of candidates) {
    const path = fileURLToPath(candidate);
    if (existsSync(path)) return path;
  }
  throw new Error(
    `Lua script ${file} not found; looked in ${candidates.map((c) => fileURLToPath(c)).join(', ')}`,
  );
}

function loadScript(file: string): ScriptSource {
  const match = /-(\d+)\.lua$/.exec(file);
  if (!match?.[1]) throw new Error(`Lua script file name ${file} does not end in -<key count>.lua`);
  return { file, numberOfKeys: Number(match[1]), lua: readFileSync(scriptPath(file), 'utf8') };
}

let cache: Record<ScriptName, ScriptSource> | undefined;

/**
 * Every store script, read once (synchronously) on first use.
 * @throws Error when a script file cannot be found (a broken installation).
 */
export function storeScripts(): Readonly<Record<ScriptName, ScriptSource>> {
  if (!cache) {
    const entries = Object.entries(SCRIPT_FILES).map(([name, file]) => [name, loadScript(file)] as const);
    cache = Object.fromEntries(entries) as Record<ScriptName, ScriptSource>;
  }
  return cache;
}

/** A defined script: call with the keys then the arguments, as strings, numbers or bytes (a deflated chunk). */
export type ScriptCall = (...keysAndArgs: Array<string | number | Buffer>) => Promise<unknown>;

/**
 * Defines every store script on `redis` with ioredis `defineCommand` (EVALSHA with an EVAL fallback)
 * under the command name `holdpoint_<name>`, and returns callable wrappers.
 */
export function defineStoreScripts(redis: Redis): Readonly<Record<ScriptName, ScriptCall>> {
  const scripts = storeScripts();
  const calls = {} as Record<ScriptName, ScriptCall>;
  for (const name of Object.keys(scripts) as ScriptName[]) {
    const { numberOfKeys, lua } = scripts[name];
    const command = `holdpoint_${name}`;
    redis.defineCommand(command, { numberOfKeys, lua });
    const fn: unknown = (redis as unknown as Record<string, unknown>)[command];
    if (typeof fn !== 'function') throw new Error(`ioredis did not define the command ${command}`);
    calls[name] = (...keysAndArgs) =>
      (fn as (...a: Array<string | number | Buffer>) => Promise<unknown>).apply(redis, keysAndArgs);
  }
  return calls;
}
