/**
 * A Block Kit validator that reports problems the way Slack's `invalid_blocks` error does: one string per
 * problem, ending in `[json-pointer:/blocks/…]`. It checks every limit of {@link SLACK_LIMITS} for the
 * blocks and elements holdpoint uses (and the basic shape of a few others), duplicate action_ids within a
 * block, duplicate block_ids within a message/view, missing required fields and plain_text-only fields.
 * Used by the fake Slack server and by renderer tests. Pure; never throws.
 */
import { SLACK_LIMITS } from './limits.js';

/** Where blocks are shown; decides the block-count limit (50 / 100) and which block types are allowed. */
export type BlockSurface = 'message' | 'modal' | 'home';

type Report = (message: string, pointer: string) => void;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function checkString(
  report: Report,
  value: unknown,
  pointer: string,
  options: { max: number; min?: number; required?: boolean },
): value is string {
  if (value === undefined) {
    if (options.required === true) report('missing required field', pointer);
    return false;
  }
  if (typeof value !== 'string') {
    report('must provide a string', pointer);
    return false;
  }
  const min = options.min ?? 0;
  if (value.length < min) report(`must be more than ${min - 1} characters`, pointer);
  if (value.length > options.max) report(`must be less than ${options.max + 1} characters`, pointer);
  return true;
}

function checkText(
  report: Report,
  value: unknown,
  pointer: string,
  options: { max: number; plainOnly?: boolean; required?: boolean },
): void {
  if (value === undefined) {
    if (options.required === true) report('missing required field', pointer);
    return;
  }
  if (!isObject(value)) {
    report('must provide an object', pointer);
    return;
  }
  if (value.type !== 'plain_text' && value.type !== 'mrkdwn') {
    report('must be one of: plain_text, mrkdwn', `${pointer}/type`);
  } else if (options.plainOnly === true && value.type !== 'plain_text') {
    report('must be plain_text', `${pointer}/type`);
  }
  checkString(report, value.text, `${pointer}/text`, { max: options.max, min: 1, required: true });
}

function checkArray(
  report: Report,
  value: unknown,
  pointer: string,
  options: { max: number; min?: number; required?: boolean },
): unknown[] {
  if (value === undefined) {
    if (options.required === true) report('missing required field', pointer);
    return [];
  }
  if (!Array.isArray(value)) {
    report('must provide an array', pointer);
    return [];
  }
  const min = options.min ?? 0;
  if (value.length < min) report(`must provide at least ${min} items`, pointer);
  if (value.length > options.max) report(`no more than ${options.max} items allowed`, pointer);
  return value;
}

function checkConfirm(report: Report, value: unknown, pointer: string): void {
  if (value === undefined) return;
  if (!isObject(value)) {
    report('must provide an object', pointer);
    return;
  }
  checkText(report, value.title, `${pointer}/title`, {
    max: SLACK_LIMITS.confirmTitle,
    plainOnly: true,
    required: true,
  });
  checkText(report, value.text, `${pointer}/text`, { max: SLACK_LIMITS.confirmText, required: true });
  checkText(report, value.confirm, `${pointer}/confirm`, {
    max: SLACK_LIMITS.confirmButton,
    plainOnly: true,
    required: true,
  });
  checkText(report, value.deny, `${pointer}/deny`, {
    max: SLACK_LIMITS.confirmButton,
    plainOnly: true,
    required: true,
  });
  if (value.style !== undefined && value.style !== 'primary' && value.style !== 'danger') {
    report('must be one of: primary, danger', `${pointer}/style`);
  }
}

function checkOption(report: Report, value: unknown, pointer: string, plainOnly: boolean): void {
  if (!isObject(value)) {
    report('must provide an object', pointer);
    return;
  }
  checkText(report, value.text, `${pointer}/text`, {
    max: SLACK_LIMITS.optionText,
    plainOnly,
    required: true,
  });
  checkString(report, value.value, `${pointer}/value`, {
    max: SLACK_LIMITS.optionValue,
    min: 1,
    required: true,
  });
  checkText(report, value.description, `${pointer}/description`, {
    max: SLACK_LIMITS.optionDescription,
    plainOnly,
  });
}

