import { generateWebhookSecret, signWebhook, verifyWebhook, webhookHeaders, WebhookVerificationError } from './signing';

describe('webhook signatures (Standard Webhooks)', () => {
  // The example of the convention's documentation (Svix's "verifying manually"), so that receivers' libraries agree with us.
  const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
  const id = 'msg_p5jXN8AQM9LWM0D4loKWxJek';
  const timestamp = 1614265330;
  const body = '{"test": 2432232314}';

  it("signs `id.timestamp.body` with the secret's base64 key, as the convention's example does", () => {
    expect(signWebhook(secret, id, timestamp, body)).toBe('v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=');
  });

  it('makes whsec_ secrets of 24 random bytes, never twice the same', () => {
    const a = generateWebhookSecret();
    expect(a).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    expect(Buffer.from(a.slice(6), 'base64')).toHaveLength(24);
    expect(generateWebhookSecret()).not.toBe(a);
  });

  it('verifies the headers it makes, and returns the parsed body', () => {
    const now = new Date(timestamp * 1000);
    const headers = webhookHeaders(secret, id, body, now);
    expect(headers).toEqual({
      'webhook-id': id,
      'webhook-timestamp': String(timestamp),
      'webhook-signature': 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
    });
    expect(verifyWebhook(secret, headers, body, { now })).toEqual({ test: 2432232314 });
  });

  it('accepts one matching signature among several (a rotated secret)', () => {
    const now = new Date(timestamp * 1000);
    const headers = webhookHeaders(secret, id, body, now);
    const other = signWebhook(generateWebhookSecret(), id, timestamp, body);
    expect(verifyWebhook(secret, { ...headers, 'webhook-signature': `${other} ${headers['webhook-signature']}` }, body, { now })).toEqual({
      test: 2432232314,
    });
  });

  it.each([
    ['a changed body', (h: Record<string, string>) => h, '{"test": 2432232315}', /no signature matches/],
    ['another id', (h: Record<string, string>) => ({ ...h, 'webhook-id': 'msg_other' }), body, /no signature matches/],
    [
      'a wrong secret',
      (h: Record<string, string>) => ({ ...h, 'webhook-signature': signWebhook(generateWebhookSecret(), id, timestamp, body) }),
      body,
      /no signature matches/,
    ],
    ['a missing signature', (h: Record<string, string>) => ({ ...h, 'webhook-signature': '' }), body, /missing/],
    ['a timestamp that is not a number', (h: Record<string, string>) => ({ ...h, 'webhook-timestamp': '12a' }), body, /not a number/],
  ])('refuses %s', (_, change, sentBody, reason) => {
    const now = new Date(timestamp * 1000);
    const headers = change(webhookHeaders(secret, id, body, now));
    expect(() => verifyWebhook(secret, headers, sentBody, { now })).toThrow(WebhookVerificationError);
    expect(() => verifyWebhook(secret, headers, sentBody, { now })).toThrow(reason);
  });

  it('refuses a delivery signed more than 5 minutes away from the clock (a replay), either way', () => {
    const signedAt = new Date(timestamp * 1000);
    const headers = webhookHeaders(secret, id, body, signedAt);
    expect(verifyWebhook(secret, headers, body, { now: new Date(signedAt.getTime() + 300_000) })).toBeDefined();
    expect(() => verifyWebhook(secret, headers, body, { now: new Date(signedAt.getTime() + 301_000) })).toThrow(/too far/);
    expect(() => verifyWebhook(secret, headers, body, { now: new Date(signedAt.getTime() - 301_000) })).toThrow(/too far/);
  });

  it('refuses a secret without a key', () => {
    expect(() => signWebhook('whsec_', id, timestamp, body)).toThrow(/base64 key/);
  });
});
