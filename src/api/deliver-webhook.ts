import { lookup } from 'node:dns/promises';
import type { AskStore } from '../asks/ask-store.js';
import type { EngineLogger } from '../asks/logger.js';
import type { ApiMarks } from './api-marks.js';
import { askView } from './ask-view.js';
import { signWebhook } from './webhook-signature.js';
import { webhookAddressAllowed } from './webhook-target.js';

/** How long one delivery may take before it counts as failed (and is retried), in ms. */
export const WEBHOOK_TIMEOUT_MS = 10_000;
/** How long a delivered mark is kept, in ms (longer than every retry of the job). */
const DELIVERED_TTL_MS = 8 * 24 * 3600 * 1000;

/** What {@link deliverWebhook} needs. */
export interface WebhookDeps {
  store: Pick<AskStore, 'getAsk'>;
  marks: Pick<ApiMarks, 'isDelivered' | 'markDelivered'>;
  /** `WEBHOOK_SECRET`: signs every delivery. */
  secret: string;
  /** Epoch ms. */
  now: () => number;
  log: EngineLogger;
}

/**
 * The `webhook` job: POSTs `{ type: "ask.resolved", ask }` (or, with `questionIndex`, `{ type:
 * "ask.overridden", questionIndex, ask }` once a late answer replaced that question's assumption) (the ask as `GET /v1/asks/{id}` returns it) to
 * the waiter's `callbackUrl`, with `X-Holdpoint-Delivery` (one id per resolution: `ask-resolved-<askId>`,
 * the same on every retry, so a receiver drops repeats), `X-Holdpoint-Timestamp` (unix seconds) and
 * `X-Holdpoint-Signature` ({@link signWebhook}). Once a receiver answered 2xx it is marked delivered and
 * never sent again; a job run again after a crash mid-delivery may send it once more with the same id
 * (at-least-once on the wire).
 * @throws Error when the receiver does not answer 2xx within {@link WEBHOOK_TIMEOUT_MS} (the job retries).
 */
export async function deliverWebhook(
  deps: WebhookDeps,
  scope: string,
  askId: string,
  questionIndex?: number,
): Promise<'delivered' | 'already-delivered' | 'no-callback'> {
  const ask = await deps.store.getAsk(scope, askId);
  if (ask?.waiter.kind !== 'api' || !ask.waiter.callbackUrl || ask.status !== 'resolved')
    return 'no-callback';
  const overridden = questionIndex === undefined ? null : (ask.overrides[questionIndex] ?? null);
  if (questionIndex !== undefined && !overridden) return 'no-callback';
  const markId = questionIndex === undefined ? askId : `${askId}-overridden-q${questionIndex}`;
  if (await deps.marks.isDelivered(markId)) return 'already-delivered';
  const target = new URL(ask.waiter.callbackUrl);
  const addresses = await lookup(target.hostname.replace(/^\[|\]$/g, ''), { all: true });
  const blocked = addresses.find((found) => !webhookAddressAllowed(found.address));
  if (blocked)
    throw new Error(
      `webhook of ask ${askId}: ${target.hostname} is the link-local address ${blocked.address} (where cloud metadata services answer); not sent`,
    );
  const body = JSON.stringify(
    questionIndex === undefined
      ? { type: 'ask.resolved', ask: askView(ask) }
      : { type: 'ask.overridden', questionIndex, ask: askView(ask) },
  );
  const timestampSec = Math.floor(deps.now() / 1000);
  const delivery =
    questionIndex === undefined ? `ask-resolved-${askId}` : `ask-overridden-${askId}-q${questionIndex}`;
  const response = await fetch(ask.waiter.callbackUrl, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'user-agent': 'holdpoint-webhook',
      'x-holdpoint-delivery': delivery,
      'x-holdpoint-timestamp': String(timestampSec),
      'x-holdpoint-signature': signWebhook(deps.secret, timestampSec, body),
    },
    body,
    redirect: 'manual',
    signal: AbortSignal.timeout(WEBHOOK_TIMEOUT_MS),
  });
  await response.body?.cancel();
  if (response.status < 200 || response.status >= 300)
    throw new Error(`webhook ${delivery}: the receiver answered ${response.status}`);
  await deps.marks.markDelivered(markId, DELIVERED_TTL_MS);
  deps.log.info({ askId, delivery }, 'webhook delivered');
  return 'delivered';
}
