/**
 * The Redis store of turns and asks. See `redis-turn-store.ts` for the implementation, `keys.ts` for the
 * key layout and `lua/` for the scripts.
 */
export { askRecordFromHash, hashFromReply } from './ask-hash.js';
export { CLUSTER_SLOTS, clusterSlot, crc16 } from './cluster-slot.js';
export { type AskRef, askIndexMember, DEFAULT_KEY_PREFIX, parseAskIndexMember, StoreKeys } from './keys.js';
export { defineStoreScripts, SCRIPT_FILES, type ScriptName, storeScripts } from './lua/index.js';
export { RedisTurnStore, type RedisTurnStoreOptions } from './redis-turn-store.js';
export {
  askDefinitionSchema,
  deserializeAskDefinition,
  deserializeQuestionResolution,
  deserializeTurnRecord,
  questionResolutionSchema,
  serializeAskDefinition,
  serializeTurnRecord,
  type TurnRecordV1,
  turnRecordSchema,
  turnRecordV1Schema,
  upgradeTurnRecordV1,
} from './schemas.js';
export { askTransitionStatusOf, SCRIPT_CODE } from './script-codes.js';
