import type { Request, Response } from 'express';
import { SEARCH_TYPES } from '@cs/search-domain';
import { unmatchedRoute } from './unmatched-route';

/** A request on an app whose only route is GET /v1/public/searches/:searchId, as Express matches it. */
function requestTo(method: string, path: string): { req: Request; res: Response; headers: Map<string, string> } {
  const searchId = {
    route: { path: '/v1/public/searches/:searchId', methods: { get: true } },
    match: (p: string) => /^\/v1\/public\/searches\/[^/]+\/?$/i.test(p),
  };
  const req = { method, path, app: { router: { stack: [searchId] } } } as unknown as Request;
  const headers = new Map<string, string>();
  const res = { setHeader: (name: string, value: string) => headers.set(name, value) } as unknown as Response;
  return { req, res, headers };
}

describe('unmatchedRoute (the answer to a request no route serves)', () => {
  it('answers a POST to a search type that does not exist 404, naming the search types', () => {
    for (const path of ['/v1/public/searches/semantic', '/V1/Public/Searches/semantic/', `/v1/public/searches/${'x'.repeat(5000)}`]) {
      const { req, res, headers } = requestTo('POST', path);
      const error = unmatchedRoute(req, res);
      expect(error.code).toBe('not_found');
      expect(error.message).toContain(`the search types are ${SEARCH_TYPES.join(', ')}`);
      expect(error.message.length).toBeLessThan(300);
      expect(headers.has('Allow')).toBe(false);
    }
    expect(unmatchedRoute(requestTo('POST', '/v1/public/searches/semantic').req, requestTo('POST', '/').res).message).toBe(
      'no search type "semantic"; the search types are dense, sparse, hybrid, builtin-rerank, similar, match',
    );
  });

  it('keeps 405 with Allow for other methods on a search id, and 404 for deeper unknown paths', () => {
    const { req, res, headers } = requestTo('DELETE', '/v1/public/searches/semantic');
    expect(unmatchedRoute(req, res)).toMatchObject({ code: 'method_not_allowed', message: expect.stringContaining('it takes GET, HEAD') });
    expect(headers.get('Allow')).toBe('GET, HEAD');
    const groups = requestTo('POST', '/v1/public/searches/groups');
    expect(unmatchedRoute(groups.req, groups.res)).toMatchObject({ code: 'method_not_allowed' });
    const deeper = requestTo('POST', '/v1/public/searches/semantic/run');
    expect(unmatchedRoute(deeper.req, deeper.res)).toMatchObject({
      code: 'not_found',
      message: 'no route POST /v1/public/searches/semantic/run',
    });
  });
});
