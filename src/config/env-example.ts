import { CONFIG_GROUPS, CONFIG_VARIABLES, type ConfigVariable } from './config-variables.js';

function requirementText(variable: ConfigVariable): string {
  if (variable.required) return 'Required.';
  if (variable.requiredWhen !== null) return `Required ${variable.requiredWhen}.`;
  return variable.default === null ? 'Optional.' : `Optional, default ${variable.default}.`;
}

/** Lines of `text` wrapped at `width` characters, on spaces. */
function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line !== '' && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else {
      line = line === '' ? word : `${line} ${word}`;
    }
  }
  if (line !== '') lines.push(line);
  return lines;
}

/**
 * The text of `.env.example`, generated from {@link CONFIG_VARIABLES} (a unit test keeps the file equal to it).
 * Variables that are required in some configuration appear as `NAME=` to fill in; the others are commented
 * out with their default (`# ASK_TIMEOUT=30m`). Each is preceded by its description as `# ` comments.
 */
export function renderEnvExample(): string {
  const out: string[] = [
    '# holdpoint configuration. Copy to .env and fill in the blanks; blank values count as unset.',
    '# Commented-out lines show the default. Generated from src/config/config-variables.ts.',
  ];
  for (const group of CONFIG_GROUPS) {
    out.push('', `# --- ${group} ---`);
    for (const variable of CONFIG_VARIABLES.filter((entry) => entry.group === group)) {
      out.push('');
      for (const line of wrap(`${variable.description} ${requirementText(variable)}`, 108))
        out.push(`# ${line}`);
      const fillIn = variable.required || variable.requiredWhen !== null;
      out.push(
        fillIn
          ? `${variable.name}=${variable.default ?? ''}`
          : `# ${variable.name}=${variable.default ?? ''}`,
      );
    }
  }
  return `${out.join('\n')}\n`;
}

/** A Markdown table of every variable (name, required, default, description) for the README. */
export function renderConfigMarkdown(): string {
  const escapePipes = (text: string): string => text.replaceAll('|', '\\|');
  const rows = CONFIG_VARIABLES.map((variable) => {
    const required = variable.required
      ? 'yes'
      : variable.requiredWhen === null
        ? 'no'
        : escapePipes(variable.requiredWhen);
    const fallback = variable.default === null ? '' : `\`${variable.default}\``;
    return `| \`${variable.name}\` | ${required} | ${fallback} | ${escapePipes(variable.description)} |`;
  });
  return ['| variable | required | default | description |', '| --- | --- | --- | --- |', ...rows, ''].join(
    '\n',
  );
}