const ACTION_ELEMENTS = new Set([
  'button',
  'checkboxes',
  'radio_buttons',
  'static_select',
  'external_select',
  'users_select',
  'conversations_select',
  'channels_select',
  'multi_static_select',
  'multi_users_select',
  'overflow',
  'datepicker',
  'timepicker',
  'datetimepicker',
  'plain_text_input',
  'email_text_input',
  'url_text_input',
  'number_input',
]);

/** Validates one interactive element; returns its action_id (if any) for the uniqueness check. */
function checkElement(report: Report, element: unknown, pointer: string): string | undefined {
  if (!isObject(element)) {
    report('must provide an object', pointer);
    return undefined;
  }
  const type = element.type;
  if (typeof type !== 'string') {
    report('missing required field', `${pointer}/type`);
    return undefined;
  }
  if (!ACTION_ELEMENTS.has(type)) {
    report(`unsupported type: ${type}`, `${pointer}/type`);
    return undefined;
  }
  checkString(report, element.action_id, `${pointer}/action_id`, { max: SLACK_LIMITS.actionId, min: 1 });
  checkConfirm(report, element.confirm, `${pointer}/confirm`);
  switch (type) {
    case 'button':
      checkText(report, element.text, `${pointer}/text`, {
        max: SLACK_LIMITS.buttonText,
        plainOnly: true,
        required: true,
      });
      checkString(report, element.value, `${pointer}/value`, { max: SLACK_LIMITS.buttonValue, min: 1 });
      checkString(report, element.url, `${pointer}/url`, { max: 3000, min: 1 });
      checkString(report, element.accessibility_label, `${pointer}/accessibility_label`, {
        max: SLACK_LIMITS.buttonAccessibilityLabel,
        min: 1,
      });
      if (element.style !== undefined && element.style !== 'primary' && element.style !== 'danger') {
        report('must be one of: primary, danger', `${pointer}/style`);
      }
      break;
    case 'checkboxes':
    case 'radio_buttons': {
      const options = checkArray(report, element.options, `${pointer}/options`, {
        max: SLACK_LIMITS.checkboxesOptions,
        min: 1,
        required: true,
      });
      for (const [index, option] of options.entries())
        checkOption(report, option, `${pointer}/options/${index}`, false);
      checkArray(report, element.initial_options, `${pointer}/initial_options`, {
        max: SLACK_LIMITS.checkboxesOptions,
      });
      break;
    }
    case 'overflow': {
      const options = checkArray(report, element.options, `${pointer}/options`, {
        max: SLACK_LIMITS.overflowOptions,
        min: 2,
        required: true,
      });
      for (const [index, option] of options.entries())
        checkOption(report, option, `${pointer}/options/${index}`, true);
      break;
    }
    case 'static_select':
    case 'multi_static_select': {
      checkText(report, element.placeholder, `${pointer}/placeholder`, {
        max: SLACK_LIMITS.placeholder,
        plainOnly: true,
      });
      const options = checkArray(report, element.options, `${pointer}/options`, { max: 100 });
      for (const [index, option] of options.entries())
        checkOption(report, option, `${pointer}/options/${index}`, true);
      break;
    }
    case 'plain_text_input':
      checkText(report, element.placeholder, `${pointer}/placeholder`, {
        max: SLACK_LIMITS.placeholder,
        plainOnly: true,
      });
      for (const key of ['max_length', 'min_length'] as const) {
        const limit = element[key];
        if (limit === undefined) continue;
        const min = key === 'max_length' ? 1 : 0;
        if (
          typeof limit !== 'number' ||
          !Number.isInteger(limit) ||
          limit < min ||
          limit > SLACK_LIMITS.plainTextInputMaxLength
        ) {
          report(
            `must be an integer between ${min} and ${SLACK_LIMITS.plainTextInputMaxLength}`,
            `${pointer}/${key}`,
          );
        }
      }
      break;
    default:
      break;
  }
  return typeof element.action_id === 'string' ? element.action_id : undefined;
}

