import { noneMatchHits, weakEtag } from './conditional-get';

describe('If-None-Match against a weak ETag', () => {
  const etag = weakEtag('{"status":"completed"}');

  it('is a weak validator of the exact body', () => {
    expect(etag).toMatch(/^W\/"[\w-]{27}"$/);
    expect(weakEtag('{"status":"processing"}')).not.toBe(etag);
  });

  it('matches the tag itself, without W/, within a list, or *', () => {
    expect(noneMatchHits(etag, etag)).toBe(true);
    expect(noneMatchHits(etag.slice(2), etag)).toBe(true);
    expect(noneMatchHits(`W/"other", ${etag}`, etag)).toBe(true);
    expect(noneMatchHits(' * ', etag)).toBe(true);
  });

  it('does not match another tag, an empty header or none', () => {
    expect(noneMatchHits('W/"other"', etag)).toBe(false);
    expect(noneMatchHits('', etag)).toBe(false);
    expect(noneMatchHits(undefined, etag)).toBe(false);
  });
});
