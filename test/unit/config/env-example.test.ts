import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CONFIG_VARIABLES } from '../../../src/config/config-variables.js';
import { renderConfigMarkdown, renderEnvExample } from '../../../src/config/env-example.js';
import { loadConfig } from '../../../src/config/load-config.js';

const text = readFileSync(new URL('../../../.env.example', import.meta.url), 'utf8');

/** `NAME=value` lines of the file, commented (`# NAME=value`) or not. */
function assignments(): Map<string, { value: string; commented: boolean }> {
  const found = new Map<string, { value: string; commented: boolean }>();
  for (const line of text.split('\n')) {
    const match = /^(# )?([A-Z][A-Z0-9_]*)=(.*)$/.exec(line);
    if (match?.[2] === undefined) continue;
    expect(found.has(match[2]), `${match[2]} appears twice`).toBe(false);
    found.set(match[2], { value: match[3] ?? '', commented: match[1] !== undefined });
  }
  return found;
}

describe('.env.example', () => {
  it('is exactly what renderEnvExample() generates (regenerate: npx tsx -e "import(\'./src/config/env-example.ts\').then(m => process.stdout.write(m.renderEnvExample()))" > .env.example)', () => {
    expect(text).toBe(renderEnvExample());
  });

  it('lists every variable once, with its default, and nothing else', () => {
    const found = assignments();
    expect([...found.keys()].sort()).toEqual(CONFIG_VARIABLES.map((variable) => variable.name).sort());
    for (const variable of CONFIG_VARIABLES) {
      expect(found.get(variable.name)?.value, variable.name).toBe(variable.default ?? '');
    }
  });

  it('leaves the always-required and conditionally required variables uncommented to fill in', () => {
    const found = assignments();
    for (const variable of CONFIG_VARIABLES) {
      const needed = variable.required || variable.requiredWhen !== null;
      expect(found.get(variable.name)?.commented, variable.name).toBe(!needed);
    }
    expect(found.get('SLACK_BOT_TOKEN')).toEqual({ value: '', commented: false });
  });

  it('puts the description above each variable', () => {
    for (const variable of CONFIG_VARIABLES) {
      const firstWords = variable.description.split(' ').slice(0, 3).join(' ');
      expect(text, variable.name).toContain(`# ${firstWords}`);
    }
  });

  it('with the blanks filled in, the defaults load', () => {
    const env: Record<string, string> = {};
    for (const [name, { value, commented }] of assignments()) if (!commented) env[name] = value;
    env.SLACK_BOT_TOKEN = 'xoxb-1';
    env.SLACK_APP_TOKEN = 'xapp-1';
    env.ANTHROPIC_API_KEY = 'k';
    expect(loadConfig(env).ask.timeoutMs).toBe(1_800_000);
  });
});

describe('CONFIG_VARIABLES', () => {
  it('has a description and a unique name for every variable', () => {
    const names = CONFIG_VARIABLES.map((variable) => variable.name);
    expect(new Set(names).size).toBe(names.length);
    for (const variable of CONFIG_VARIABLES)
      expect(variable.description.length, variable.name).toBeGreaterThan(20);
  });

  it('every default is accepted by the schema (an environment of defaults only needs the secrets)', () => {
    const env: Record<string, string> = {
      SLACK_BOT_TOKEN: 'xoxb-1',
      SLACK_APP_TOKEN: 'xapp-1',
      ANTHROPIC_API_KEY: 'k',
    };
    for (const variable of CONFIG_VARIABLES)
      if (variable.default !== null) env[variable.name] = variable.default;
    expect(() => loadConfig(env)).not.toThrow();
  });

  it('renders a Markdown table with one row per variable', () => {
    const rows = renderConfigMarkdown().trim().split('\n');
    expect(rows).toHaveLength(CONFIG_VARIABLES.length + 2);
    expect(rows[2]).toMatch(/^\| `SLACK_BOT_TOKEN` \| in single-workspace mode/);
  });
});
