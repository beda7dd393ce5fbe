#!/usr/bin/env node
/**
 * The `holdpoint` command line: `holdpoint <command> [arguments]`. Commands live in `cli/commands.ts`.
 * Sets `process.exitCode` (never calls `process.exit`, so output is flushed).
 */
import { nodeCliIo } from './cli/cli-io.js';
import { runCli } from './cli/run-cli.js';

process.exitCode = await runCli(process.argv.slice(2), nodeCliIo());
