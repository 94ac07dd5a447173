import { createHash } from 'node:crypto';
import { DomainError } from '@cs/contracts';
import type { IdempotencyRecord } from '@cs/records';
import { answerOf, fingerprintOf, idempotencyKeyOf, isReplayable, replayedHeaders } from './idempotency-key';

const sha = (text: string) => createHash('sha256').update(text).digest('hex');

describe('idempotencyKeyOf', () => {
  it('takes 1 to 255 visible ASCII characters, and no header as no key', () => {
    expect(idempotencyKeyOf({})).toBeUndefined();
    expect(idempotencyKeyOf({ 'idempotency-key': 'a' })).toBe('a');
    expect(idempotencyKeyOf({ 'idempotency-key': '8e03978e-40d5-43e8-bc93-6894a57f9324' })).toBe('8e03978e-40d5-43e8-bc93-6894a57f9324');
    // The draft's structured-field string is taken whole, quotes and all: a retry sends it the same.
    expect(idempotencyKeyOf({ 'idempotency-key': '"abc"' })).toBe('"abc"');
    expect(idempotencyKeyOf({ 'idempotency-key': '~'.repeat(255) })).toHaveLength(255);
  });

  it.each([
    ['empty', ''],
    ['256 characters', 'k'.repeat(256)],
    ['a space', 'two words'],
    ['a tab', 'a\tb'],
    ['non-ASCII', 'clé'],
    ['a control character', 'a\u0001b'],
    ['latin-1 bytes as Node reads them', '\u00ff\u00fe'],
    ['two headers, joined by Node', 'a, b'],
  ])('refuses %s with a 400 naming the header', (_, value) => {
    try {
      idempotencyKeyOf({ 'idempotency-key': value });
      fail('expected a 400');
    } catch (error) {
      expect(error).toBeInstanceOf(DomainError);
      expect((error as DomainError).code).toBe('invalid_request');
      expect((error as DomainError).message).toMatch(/^the Idempotency-Key header must be given once, as 1 to 255 visible ASCII/);
    }
  });

  it('refuses a header given as an array', () => {
    expect(() => idempotencyKeyOf({ 'idempotency-key': ['a', 'b'] })).toThrow(/Idempotency-Key/);
  });
});

describe('fingerprintOf', () => {
  const base = { method: 'POST', target: '/v1/public/searches/dense', contentType: 'application/json', bodySha256: sha('{"query":"a"}') };

  it('is the same for the same request, and differs when the method, target, query, type or body does', () => {
    expect(fingerprintOf(base)).toBe(fingerprintOf({ ...base }));
    expect(fingerprintOf(base)).toMatch(/^[0-9a-f]{64}$/);
    const others = [
      { ...base, method: 'PUT' },
      { ...base, target: '/v1/public/searches/sparse' },
      { ...base, target: '/v1/public/searches/dense?x=1' },
      { ...base, contentType: 'text/plain' },
      { ...base, contentType: undefined },
      { ...base, bodySha256: sha('{"query":"b"}') },
    ].map(fingerprintOf);
    expect(new Set([fingerprintOf(base), ...others]).size).toBe(others.length + 1);
  });

  it('cannot be made equal by moving text between the parts', () => {
    expect(fingerprintOf({ ...base, target: '/a\ntext/plain', contentType: '' })).not.toBe(
      fingerprintOf({ ...base, target: '/a', contentType: 'text/plain\n' }),
    );
  });
});

describe('isReplayable', () => {
  it('keeps successes and the client errors a retry would get again', () => {
    expect([200, 201, 202, 204, 400, 404, 409, 410, 413, 415, 422].every(isReplayable)).toBe(true);
  });

  it('keeps no answer a retry could change: 5xx, 429, 401, 408', () => {
    expect([500, 502, 503, 504, 429, 401, 408, 301, 100].some(isReplayable)).toBe(false);
  });
});

describe('replayedHeaders', () => {
  it('keeps the headers of the answer, and drops each request’s own', () => {
    expect(
      replayedHeaders({
        'content-type': 'application/json; charset=utf-8',
        location: '/v1/public/searches/x',
        link: ['<a>; rel="x"', '<b>; rel="y"'],
        'x-request-id': 'r1',
        'ratelimit-remaining': '3',
        'cache-control': 'no-store',
        'content-length': '12',
      }),
    ).toEqual({ 'content-type': 'application/json; charset=utf-8', location: '/v1/public/searches/x', link: '<a>; rel="x", <b>; rel="y"' });
  });
});

describe('answerOf', () => {
  const request = { scope: 'company:c', key: 'k', method: 'POST', path: '/v1/public/searches/dense', fingerprint: 'f1' };
  const answer = { status: 202, headers: {}, body: Buffer.from('{}') };
  const record = (changes: Partial<IdempotencyRecord>): IdempotencyRecord => ({
    ...request,
    state: 'completed',
    answer,
    createdAt: new Date(),
    expiresAt: new Date(),
    ...changes,
  });
  const codeOf = (fn: () => unknown) => {
    try {
      fn();
    } catch (error) {
      return { code: (error as DomainError).code, message: (error as DomainError).message };
    }
    return null;
  };

  it('hands back the stored answer to the same request', () => {
    expect(answerOf(record({}), request)).toBe(answer);
  });

  it('refuses another request under the key with 422, naming what the key was used for', () => {
    expect(codeOf(() => answerOf(record({ fingerprint: 'f2' }), request))).toEqual({
      code: 'idempotency_key_reused',
      message: expect.stringMatching(/already used for POST \/v1\/public\/searches\/dense with another body or query string/),
    });
    expect(codeOf(() => answerOf(record({ fingerprint: 'f2', path: '/v1/public/searches/sparse' }), request))?.message).toMatch(
      /already used for POST \/v1\/public\/searches\/sparse: a key names one request/,
    );
    // Even while the first is in flight: a different request is a mistake, not a wait.
    expect(codeOf(() => answerOf(record({ fingerprint: 'f2', state: 'processing', answer: null }), request))?.code).toBe(
      'idempotency_key_reused',
    );
  });

  it('answers 409 while the same request is still in flight', () => {
    expect(codeOf(() => answerOf(record({ state: 'processing', answer: null }), request))?.code).toBe('idempotency_key_in_use');
  });
});
