import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Signatures of the Standard Webhooks convention (standardwebhooks.com): the secret is
 * `whsec_<base64 key>`, and `webhook-signature` holds `v1,<base64 HMAC-SHA256 of "id.timestamp.body">`,
 * so the receivers' libraries of that convention verify our deliveries unchanged.
 */

const SECRET_PREFIX = 'whsec_';
/** 24 random bytes: the key length the convention's libraries generate. */
const SECRET_BYTES = 24;
/** How far a delivery's timestamp may stand from the receiver's clock (the convention's 5 minutes). */
export const DEFAULT_TOLERANCE_SECONDS = 5 * 60;

/** A new endpoint's signing secret, `whsec_<base64>`. */
export function generateWebhookSecret(): string {
  return `${SECRET_PREFIX}${randomBytes(SECRET_BYTES).toString('base64')}`;
}

/** The HMAC key of a secret: the base64 after `whsec_` (a bare base64 secret is read the same way). */
function keyOf(secret: string): Buffer {
  const key = Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret, 'base64');
  if (key.length === 0) throw new Error('a webhook secret must hold a base64 key after whsec_');
  return key;
}

/** The `webhook-signature` value of one delivery attempt: `v1,<base64>`. */
export function signWebhook(secret: string, id: string, timestamp: number, body: string): string {
  return `v1,${createHmac('sha256', keyOf(secret)).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
}

/** The three headers of one delivery attempt, signed at `now`. */
export function webhookHeaders(secret: string, id: string, body: string, now: Date = new Date()): Record<string, string> {
  const timestamp = Math.floor(now.getTime() / 1000);
  return {
    'webhook-id': id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': signWebhook(secret, id, timestamp, body),
  };
}

export class WebhookVerificationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WebhookVerificationError';
  }
}

/**
 * What a receiver does with a delivery (docs/api.md shows the same steps): the three headers must
 * be there, the timestamp within `toleranceSeconds` of `now` (a replayed old delivery fails), and
 * one of the space-separated `v1,` signatures must equal ours, compared in constant time. Returns
 * the parsed body; throws {@link WebhookVerificationError} saying what failed.
 */
export function verifyWebhook(
  secret: string,
  headers: Record<string, string | string[] | undefined>,
  body: string,
  options: { toleranceSeconds?: number; now?: Date } = {},
): unknown {
  const header = (name: string) => {
    const value = headers[name];
    return Array.isArray(value) ? value[0] : value;
  };
  const id = header('webhook-id');
  const timestamp = header('webhook-timestamp');
  const signatures = header('webhook-signature');
  if (!id || !timestamp || !signatures) throw new WebhookVerificationError('missing webhook-id, webhook-timestamp or webhook-signature');
  if (!/^\d{1,12}$/.test(timestamp)) throw new WebhookVerificationError('webhook-timestamp is not a number of seconds');
  const now = Math.floor((options.now ?? new Date()).getTime() / 1000);
  if (Math.abs(now - Number(timestamp)) > (options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS)) {
    throw new WebhookVerificationError('webhook-timestamp is too far from now');
  }
  const expected = Buffer.from(signWebhook(secret, id, Number(timestamp), body));
  const matches = signatures
    .split(' ')
    .map((candidate) => Buffer.from(candidate))
    .some((candidate) => candidate.length === expected.length && timingSafeEqual(candidate, expected));
  if (!matches) throw new WebhookVerificationError('no signature matches');
  return JSON.parse(body) as unknown;
}
