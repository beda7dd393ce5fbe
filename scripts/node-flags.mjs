// The Node flags every holdpoint process runs with (docker-compose.yml's commands, the Dockerfile's CMD,
// `npm start`; test/unit/deploy/compose.test.ts keeps them equal), importable by the bench so that the app
// it measures runs as deployed.
//
// --max-semi-space-size=64: V8's young generation gets 64 MB semi-spaces instead of 16 MB. Every ask a
// timer resolves, every click and every step allocates short-lived objects (ioredis commands and replies,
// the ask record, BullMQ's job options); with 16 MB they are scavenged often and many survive long enough
// to be promoted, so a burst of timeouts spent about a third of its CPU in GC. Measured with
// `npm run bench -- --timers-100k` (100,000 timers due within 10 s, one process, this 2-core machine):
// p99 lateness 3.9 s with the default, 1.7 s with 32, 0.34-1.44 s with 64. Costs up to about 128 MB more
// resident memory under load, none when idle.

/** @type {readonly string[]} */
export const NODE_FLAGS = Object.freeze(['--max-semi-space-size=64']);
