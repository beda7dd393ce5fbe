/**
 * Runs `holdpoint check-ask -` as a real process (test/unit/cli/holdpoint-process.ts: `node dist/src/cli.js`
 * when the build is fresh, else node + the tsx loader on src/cli.ts) on every fixture
 * case and checks it agrees with the decoder: exit 0 + the normalized ask as JSON, or exit 1 + the error
 * text naming path and limit. 33 processes, a few at a time.
 */
import { describe, expect, it } from 'vitest';
import { loadAskCases, summarizeAsk } from '../unit/ask/ask-cases.js';
import { type ProcessRun, runHoldpoint as runProcess } from '../unit/cli/holdpoint-process.js';

/** `holdpoint <args>` with `stdin`: the built CLI when dist is fresh, else node + tsx on src/cli.ts. */
function runHoldpoint(args: string[], stdin: string): Promise<ProcessRun> {
  return runProcess(args, { stdin });
}

const STACK_TRACE = /\n\s+at .+\(|node:internal|Error: /;

describe('holdpoint check-ask as a process', () => {
  const cases = loadAskCases();

  // One test per case, a few processes at a time (vitest maxConcurrency, default 5), each with its own timeout.
  it.concurrent.for(cases)('$name', async (testCase, { expect }) => {
    const run = await runHoldpoint(['check-ask', '-'], JSON.stringify(testCase.args));
    expect(run.stderr).not.toMatch(STACK_TRACE);
    if (testCase.expect.ok) {
      expect(run.code, run.stdout).toBe(0);
      expect(summarizeAsk(JSON.parse(run.stdout))).toEqual(testCase.expect.questions);
    } else {
      expect(run.code).toBe(1);
      expect(run.stdout).toContain('Call ask_question again with corrected arguments');
      expect(run.stdout).toContain(testCase.expect.path);
      if (testCase.expect.limit !== undefined) {
        expect(run.stdout).toContain(`limit: ${testCase.expect.limit}`);
      }
    }
  });

  it('reports raw text that is not JSON as an invalid call, without a stack trace', async () => {
    const run = await runHoldpoint(['check-ask'], 'this is not json {');
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('not valid JSON');
    expect(run.stderr).toBe('');
  });

  it('reports a missing file on one line with exit 2', async () => {
    const run = await runHoldpoint(['check-ask', 'no/such/file.json'], '');
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toContain('cannot read no/such/file.json');
    expect(run.stderr).not.toMatch(STACK_TRACE);
  });

  it('prints the tool definition', async () => {
    const run = await runHoldpoint(['tool-schema'], '');
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ name: 'ask_question', inputSchema: { type: 'object' } });
  });
});
