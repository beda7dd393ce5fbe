import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * The Block Kit layer is pure: no Bolt, no Web API client, no Redis, no process.env, no I/O; only types
 * from @slack/types, zod, and the shared contract files.
 */
const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const files = [
  ...readdirSync(join(root, 'src/slack/blocks'))
    .filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts'))
    .map((name) => join(root, 'src/slack/blocks', name)),
  join(root, 'src/slack/mrkdwn.ts'),
  // Pure (zod only): where an ask's message is, for the inbox's links.
  join(root, 'src/slack/message-ref.ts'),
];
const ALLOWED_OUTSIDE = new Set([
  'src/ask/types.ts',
  // Pure too: the renderer states what the timeout will pick with the very rule the timeout job applies.
  'src/ask/assume-resolution.ts',
  'src/asks/types.ts',
  // Pure: the ask's revision, put in every block_id (and compared by the message sync).
  'src/asks/ask-revision.ts',
  'src/errors.ts',
  'src/asks/conversation.ts',
  // Pure: who is still waited on, what may be extended or changed (the same rules the jobs apply).
  'src/asks/follow-up.ts',
  // Types only: the notices the surface posts.
  'src/asks/ask-ports.ts',
]);

describe('src/slack/blocks boundary', () => {
  it.each(files.map((file) => [relative(root, file), file]))(
    '%s imports only pure modules',
    (_name, file) => {
      const source = readFileSync(file, 'utf8');
      expect(source).not.toMatch(/process\.env|node:fs|node:http|Date\.now\(\)/);
      for (const match of source.matchAll(/^import\s+(type\s+)?[^'"]*?from\s+'([^']+)';/gms)) {
        const typeOnly = match[1] !== undefined;
        const specifier = match[2] ?? '';
        if (specifier.startsWith('.')) {
          const target = relative(root, resolve(dirname(file), specifier)).replace(/\.js$/, '.ts');
          const inside =
            target.startsWith('src/slack/blocks/') ||
            target === 'src/slack/mrkdwn.ts' ||
            target === 'src/slack/message-ref.ts';
          expect(inside || ALLOWED_OUTSIDE.has(target), `${specifier} from ${file}`).toBe(true);
        } else if (specifier === '@slack/types') {
          expect(typeOnly, `@slack/types must be imported as types only in ${file}`).toBe(true);
        } else {
          expect(specifier).toBe('zod');
        }
      }
    },
  );
});
