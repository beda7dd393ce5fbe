/**
 * The ask message with every follow-up control (who may answer incl. delegates and escalation targets,
 * the deadline "in …" and who extended it, quorum tallies, the snooze / "Ask someone else…" menu, Change
 * answer, late answers) stays within Slack's limits for any ask within the caps, carries ids only in its
 * values, and pings nobody but the validated people it names. Its modals are valid too.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ASK_LIMITS, TIMEOUT_POLICIES } from '../../../src/ask/types.js';
import { type AskRecord, voteKey } from '../../../src/asks/types.js';
import { parseActionId, parseActionValue, parseMenuValue } from '../../../src/slack/blocks/action-ids.js';
import { renderAskMessage } from '../../../src/slack/blocks/render-ask-message.js';
import { renderAskNotice } from '../../../src/slack/blocks/render-ask-notice.js';
import { renderChangeModal, renderDelegateModal } from '../../../src/slack/blocks/render-follow-up-modals.js';
import { validateBlocks, validateModalView } from '../../../src/slack/blocks/validate-blocks.js';
import { askRecord, SHOWN_AT } from './ask-records.js';
import { actionsElements, forbiddenSequences } from './inspect-blocks.js';

const PEOPLE = [
  'U0ALICE',
  'U0BOB',
  'U0CAROL',
  'W0DAVE',
  'U0ERIN',
  'U0FRANK',
  'U0GRACE',
  'U0HEIDI',
  'U0IVAN',
  'U0JUDY',
  'U0KARL',
  'U0LEO',
];
const GROUPS = ['S0SRE', 'S0ONCALL', 'S0DB'];
const MENTIONS = [...PEOPLE.map((id) => `<@${id}>`), ...GROUPS.map((id) => `<!subteam^${id}>`)];
const LABEL = fc.constantFrom('Yes', 'No', '<!channel> go', '日本語'.repeat(16), '*bold* & <x>');

const followUpAskArb: fc.Arbitrary<AskRecord> = fc
  .record({
    questionCount: fc.integer({ min: 1, max: ASK_LIMITS.maxQuestions }),
    optionCount: fc.integer({ min: ASK_LIMITS.minOptions, max: ASK_LIMITS.maxOptions }),
    label: LABEL,
    quorum: fc.integer({ min: 1, max: 20 }),
    extendByMs: fc.subarray([900_000, 3_600_000, 14_400_000]),
    escalate: fc.boolean(),
    listed: fc.subarray(PEOPLE),
    groups: fc.subarray(GROUPS),
    delegates: fc.subarray(PEOPLE),
    voters: fc.subarray(PEOPLE),
    extendedBy: fc.option(fc.constantFrom(...PEOPLE), { nil: null }),
    state: fc.constantFrom('open', 'assumed', 'overridden'),
    policy: fc.constantFrom(...TIMEOUT_POLICIES),
    approval: fc.boolean(),
    elapsedMs: fc.integer({ min: 0, max: 3_600_000 }),
  })
  .map((input) => {
    const options = Array.from({ length: input.optionCount }, (_, i) => ({
      label: `${input.label} ${i}`.slice(0, 48),
      description: i === 0 ? 'd'.repeat(200) : null,
      recommended: i === 0,
    }));
    const questions = Array.from({ length: input.questionCount }, (_, i) => ({
      header: `Q${i}`,
      question: `${input.label} ${'?'.repeat(150)}`.slice(0, 200),
      kind: 'choice' as const,
      multiSelect: false,
      purpose: null,
      options,
    }));
    const resolved = input.state !== 'open';
    const at = new Date(SHOWN_AT + 1000).toISOString();
    return askRecord({
      questions,
      policy: input.policy,
      answerers:
        input.listed.length + input.groups.length > 0
          ? { mode: 'list', userIds: input.listed, groupIds: input.groups }
          : { mode: 'anyone' },
      followUp: {
        reminders: [{ kind: 'fraction', fraction: 0.5 }],
        escalation: input.escalate ? { afterMs: 60_000, userIds: PEOPLE.slice(-3), groupIds: GROUPS } : null,
        extendByMs: input.extendByMs,
        maxDeadlineMs: 86_400_000,
        overrideWindowMs: 86_400_000,
        quorum: input.quorum,
      },
      delegates: input.delegates,
      extendedBy: input.extendedBy,
      status: resolved ? 'resolved' : 'open',
      resolvedAt: resolved ? SHOWN_AT + 1000 : null,
      resolutions: questions.map(() =>
        resolved
          ? {
              status: 'assumed' as const,
              selected: [options[0]?.label ?? 'x'],
              other: null,
              answeredBy: null,
              answeredAt: at,
              source: 'timeout' as const,
              assumption: 'recommended' as const,
            }
          : null,
      ),
      votes: questions.map(() =>
        Object.fromEntries(
          input.voters.map((user, i) => [
            user,
            voteKey({ selected: [options[i % options.length]?.label ?? 'x'], other: null }),
          ]),
        ),
      ),
      overrides: questions.map(() =>
        input.state === 'overridden'
          ? { selected: [options[1]?.label ?? 'x'], other: 'x'.repeat(3000), by: 'U0BOB', at }
          : null,
      ),
      ...(input.approval
        ? {
            approval: {
              calls: questions.map((_, i) => ({
                toolCallId: `c${i}`,
                toolName: 'deploy_restart',
                server: 'deploy',
                tool: 'restart',
                input: { service: 'api' },
              })),
              reason: null,
            },
          }
        : {}),
    });
  });

describe('follow-up controls within Slack limits', () => {
  it('any ask with follow-ups renders a message Slack accepts, ids only in values, no pings beyond named people', () => {
    fc.assert(
      fc.property(followUpAskArb, fc.integer({ min: 0, max: 3_600_000 }), (ask, elapsed) => {
        const now = SHOWN_AT + elapsed;
        const rendered = renderAskMessage(ask, { now });
        expect(validateBlocks(rendered.blocks, 'message')).toEqual([]);
        for (const elements of actionsElements(rendered.blocks)) {
          for (const element of elements) {
            expect(parseActionId(element.action_id)).not.toBeNull();
            if (element.action_id === 'hp.more') {
              const values =
                element.type === 'overflow'
                  ? (element.options as Array<{ value: string }>).map((option) => option.value)
                  : [String(element.value)];
              for (const value of values) expect(parseMenuValue(value)).toMatchObject({ askId: ask.askId });
            } else if (element.type === 'button') expect(parseActionValue(element.value)).not.toBeNull();
          }
        }
        expect(forbiddenSequences(JSON.stringify(rendered), MENTIONS)).toEqual([]);
        const target = { channel: 'C0OPS', messageTs: '1780000065.000300' };
        expect(validateModalView(renderDelegateModal(ask, target))).toEqual([]);
        ask.questions.forEach((_, index) => {
          expect(validateModalView(renderChangeModal(ask, index, target))).toEqual([]);
        });
        for (const notice of [
          { key: 'k', kind: 'reminder' as const, waitingOn: { userIds: PEOPLE, groupIds: GROUPS } },
          { key: 'k', kind: 'escalation' as const, targets: { userIds: PEOPLE, groupIds: GROUPS } },
          { key: 'k', kind: 'delegated' as const, by: 'U0ALICE', to: 'U0BOB' },
          { key: 'k', kind: 'overridden' as const, questionIndex: 0, by: 'U0BOB' },
        ]) {
          const text = renderAskNotice(ask, notice, now);
          expect(text.length).toBeLessThanOrEqual(4000);
          expect(forbiddenSequences(text, MENTIONS)).toEqual([]);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('shows "Change answer" only within the window, and never once the answer was changed', () => {
    const base = {
      status: 'resolved' as const,
      resolvedAt: SHOWN_AT,
      followUp: {
        reminders: [],
        escalation: null,
        extendByMs: [],
        maxDeadlineMs: 0,
        overrideWindowMs: 60_000,
        quorum: 1,
      },
      resolutions: [
        {
          status: 'assumed' as const,
          selected: ['Roll back'],
          other: null,
          answeredBy: null,
          answeredAt: new Date(SHOWN_AT).toISOString(),
          source: 'timeout' as const,
          assumption: 'recommended' as const,
        },
      ],
    };
    const has = (ask: AskRecord, now: number) =>
      JSON.stringify(renderAskMessage(ask, { now }).blocks).includes('hp.change.0');
    expect(has(askRecord(base), SHOWN_AT + 59_000)).toBe(true);
    expect(has(askRecord(base), SHOWN_AT + 61_000)).toBe(false);
    expect(
      has(
        askRecord({
          ...base,
          overrides: [{ selected: ['Hotfix'], other: null, by: 'U0BOB', at: new Date().toISOString() }],
        }),
        SHOWN_AT + 1000,
      ),
    ).toBe(false);
  });

  it('an extended ask that timed out says how long it really waited', () => {
    const assumed = {
      status: 'assumed' as const,
      selected: ['Roll back'],
      other: null,
      answeredBy: null,
      answeredAt: new Date(SHOWN_AT).toISOString(),
      source: 'timeout' as const,
      assumption: 'recommended' as const,
    };
    const ask = askRecord({
      status: 'resolved',
      timeoutMs: 30 * 60_000,
      deadline: SHOWN_AT + 4.5 * 3600_000,
      resolutions: [assumed],
    });
    expect(JSON.stringify(renderAskMessage(ask).blocks)).toContain(
      'No answer in 4 h 30 min: assumed *Roll back*',
    );
  });
});
