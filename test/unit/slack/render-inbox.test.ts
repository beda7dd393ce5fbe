import { describe, expect, it } from 'vitest';
import type { AskRecord } from '../../../src/asks/types.js';
import { NO_FOLLOW_UP } from '../../../src/asks/types.js';
import {
  inboxAskOfBlockId,
  parseActionId,
  parseActionValue,
  parseMenuValue,
  shortAskId,
} from '../../../src/slack/blocks/action-ids.js';
import { SLACK_LIMITS } from '../../../src/slack/blocks/limits.js';
import {
  askLink,
  INBOX_ROW_CAPS,
  type InboxContent,
  type InboxSurface,
  renderHomeView,
  renderInbox,
  summaryText,
} from '../../../src/slack/blocks/render-inbox.js';
import { validateBlocks, validateHomeView } from '../../../src/slack/blocks/validate-blocks.js';
import {
  answered,
  askRecord,
  choiceQuestion,
  freeTextQuestion,
  option,
  SHOWN_AT,
  THIRTY_MIN,
} from './ask-records.js';

type Block = {
  type: string;
  block_id: string;
  text?: { text: string };
  elements?: Element[];
  accessory?: Element;
};
type Element = {
  type: string;
  action_id?: string;
  value?: string;
  url?: string;
  text?: { text: string };
  style?: string;
  options?: Array<{ value: string; text: { text: string } }>;
};

const WORKSPACE = 'https://test-workspace.slack.com/';
const WIDE = '界'.repeat(200);

function content(extra: Partial<InboxContent> = {}): InboxContent {
  return { toAnswer: [], started: [], now: SHOWN_AT + 60_000, workspaceUrl: WORKSPACE, ...extra };
}

function many(count: number, extra: Partial<AskRecord> = {}): AskRecord[] {
  return Array.from({ length: count }, (_, index) =>
    askRecord({ askId: `ask-${String(index).padStart(3, '0')}`, shownAt: SHOWN_AT + index, ...extra }),
  );
}

function blocksOf(c: InboxContent, surface: InboxSurface): Block[] {
  return renderInbox(c, surface).blocks as unknown as Block[];
}

/** The controls of each row of asks to answer (its actions block), by ask. */
function controls(blocks: Block[]): Array<{ askShort: string | null; actionIds: string[] }> {
  return blocks
    .filter((block) => block.type === 'actions')
    .map((block) => ({
      askShort: inboxAskOfBlockId(block.block_id),
      actionIds: (block.elements ?? []).map((element) => element.action_id ?? ''),
    }));
}

const FOLLOW_UP = {
  ...NO_FOLLOW_UP,
  extendByMs: [THIRTY_MIN, 2 * THIRTY_MIN],
  maxDeadlineMs: 8 * THIRTY_MIN,
};

