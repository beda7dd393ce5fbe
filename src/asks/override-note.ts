import { APPROVAL_OPTIONS, type AskRecord } from './types.js';

/** Most characters of a question or typed answer quoted in the note. */
const QUOTE_MAX = 300;

function quote(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return `“${flat.length > QUOTE_MAX ? `${flat.slice(0, QUOTE_MAX - 1)}…` : flat}”`;
}

function answerText(selected: readonly string[], other: string | null): string {
  const parts = selected.map(quote);
  if (other !== null && other.length > 0) parts.push(`${quote(other)} (typed)`);
  return parts.length > 0 ? parts.join(' and ') : 'no answer';
}

/**
 * What the agent's new turn is told when a late answer replaced the assumption of question `questionIndex`
 * (plain text; `<@U…>` names the person, as the rest of the thread does). For an approval it says what the
 * assumption already did: a call approved by the timeout ran and is neither undone nor run again; a call
 * denied by it did not run and runs only if the agent calls it again. Pure.
 * @returns null when the question has no late answer
 */
export function overrideNote(ask: AskRecord, questionIndex: number): string | null {
  const override = ask.overrides[questionIndex];
  const question = ask.questions[questionIndex];
  const assumed = ask.resolutions[questionIndex];
  if (!override || !question || !assumed) return null;
  const who = `<@${override.by}>`;
  const was = answerText(assumed.selected, null);
  const now = answerText(override.selected, override.other);
  const call = ask.approval?.calls[questionIndex];
  if (call) {
    const name = call.server ? `${call.server}.${call.tool}` : call.tool;
    const ranByTimeout = assumed.selected.includes(APPROVAL_OPTIONS.approve);
    const nowApproved = override.selected.includes(APPROVAL_OPTIONS.approve) && override.other === null;
    const effect = ranByTimeout
      ? `The call ${name} already ran when the approval timed out; it is not undone and not run again.`
      : `The call ${name} did not run; it runs only if you call it again.`;
    return (
      `[holdpoint] ${who} changed the timed-out approval of ${name} from ${was} to ${now}. ${effect} ` +
      `Tell the thread what this means now${nowApproved && !ranByTimeout ? ', and call the tool again if it is still wanted' : ''}.`
    );
  }
  return (
    `[holdpoint] ${who} replaced the assumed answer ${was} with ${now} for the question ${quote(question.question)}. ` +
    'The assumption was used when nobody answered in time. Go on with the real answer: say in the thread what changes because of it.'
  );
}
