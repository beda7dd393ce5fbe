// biome-ignore-all lint/suspicious/noTemplateCurlyInString: these strings are config text that holds ${VAR}
import { describe, expect, it } from 'vitest';
import { parseConfigFile } from './config-file.js';

const ENV = { DEPLOY_TOKEN: 'dt-secret', GITHUB_TOKEN: 'gh-secret' };

const EXAMPLE = `# tools
mcpServers:
  deploy:
    command: node
    args: [./tools/deploy-mcp.js]
    env: { DEPLOY_TOKEN: "\${DEPLOY_TOKEN}" }
  github:
    url: https://example.internal/mcp
    headers: { Authorization: "Bearer \${GITHUB_TOKEN}" }
    callTimeout: 2m
approvals:
  - tools: ["deploy.*", "*.delete*"]
    approvers: [S0ONCALL]
    timeout: 15m
    onTimeout: deny
  - tools: [deploy.status]
    approval: never
`;

describe('parseConfigFile', () => {
  it("reads a rule's quorum and escalation; escalateAfter without escalateTo is refused", () => {
    const ok = parseConfigFile(
      'approvals:\n  - tools: ["deploy.*"]\n    quorum: 2\n    escalateAfter: 10m\n    escalateTo: [U0LEAD, S0SRE]\n',
      {},
      'x.yaml',
    );
    expect(ok).toMatchObject({
      ok: true,
      file: {
        approvals: [
          { quorum: 2, escalation: { afterMs: 600_000, userIds: ['U0LEAD'], groupIds: ['S0SRE'] } },
        ],
      },
    });
    const half = parseConfigFile(
      'approvals:\n  - tools: ["deploy.*"]\n    escalateAfter: 10m\n',
      {},
      'x.yaml',
    );
    expect(half).toMatchObject({ ok: false });
    expect(JSON.stringify(half)).toContain('escalateAfter and escalateTo go together');
    const zero = parseConfigFile('approvals:\n  - tools: ["deploy.*"]\n    quorum: 0\n', {}, 'x.yaml');
    expect(JSON.stringify(zero)).toContain('at least 1');
  });

  it('reads servers and rules, with ${VAR} replaced and defaults filled in', () => {
    const result = parseConfigFile(EXAMPLE, ENV, 'holdpoint.yaml');
    expect(result).toEqual({
      ok: true,
      file: {
        path: 'holdpoint.yaml',
        mcpServers: [
          {
            name: 'deploy',
            transport: 'stdio',
            command: 'node',
            args: ['./tools/deploy-mcp.js'],
            env: { DEPLOY_TOKEN: 'dt-secret' },
            cwd: null,
            callTimeoutMs: 60_000,
          },
          {
            name: 'github',
            transport: 'http',
            url: 'https://example.internal/mcp',
            headers: { Authorization: 'Bearer gh-secret' },
            callTimeoutMs: 120_000,
          },
        ],
        approvals: [
          {
            tools: ['deploy.*', '*.delete*'],
            approvers: ['S0ONCALL'],
            timeoutMs: 900_000,
            onTimeout: 'deny',
            quorum: 1,
            escalation: null,
            approval: 'always',
          },
          {
            tools: ['deploy.status'],
            approvers: null,
            timeoutMs: null,
            onTimeout: 'deny',
            quorum: 1,
            escalation: null,
            approval: 'never',
          },
        ],
        defaults: { approvals: [] },
        channels: {},
      },
    });
  });

  it('an empty file is no servers and no rules; $${ is a literal ${', () => {
    expect(parseConfigFile('', {}, 'x.yaml')).toMatchObject({
      ok: true,
      file: { mcpServers: [], approvals: [] },
    });
    const literal = parseConfigFile('mcpServers:\n  a: { command: "echo $${HOME}" }\n', {}, 'x.yaml');
    expect(literal.ok && literal.file.mcpServers[0]).toMatchObject({ command: 'echo ${HOME}' });
  });

  it.each([
    [
      'an unknown top-level key',
      'mcpServer:\n  a: { command: x }\n',
      1,
      'unknown key "mcpServer" (known keys: mcpServers, approvals, defaults, channels)',
    ],
    [
      'an unknown server key',
      'mcpServers:\n  deploy:\n    comand: node\n',
      3,
      'mcpServers.deploy: unknown key "comand"',
    ],
    ['a server with neither command nor url', 'mcpServers:\n  deploy: {}\n', 2, 'mcpServers.deploy.command'],
    [
      'a bad URL',
      'mcpServers:\n  gh:\n    url: ftp://x\n',
      3,
      'mcpServers.gh.url: expected an http or https URL',
    ],
    [
      'a bad server name',
      'mcpServers:\n  "de ploy": { command: x }\n',
      2,
      'a server name is 1 to 32 letters',
    ],
    [
      'names equal apart from case',
      'mcpServers:\n  Deploy: { command: x }\n  deploy: { command: y }\n',
      3,
      'apart from case',
    ],
    [
      'a missing ${VAR}',
      'mcpServers:\n  d:\n    command: x\n    env: { T: "${NOPE}" }\n',
      4,
      'mcpServers.d.env.T: ${NOPE} is not set in the environment: set NOPE',
    ],
    [
      'a bad glob',
      'approvals:\n  - tools: ["deploy.["]\n',
      2,
      'approvals[0].tools[0]: "deploy.[" is not a valid glob',
    ],
    ['a glob with a space', 'approvals:\n  - tools: ["deploy *"]\n', 2, 'is not a glob over <server>.<tool>'],
    [
      'a bad onTimeout',
      'approvals:\n  - tools: [a.b]\n    onTimeout: maybe\n',
      3,
      'approvals[0].onTimeout: expected deny or approve',
    ],
    [
      'a bad timeout',
      'approvals:\n  - tools: [a.b]\n    timeout: soon\n',
      3,
      'approvals[0].timeout: timeout: "soon" is not a duration',
    ],
    [
      'a bad approver',
      'approvals:\n  - tools: [a.b]\n    approvers: [alice]\n',
      3,
      'approvals[0].approvers[0]: expected a user id',
    ],
    ['not YAML', 'mcpServers: [\n', 2, 'not valid YAML'],
    [
      'a server written twice',
      'mcpServers:\n  deploy: { command: a }\n  deploy: { command: b }\n',
      3,
      'Map keys must be unique',
    ],
    [
      'a list at the top',
      '- a\n',
      1,
      'the file: expected a map with mcpServers, approvals, defaults and channels',
    ],
  ])('%s is refused with its line', (_name, text, line, message) => {
    const result = parseConfigFile(text, ENV, 'x.yaml');
    expect(result.ok).toBe(false);
    if (result.ok) return;
    const problem = result.problems.find((p) => p.message.includes(message));
    expect(problem, JSON.stringify(result.problems)).toBeDefined();
    expect(problem?.line).toBe(line);
  });

  it('reports every problem at once, and never a secret value', () => {
    const text =
      'mcpServers:\n  a: { comand: x }\n  b: { url: "${GITHUB_TOKEN}" }\napprovals:\n  - tools: []\n';
    const result = parseConfigFile(text, ENV, 'x.yaml');
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problems.map((p) => p.line).sort()).toEqual([2, 2, 3, 5]);
    expect(JSON.stringify(result.problems)).not.toContain('gh-secret');
  });
});
