import { decodeAskArguments } from '../../src/ask/decode-ask-arguments.js';
import type { AskQuestion } from '../../src/ask/types.js';
import {
  ASK_RECORD_VERSION,
  type AskDefinition,
  type AskFollowUp,
  standaloneScope,
} from '../../src/asks/types.js';

/** `count` yes/no questions ("Proceed with step i?", Yes recommended), as the decoder normalizes them. */
export function yesNoQuestions(count = 1): AskQuestion[] {
  const decoded = decodeAskArguments({
    questions: Array.from({ length: count }, (_, i) => ({
      header: `Q${i}`,
      question: `Proceed with step ${i}?`,
      options: [{ label: 'Yes', recommended: true }, { label: 'No' }],
    })),
  });
  if (!decoded.ok) throw new Error('fixture ask must decode');
  return decoded.ask.questions;
}

/**
 * An ask a program (the `deploy-script` API client) opens in its own scope on the memory surface: one yes/no
 * question, answerable by U0ALICE, U0BOB and U0CAROL, 60 s; `extra` overrides any field.
 */
export function programAsk(
  askId: string,
  extra: Partial<AskDefinition> & { followUp: AskFollowUp },
): AskDefinition {
  return {
    version: ASK_RECORD_VERSION,
    askId,
    scope: standaloneScope(askId),
    waiter: { kind: 'api', clientName: 'deploy-script' },
    ordinal: 0,
    questions: yesNoQuestions(),
    conversation: { surface: 'memory', channel: 'C0OPS', threadTs: '1780000000.000100' },
    requestedBy: 'deploy-script',
    answerers: { mode: 'list', userIds: ['U0ALICE', 'U0BOB', 'U0CAROL'], groupIds: [] },
    timeoutMs: 60_000,
    policy: 'recommended-or-first',
    createdAt: new Date().toISOString(),
    ...extra,
  };
}