function checkBlock(
  report: Report,
  block: Record<string, unknown>,
  pointer: string,
  surface: BlockSurface,
): void {
  switch (block.type) {
    case 'header':
      checkText(report, block.text, `${pointer}/text`, {
        max: SLACK_LIMITS.headerText,
        plainOnly: true,
        required: true,
      });
      break;
    case 'section': {
      if (block.text === undefined && block.fields === undefined)
        report('missing required field', `${pointer}/text`);
      checkText(report, block.text, `${pointer}/text`, { max: SLACK_LIMITS.sectionText });
      const fields = checkArray(report, block.fields, `${pointer}/fields`, {
        max: SLACK_LIMITS.sectionFields,
        min: 1,
      });
      for (const [index, field] of fields.entries()) {
        checkText(report, field, `${pointer}/fields/${index}`, {
          max: SLACK_LIMITS.sectionFieldText,
          required: true,
        });
      }
      if (isObject(block.accessory) && block.accessory.type !== 'image') {
        checkElement(report, block.accessory, `${pointer}/accessory`);
      }
      break;
    }
    case 'context': {
      const elements = checkArray(report, block.elements, `${pointer}/elements`, {
        max: SLACK_LIMITS.contextElements,
        min: 1,
        required: true,
      });
      elements.forEach((element, index) => {
        if (isObject(element) && element.type === 'image') return;
        checkText(report, element, `${pointer}/elements/${index}`, {
          max: SLACK_LIMITS.textObject,
          required: true,
        });
      });
      break;
    }
    case 'actions': {
      const elements = checkArray(report, block.elements, `${pointer}/elements`, {
        max: SLACK_LIMITS.actionsElements,
        min: 1,
        required: true,
      });
      const seen = new Set<string>();
      elements.forEach((element, index) => {
        const actionId = checkElement(report, element, `${pointer}/elements/${index}`);
        if (actionId === undefined) return;
        if (seen.has(actionId)) {
          report(
            `action_id must be unique within a block: ${actionId}`,
            `${pointer}/elements/${index}/action_id`,
          );
        }
        seen.add(actionId);
      });
      break;
    }
    case 'input':
      checkText(report, block.label, `${pointer}/label`, {
        max: SLACK_LIMITS.inputLabel,
        plainOnly: true,
        required: true,
      });
      checkText(report, block.hint, `${pointer}/hint`, { max: SLACK_LIMITS.inputLabel, plainOnly: true });
      if (block.element === undefined) report('missing required field', `${pointer}/element`);
      else checkElement(report, block.element, `${pointer}/element`);
      break;
    case 'markdown':
      if (surface !== 'message') report('unsupported type: markdown', `${pointer}/type`);
      checkString(report, block.text, `${pointer}/text`, { max: 12_000, min: 1, required: true });
      break;
    case 'divider':
    case 'image':
    case 'rich_text':
    case 'file':
    case 'video':
      break;
    case undefined:
      report('missing required field', `${pointer}/type`);
      break;
    default:
      report(`unsupported type: ${String(block.type)}`, `${pointer}/type`);
  }
}

/**
 * Validates a `blocks` array for a message (≤ 50 blocks), a modal or a Home tab view (≤ 100 blocks). Returns Slack-style
 * error strings such as `must be less than 76 characters [json-pointer:/blocks/2/elements/0/text/text]`;
 * empty when the blocks are valid. `pointerPrefix` defaults to `/blocks` (`/view/blocks` for views).
 */
