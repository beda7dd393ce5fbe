import { HoldpointError } from '../errors.js';
import type { CliIo } from './cli-io.js';
import { type CliCommand, commands } from './commands.js';
import { packageVersion } from './package-version.js';

/**
 * Usage text listing every command of a table.
 * @param table the command table (defaults to {@link commands})
 */
export function usageText(table: Readonly<Record<string, CliCommand>> = commands): string {
  const names = Object.keys(table);
  const width = Math.max(4, ...names.map((name) => name.length));
  const lines = ['Usage: holdpoint <command> [arguments]', '', 'Commands:'];
  for (const [name, command] of Object.entries(table)) {
    lines.push(`  ${name.padEnd(width)}  ${command.summary}`);
  }
  lines.push(`  ${'help'.padEnd(width)}  Show this help, or a command's usage: holdpoint help <command>.`);
  lines.push('', 'Options:', '  --version, -v  Print the version of holdpoint.');
  return `${lines.join('\n')}\n`;
}

/**
 * Runs `holdpoint <command> ...`. Never throws and never prints a stack trace: a command that throws
 * gets one line on stderr (`holdpoint <command>: <code>: <message>`) and exit code 2.
 * @param argv the arguments after the program name (`process.argv.slice(2)`)
 * `--version` (or `-v`) prints the version of package.json.
 * @param table the command table (defaults to {@link commands}; tests may pass their own)
 * @param readVersion where the version comes from (defaults to {@link packageVersion}; null: not found)
 * @returns the exit code: the command's, 0 for help and the version, 2 for an unknown command, a thrown
 *   error or an unreadable version
 */
export async function runCli(
  argv: readonly string[],
  io: CliIo,
  table: Readonly<Record<string, CliCommand>> = commands,
  readVersion: () => string | null = packageVersion,
): Promise<number> {
  const [name, ...rest] = argv;
  if (name === '--version' || name === '-v') {
    const version = readVersion();
    if (version === null) {
      io.stderr('holdpoint: cannot read its version (no package.json named holdpoint above the program)\n');
      return 2;
    }
    io.stdout(`${version}\n`);
    return 0;
  }
  if (name === undefined || name === 'help' || name === '--help' || name === '-h') {
    const topic = rest[0] === undefined ? undefined : lookup(table, rest[0]);
    io.stdout(topic === undefined ? usageText(table) : `Usage: ${topic.usage}\n${topic.summary}\n`);
    return 0;
  }
  const command = lookup(table, name);
  if (command === undefined) {
    io.stderr(`holdpoint: unknown command ${JSON.stringify(name)}\n\n${usageText(table)}`);
    return 2;
  }
  if (rest[0] === '--help' || rest[0] === '-h') {
    io.stdout(`Usage: ${command.usage}\n${command.summary}\n`);
    return 0;
  }
  try {
    return await command.run(rest, io);
  } catch (error) {
    io.stderr(`holdpoint ${name}: ${describe(error)}\n`);
    return 2;
  }
}

function lookup(table: Readonly<Record<string, CliCommand>>, name: string): CliCommand | undefined {
  return Object.hasOwn(table, name) ? table[name] : undefined;
}

function describe(error: unknown): string {
  if (error instanceof HoldpointError) {
    return `${error.code}: ${error.message}`.replace(/\s+/g, ' ');
  }
  return (error instanceof Error ? error.message : String(error)).replace(/\s+/g, ' ');
}
