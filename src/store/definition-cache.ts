import { createHash } from 'node:crypto';
import type { AskDefinition } from '../asks/types.js';

/**
 * Short digest of an AskDefinition JSON text, stored next to it in the ask hash (field `dsum`): 16 base64url
 * characters of its SHA-1. It lets a reader check a cached definition without the JSON (see
 * {@link DefinitionCache}); it is not a security boundary.
 */
export function definitionDigest(json: string): string {
  return createHash('sha1').update(json).digest('base64url').slice(0, 16);
}

/** One cached definition and the digest of the JSON it was parsed from. */
export interface DefinitionEntry {
  digest: string;
  definition: AskDefinition;
}

/** Freezes `value` and everything reachable from it, in place; returns it. */
export function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

/**
 * Parsed ask definitions by ask key, each with the digest of the JSON it was parsed from. A definition is
 * written once and never changes, so a reader that holds the digest the ask hash stores can skip both the
 * transfer of the definition (about 0.5-4 KB of JSON) and its zod check: `answerQuestion` sends the digest it knows and the
 * script returns `def` only when the stored digest differs. Entries are deeply frozen and shared. Bounded:
 * past `capacity` entries the least recently used one is dropped (a miss only costs the transfer and the check again).
 */
export class DefinitionCache {
  readonly #entries = new Map<string, DefinitionEntry>();

  /** @param capacity entries kept, each about 2-4 KB of heap. */
  constructor(readonly capacity = 2_000) {}

  /**
   * The cached definition of `key` when it was parsed from JSON with this digest, else undefined. A hit
   * makes the entry the newest, so asks in use stay cached (least recently used goes first).
   */
  get(key: string, digest: string | undefined): AskDefinition | undefined {
    if (digest === undefined) return undefined;
    const entry = this.#entries.get(key);
    if (entry?.digest !== digest) return undefined;
    this.#entries.delete(key);
    this.#entries.set(key, entry);
    return entry.definition;
  }

  /**
   * The entry of `key` (digest and definition), or undefined. A caller that sends the digest to Redis keeps
   * this entry to read the reply: the cache may drop it before the reply arrives.
   */
  entry(key: string): Readonly<DefinitionEntry> | undefined {
    return this.#entries.get(key);
  }

  /** Caches `definition` (frozen in place) as parsed from JSON with `digest`, and returns it. */
  set(key: string, digest: string, definition: AskDefinition): AskDefinition {
    const frozen = deepFreeze(definition);
    this.#entries.delete(key);
    if (this.#entries.size >= this.capacity) {
      const oldest = this.#entries.keys().next();
      if (!oldest.done) this.#entries.delete(oldest.value);
    }
    this.#entries.set(key, { digest, definition: frozen });
    return frozen;
  }
}

/** The one cache of this process: store instances on different connections share definitions. */
export const definitionCache = new DefinitionCache();