describe('renderInbox: controls of a row (the ask message action ids, values naming the ask)', () => {
  const cases: Array<[string, AskRecord, string[]]> = [
    [
      'single-select: options, Other…, Open thread',
      askRecord(),
      ['hp.option.0.0', 'hp.option.0.1', 'hp.other.0', 'hp.open'],
    ],
    ['free text: Answer…', askRecord({ questions: [freeTextQuestion()] }), ['hp.answer.0', 'hp.open']],
    [
      'multi-select: answered in the thread',
      askRecord({ questions: [choiceQuestion({ multiSelect: true })] }),
      ['hp.open'],
    ],
    [
      'the first open question of three',
      askRecord({
        questions: [choiceQuestion(), freeTextQuestion(), choiceQuestion()],
        resolutions: [answered(['Roll back']), null, null],
      }),
      ['hp.answer.1', 'hp.open'],
    ],
    [
      'snooze choices and delegate: the overflow menu',
      askRecord({ followUp: FOLLOW_UP }),
      ['hp.option.0.0', 'hp.option.0.1', 'hp.other.0', 'hp.more', 'hp.open'],
    ],
    [
      '4 options',
      askRecord({ questions: [choiceQuestion({ options: ['a', 'b', 'c', 'd'].map((l) => option(l)) })] }),
      ['hp.option.0.0', 'hp.option.0.1', 'hp.option.0.2', 'hp.option.0.3', 'hp.other.0', 'hp.open'],
    ],
  ];
  for (const [name, ask, expected] of cases) {
    it(name, () => {
      const blocks = blocksOf(content({ toAnswer: [ask] }), 'home');
      expect(controls(blocks)).toEqual([{ askShort: shortAskId(ask.askId), actionIds: expected }]);
      const actions = blocks.find((block) => block.type === 'actions');
      for (const element of actions?.elements ?? []) {
        if (element.action_id === 'hp.open') {
          expect(element.url).toBe(askLink(ask, WORKSPACE));
          continue;
        }
        expect(parseActionId(element.action_id)).not.toBeNull();
        const ref =
          element.type === 'overflow'
            ? parseMenuValue(element.options?.[0]?.value)
            : (parseActionValue(element.value) ?? parseMenuValue(element.value));
        expect(ref).toMatchObject({ turnId: ask.scope, askId: ask.askId });
      }
    });
  }

  it('an approval: no Approve or Deny in the row (its arguments are not shown there); review in the thread', () => {
    const ask = askRecord({
      questions: [choiceQuestion({ header: 'Approve', options: [option('Approve'), option('Deny')] })],
      approval: {
        calls: [{ toolCallId: 'c1', toolName: 'deploy_run', server: 'deploy', tool: 'run', input: {} }],
        reason: null,
      },
    });
    const blocks = blocksOf(content({ toAnswer: [ask] }), 'home');
    const actions = blocks.find((block) => block.type === 'actions');
    expect(actions?.elements?.map((element) => [element.text?.text, element.style])).toEqual([
      ['Open thread', undefined],
    ]);
    const row = blocks.find((block) => block.type === 'section' && block.block_id.endsWith('.a'))?.text?.text;
    expect(row).toContain('Approve deploy.run?');
    expect(row).toContain('Review the call and its arguments in the thread');
  });
});

describe('renderInbox: bounds (Slack: 100 blocks per Home view, 50 per message)', () => {
  const cases: Array<[InboxSurface, number, number, number]> = [
    ['home', 0, 0, SLACK_LIMITS.homeBlocks],
    ['home', 3, 2, SLACK_LIMITS.homeBlocks],
    ['home', 20, 20, SLACK_LIMITS.homeBlocks],
    ['home', 250, 250, SLACK_LIMITS.homeBlocks],
    ['message', 10, 10, SLACK_LIMITS.messageBlocks],
    ['message', 60, 60, SLACK_LIMITS.messageBlocks],
  ];
  for (const [surface, toAnswer, started, max] of cases) {
    it(`${surface}: ${toAnswer} to answer, ${started} started, wide characters`, () => {
      const wide = { questions: [choiceQuestion({ header: WIDE.slice(0, 60), question: WIDE })] };
      const c = content({ toAnswer: many(toAnswer, wide), started: many(started, wide) });
      const blocks = blocksOf(c, surface);
      expect(blocks.length).toBeLessThanOrEqual(max);
      expect(validateBlocks(blocks, surface)).toEqual([]);
      const cap = INBOX_ROW_CAPS[surface];
      expect(controls(blocks)).toHaveLength(Math.min(toAnswer, cap));
      const more = blocks.filter((block) => block.block_id.startsWith('hp.inbox.m.'));
      expect(more.length).toBe((toAnswer > cap ? 1 : 0) + (started > cap ? 1 : 0));
      if (toAnswer > cap) expect(JSON.stringify(more[0])).toContain(`and ${toAnswer - cap} more`);
    });
  }

  it('the Home view is valid for views.publish', () => {
    const view = renderHomeView(content({ toAnswer: many(25), started: many(25) }));
    expect(view).toMatchObject({ type: 'home', callback_id: 'hp.home' });
    expect(validateHomeView(view)).toEqual([]);
  });
});

