import { DomainError } from '@cs/contracts';
import { SEARCH_TYPES } from '@cs/search-domain';
import { checkKeywordQuery } from './keyword-query-check';

const refusal = (type: (typeof SEARCH_TYPES)[number], query: string) => {
  try {
    checkKeywordQuery(type, query);
    return null;
  } catch (error) {
    return error as DomainError;
  }
};

describe('checkKeywordQuery', () => {
  it('refuses a malformed sparse or hybrid query as invalid_request, naming the character and what was expected', () => {
    for (const type of ['sparse', 'hybrid'] as const) {
      const error = refusal(type, 'java OR');
      expect(error).toBeInstanceOf(DomainError);
      expect(error).toMatchObject({
        code: 'invalid_request',
        message: 'query at character 6: OR needs a word, a "phrase", a field or a group after it, found the end of the query',
      });
      expect(refusal(type, '-php')?.message).toContain('nothing to search for');
      expect(refusal(type, '+skill:cobolx')?.message).toBe('query at character 2: skill:cobolx names no skill of the skills vocabulary');
    }
  });

  it('takes any query for dense and builtin-rerank, which read it as text', () => {
    expect(refusal('dense', 'java OR (')).toBeNull();
    expect(refusal('builtin-rerank', '"unclosed')).toBeNull();
  });

  it('takes well-formed queries, with and without operators', () => {
    for (const query of ['general ledger, QuickBooks', '+(java OR kotlin) -php title:"lead engineer" +skill:k8s'])
      expect(refusal('sparse', query)).toBeNull();
  });
});
