/**
 * Slack Block Kit and Web API limits that holdpoint renders against, with the source of each.
 *
 * Slack's docs count "characters" without defining the unit; holdpoint measures `String.length` (UTF-16
 * code units), which is never smaller than the code-point count, so a text within the limit in UTF-16
 * units is within it under any reasonable counting (FACTS.md §1).
 *
 * Sources (docs.slack.dev):
 * - blocks: /reference/block-kit/blocks (50 per message, 100 per modal or Home tab view)
 * - Home tab: /reference/methods/views.publish, /surfaces/app-home
 * - header: /reference/block-kit/blocks/header-block
 * - section: /reference/block-kit/blocks/section-block
 * - context: /reference/block-kit/blocks/context-block
 * - actions: /reference/block-kit/blocks/actions-block
 * - button: /reference/block-kit/block-elements/button-element
 * - checkboxes: /reference/block-kit/block-elements/checkboxes-element
 * - option object: /reference/block-kit/composition-objects/option-object
 * - confirm dialog: /reference/block-kit/composition-objects/confirmation-dialog-object
 * - text object: /reference/block-kit/composition-objects/text-object
 * - input + plain_text_input: /reference/block-kit/blocks/input-block, …/block-elements/plain-text-input-element
 * - modal: /reference/views/modal-views, /reference/methods/views.open
 * - top-level text: api.slack.com/changelog/2018-04-truncating-really-long-messages
 */
export const SLACK_LIMITS = {
  /** Blocks per message. Source: blocks reference. */
  messageBlocks: 50,
  /** Blocks per modal view. Source: blocks reference, modal views. */
  modalBlocks: 100,
  /** Blocks per Home tab view (`views.publish`). Source: blocks reference, views.publish. */
  homeBlocks: 100,
  /** `header` block text (plain_text only). Source: header block. */
  headerText: 150,
  /** `section` text. Source: section block. */
  sectionText: 3000,
  /** `section` fields: number of items. Source: section block. */
  sectionFields: 10,
  /** `section` fields: each text. Source: section block. */
  sectionFieldText: 2000,
  /** Any text object (plain_text / mrkdwn), e.g. a context element. Source: text object. */
  textObject: 3000,
  /** `context` block elements. Source: context block. */
  contextElements: 10,
  /** `actions` block elements. Source: actions block. */
  actionsElements: 25,
  /** Button `text` (plain_text only). Source: button element. */
  buttonText: 75,
  /** Button `value`. Source: button element. */
  buttonValue: 2000,
  /** Button `accessibility_label`. Source: button element. */
  buttonAccessibilityLabel: 75,
  /** `action_id`; unique among the action_ids of its block. Source: button element. */
  actionId: 255,
  /** `block_id`; unique per message/view and per update. Source: section block, header block. */
  blockId: 255,
  /** Checkboxes `options`. Source: checkboxes element. */
  checkboxesOptions: 10,
  /** Overflow menu `options` (2 to 5). Source: overflow menu element. */
  overflowOptions: 5,
  /** Option object `text`. Source: option object. */
  optionText: 75,
  /** Option object `value` (docs: 150; @slack/types JSDoc says 75). Source: option object. */
  optionValue: 150,
  /** Option object `description`. Source: option object. */
  optionDescription: 75,
  /** Confirm dialog `title`. Source: confirmation dialog object. */
  confirmTitle: 100,
  /** Confirm dialog `text`. Source: confirmation dialog object. */
  confirmText: 300,
  /** Confirm dialog `confirm` / `deny` button texts. Source: confirmation dialog object. */
  confirmButton: 30,
  /** `input` block `label` and `hint`. Source: input block. */
  inputLabel: 2000,
  /** `plain_text_input` `max_length` (and `min_length`) upper bound. Source: plain_text_input element. */
  plainTextInputMaxLength: 3000,
  /** `plain_text_input` / select `placeholder`. Source: plain_text_input element. */
  placeholder: 150,
  /** Modal `title`. Source: modal views. */
  modalTitle: 24,
  /** Modal `submit` and `close` texts. Source: modal views. */
  modalButton: 24,
  /** Modal `private_metadata`. Source: modal views. */
  privateMetadata: 3000,
  /** Modal `callback_id`. Source: modal views. */
  callbackId: 255,
  /** Modal `external_id`. Source: views.open. */
  externalId: 255,
  /** Top-level message `text`: longer texts are truncated with warning `message_truncated`. Source: changelog 2018-04. */
  topLevelText: 40_000,
} as const;

/** The names of {@link SLACK_LIMITS}. */
export type SlackLimitName = keyof typeof SLACK_LIMITS;