describe('renderInbox: what a row says', () => {
  it('an empty inbox says so in both lists', () => {
    const text = JSON.stringify(blocksOf(content(), 'home'));
    expect(text).toContain('Nothing is waiting for you.');
    expect(text).toContain('No open asks that you started.');
  });

  it('keeps the given order (newest first), with a linked title, the deadline and who asked', () => {
    const asks = many(3);
    const blocks = blocksOf(content({ toAnswer: asks }), 'home');
    expect(controls(blocks).map((row) => row.askShort)).toEqual(asks.map((ask) => shortAskId(ask.askId)));
    const row = blocks.find((block) => block.block_id.endsWith('.a'))?.text?.text ?? '';
    expect(row).toContain(
      `*<${WORKSPACE}archives/C0OPS/p1780000065000300?thread_ts=1780000000.000100&cid=C0OPS|Deploy>*`,
    );
    expect(row).toContain(`<!date^${Math.floor((SHOWN_AT + THIRTY_MIN) / 1000)}^`);
    expect(row).toContain('(in 29 min)');
    expect(row).toContain('asked by the agent for <@U0ALICE> in <#C0OPS>');
  });

  it('escapes model text: no mention or link can be smuggled in', () => {
    const ask = askRecord({
      questions: [choiceQuestion({ header: '<!channel> <http://evil|x>', question: 'a & b <@U0EVE>' })],
    });
    const text = JSON.stringify(blocksOf(content({ toAnswer: [ask] }), 'home'));
    expect(text).not.toContain('<!channel>');
    expect(text).not.toContain('<http://evil');
    expect(text).not.toContain('<@U0EVE>');
    expect(text).toContain('a &amp; b &lt;@U0EVE&gt;');
  });

  it('a started ask says how far it is and whom it waits on', () => {
    const ask = askRecord({
      answerers: { mode: 'list', userIds: ['U0BOB'], groupIds: ['S0OPS'] },
      questions: [choiceQuestion(), freeTextQuestion()],
      resolutions: [answered(['Roll back'], 'U0CAROL'), null],
    });
    const block = blocksOf(content({ started: [ask] }), 'home').find((b) => b.block_id.endsWith('.s'));
    expect(block?.text?.text).toContain('1 of 2 answered · waiting on <@U0BOB>, <!subteam^S0OPS>');
    expect(block?.accessory).toMatchObject({ action_id: 'hp.open', url: askLink(ask, WORKSPACE) });
  });

  const links: Array<[string, Partial<AskRecord>, string | null, string]> = [
    [
      'a reply in a thread',
      {},
      WORKSPACE,
      `${WORKSPACE}archives/C0OPS/p1780000065000300?thread_ts=1780000000.000100&cid=C0OPS`,
    ],
    [
      'a new message (a program ask)',
      { conversation: { surface: 'slack', channel: 'C0OPS', threadTs: '' } },
      WORKSPACE,
      `${WORKSPACE}archives/C0OPS/p1780000065000300`,
    ],
    ['no workspace URL', {}, null, 'https://slack.com/app_redirect?channel=C0OPS'],
    [
      'a workspace URL that is not https',
      {},
      'javascript:alert(1)//',
      'https://slack.com/app_redirect?channel=C0OPS',
    ],
    ['not shown', { messageRef: null }, WORKSPACE, 'https://slack.com/app_redirect?channel=C0OPS'],
  ];
  for (const [name, extra, workspace, expected] of links) {
    it(`askLink: ${name}`, () => {
      expect(askLink(askRecord(extra), workspace)).toBe(expected);
    });
  }

  it('summaryText counts both lists', () => {
    expect(summaryText({ toAnswer: [], started: [] })).toBe(
      'Nothing waits for you; you started 0 open asks.',
    );
    expect(summaryText({ toAnswer: many(1), started: many(2) })).toBe(
      '1 ask waits for you; you started 2 open asks.',
    );
  });
});
