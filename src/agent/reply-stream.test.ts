import { describe, expect, it } from 'vitest';
import type { AskQuestion } from '../ask/types.js';
import { currentStreamKey, streamKey, toolTask, waitingTask } from './reply-stream.js';
import type { TurnRecord } from './turn-record.js';

describe('stream keys', () => {
  it.each([
    ['t1', 0, 'stream-t1-0'],
    ['t1', 2, 'stream-t1-2'],
  ])('streamKey(%s, %i) is %s', (turnId, stretch, key) => {
    expect(streamKey(turnId, stretch)).toBe(key);
  });

  it('a running turn streams into the stretch after its last ask; the paused ask closes the one before', () => {
    const turn = { turnId: 't1', askCount: 1 } as TurnRecord;
    expect(currentStreamKey(turn)).toBe('stream-t1-1');
  });
});

describe('status lines', () => {
  const call = { toolCallId: 'c1', toolName: 'deploy_status' };
  it.each([
    ['running', { id: 'tool-c1', title: 'Running deploy_status', status: 'in_progress' }],
    ['ok', { id: 'tool-c1', title: 'Ran deploy_status', status: 'complete' }],
    ['error', { id: 'tool-c1', title: 'deploy_status failed', status: 'error' }],
  ] as const)('a tool call %s', (state, task) => {
    expect(toolTask(call, state)).toEqual(task);
  });

  const question = { kind: 'free_text', header: 'h', question: 'q', purpose: null } as unknown as AskQuestion;
  it.each([
    [{ askId: 'a1', approval: null, questions: [question] }, 'Asked a question (below)'],
    [{ askId: 'a1', approval: null, questions: [question, question] }, 'Asked 2 questions (below)'],
    [
      {
        askId: 'a1',
        approval: {
          calls: [
            { toolCallId: 'c', toolName: 'deploy_rollback', server: 'deploy', tool: 'rollback', input: {} },
            { toolCallId: 'd', toolName: 'deploy_restart', server: 'deploy', tool: 'restart', input: {} },
          ],
          reason: null,
        },
        questions: [question, question],
      },
      'Asked for approval to run deploy_rollback, deploy_restart',
    ],
  ])('a pause: %#', (ask, title) => {
    expect(waitingTask(ask as Parameters<typeof waitingTask>[0])).toEqual({
      id: 'ask-a1',
      title,
      status: 'complete',
    });
  });
});
