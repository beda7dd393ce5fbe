/** The flags of docker-compose.yml's `services.redis.command`, without the leading `redis-server` or `valkey-server`. */
export declare function redisFlagsFromCompose(text: string): string[];
/** Reads the flags from a compose file (default: docker-compose.yml at the repository root). */
export declare function readRedisFlags(composePath?: string): string[];
