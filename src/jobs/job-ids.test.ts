import { describe, expect, it } from 'vitest';
import { resumeJobId, timeoutJobId, turnJobId } from './job-ids.js';

describe('job ids', () => {
  const shapes = ['7f1c2a9e-3b4d-4e5f-8a6b-1c2d3e4f5a6b', '123456', 'team:T0TEST:thread', 'a:b'];
  for (const id of shapes) {
    it(`are colon-free and never all digits for ${JSON.stringify(id)}`, () => {
      for (const jobId of [turnJobId(id), resumeJobId(id), timeoutJobId(id)]) {
        expect(jobId).not.toContain(':');
        expect(jobId).not.toMatch(/^\d+$/);
      }
    });
  }

  it('differ per ask, so a second ask in the same turn gets its own timer (C14)', () => {
    expect(timeoutJobId('ask-1')).not.toBe(timeoutJobId('ask-2'));
    expect(resumeJobId('ask-1')).not.toBe(timeoutJobId('ask-1'));
    expect(timeoutJobId('ask-1')).toBe('timeout-ask-1');
  });
});