export function validateBlocks(blocks: unknown, surface: BlockSurface, pointerPrefix = '/blocks'): string[] {
  const errors: string[] = [];
  const report: Report = (message, pointer) => errors.push(`${message} [json-pointer:${pointer}]`);
  const max =
    surface === 'message'
      ? SLACK_LIMITS.messageBlocks
      : surface === 'home'
        ? SLACK_LIMITS.homeBlocks
        : SLACK_LIMITS.modalBlocks;
  const list = checkArray(report, blocks, pointerPrefix, { max, required: true });
  const blockIds = new Set<string>();
  list.forEach((block, index) => {
    const pointer = `${pointerPrefix}/${index}`;
    if (!isObject(block)) {
      report('must provide an object', pointer);
      return;
    }
    if (checkString(report, block.block_id, `${pointer}/block_id`, { max: SLACK_LIMITS.blockId, min: 1 })) {
      const id = block.block_id as string;
      if (blockIds.has(id)) report(`block_id must be unique: ${id}`, `${pointer}/block_id`);
      blockIds.add(id);
    }
    checkBlock(report, block, pointer, surface);
  });
  return errors;
}

/**
 * Validates a modal view as `views.open` / `views.update` would: `type: 'modal'`, title (plain_text ≤ 24,
 * required), submit (required when there is an input block) and close (plain_text ≤ 24),
 * private_metadata ≤ 3000, callback_id ≤ 255, external_id ≤ 255, and the blocks (≤ 100). Pointers start
 * with `/view`.
 */
export function validateModalView(view: unknown): string[] {
  const errors: string[] = [];
  const report: Report = (message, pointer) => errors.push(`${message} [json-pointer:${pointer}]`);
  if (!isObject(view)) {
    report('must provide an object', '/view');
    return errors;
  }
  if (view.type !== 'modal') report('must be one of: modal', '/view/type');
  checkText(report, view.title, '/view/title', {
    max: SLACK_LIMITS.modalTitle,
    plainOnly: true,
    required: true,
  });
  checkText(report, view.submit, '/view/submit', { max: SLACK_LIMITS.modalButton, plainOnly: true });
  checkText(report, view.close, '/view/close', { max: SLACK_LIMITS.modalButton, plainOnly: true });
  checkString(report, view.private_metadata, '/view/private_metadata', { max: SLACK_LIMITS.privateMetadata });
  checkString(report, view.callback_id, '/view/callback_id', { max: SLACK_LIMITS.callbackId });
  checkString(report, view.external_id, '/view/external_id', { max: SLACK_LIMITS.externalId });
  const hasInput =
    Array.isArray(view.blocks) && view.blocks.some((block) => isObject(block) && block.type === 'input');
  if (hasInput && view.submit === undefined) report('missing required field', '/view/submit');
  errors.push(...validateBlocks(view.blocks, 'modal', '/view/blocks'));
  return errors;
}

/**
 * Validates a Home tab view as `views.publish` would: `type: 'home'`, private_metadata ≤ 3000,
 * callback_id ≤ 255, external_id ≤ 255, and the blocks (≤ 100, Slack blocks reference). Pointers start
 * with `/view`.
 */
export function validateHomeView(view: unknown): string[] {
  const errors: string[] = [];
  const report: Report = (message, pointer) => errors.push(`${message} [json-pointer:${pointer}]`);
  if (!isObject(view)) {
    report('must provide an object', '/view');
    return errors;
  }
  if (view.type !== 'home') report('must be one of: home', '/view/type');
  checkString(report, view.private_metadata, '/view/private_metadata', { max: SLACK_LIMITS.privateMetadata });
  checkString(report, view.callback_id, '/view/callback_id', { max: SLACK_LIMITS.callbackId });
  checkString(report, view.external_id, '/view/external_id', { max: SLACK_LIMITS.externalId });
  errors.push(...validateBlocks(view.blocks, 'home', '/view/blocks'));
  return errors;
}
