import { describe, expect, it } from 'vitest';
import { redactSecrets } from './mcp-tool-servers.js';
import { modelToolName, ruleToolName } from './tool-names.js';
import { toolOutputText } from './tool-output.js';

describe('toolOutputText', () => {
  it.each([
    [{ content: [{ type: 'text', text: 'ok' }] }, 'ok'],
    [
      {
        content: [
          { type: 'text', text: 'a' },
          { type: 'text', text: 'b' },
        ],
      },
      'a\n\nb',
    ],
    [{ content: [{ type: 'image', mimeType: 'image/png', data: 'x' }] }, '[image/png image omitted]'],
    [{ content: [{ type: 'resource_link', uri: 'file:///x' }] }, '[resource file:///x]'],
    [{ content: [], structuredContent: { up: true } }, '{"up":true}'],
    [{ content: [] }, '(no output)'],
    [{}, '(no output)'],
  ])('%j reads as %j', (result, text) => {
    expect(toolOutputText(result)).toBe(text);
  });

  it('cuts long output and says how long it was', () => {
    const text = toolOutputText({ content: [{ type: 'text', text: 'x'.repeat(20_000) }] }, 100);
    expect(text).toBe(`${'x'.repeat(100)}\n[output cut: 20,000 characters, the first 100 shown]`);
  });
});

describe('tool names', () => {
  it.each([
    ['deploy', 'status', 'deploy_status'],
    ['gh', 'repos.list', 'gh_repos_list'],
    ['gh', 'créer issue', 'gh_cr_er_issue'],
  ])('%s + %s is %s for the model', (server, tool, name) => {
    expect(modelToolName(server, tool)).toBe(name);
    expect(modelToolName(server, tool)).toMatch(/^[A-Za-z0-9_-]{1,64}$/);
  });

  it('a long name is cut to 64 characters with a digest, so long names stay distinct', () => {
    const a = modelToolName('server', `${'a'.repeat(80)}1`);
    const b = modelToolName('server', `${'a'.repeat(80)}2`);
    expect(a).toHaveLength(64);
    expect(b).toHaveLength(64);
    expect(a).not.toBe(b);
  });

  it('rules match <server>.<tool>', () => {
    expect(ruleToolName('deploy', 'rollback')).toBe('deploy.rollback');
  });
});

describe('redactSecrets', () => {
  const http = {
    name: 'web',
    transport: 'http' as const,
    url: 'https://x.example/mcp?key=s3cr3t-key',
    headers: { Authorization: 'Bearer tok-123456' },
    callTimeoutMs: 1000,
  };
  it.each([
    ['fetch failed for https://admin:pw@x.example/mcp', 'fetch failed for https://***@x.example/mcp'],
    ['GET https://x.example/mcp?key=s3cr3t-key failed', 'GET https://x.example/mcp?*** failed'],
    ['server said: bad token Bearer tok-123456', 'server said: bad token ***'],
    ['plain error', 'plain error'],
  ])('%s -> %s', (text, redacted) => {
    expect(redactSecrets(text, http)).toBe(redacted);
  });
});
