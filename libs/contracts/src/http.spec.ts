import { DomainError } from './errors';
import { createCompanyBody, createSearchBody, directUploadQuery, listQuery, parseOrThrow, setLimitBody } from './http';

const messageOf = (fn: () => unknown): string => {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(DomainError);
    return (error as DomainError).message;
  }
  throw new Error('expected a DomainError');
};

describe('createSearchBody', () => {
  it('accepts the documented fields with nulls', () => {
    expect(parseOrThrow(createSearchBody, { query: 'java', top_k: null, rerank_top_n: 5 })).toEqual({
      query: 'java',
      top_k: null,
      rerank_top_n: 5,
    });
  });

  it.each([
    [{}, 'query is required'],
    [{ query: '' }, 'query must be a string of 1 to 500 characters'],
    [{ query: 'x'.repeat(501) }, 'query must be a string of 1 to 500 characters'],
    [{ query: '   ' }, 'query must not be blank'],
    [{ query: 'q', top_k: 0 }, 'top_k must be an integer between 1 and 100'],
    [{ query: 'q', top_k: 2.5 }, 'top_k must be an integer between 1 and 100'],
    [{ query: 'q', top_k: '5' }, 'top_k must be an integer between 1 and 100'],
    [{ query: 'q', rerank_top_n: 101 }, 'rerank_top_n must be an integer between 1 and 100'],
    [{ query: 'q', searchGroupId: 'nope' }, 'searchGroupId must be a UUID'],
    [{ query: 'q', topK: 5 }, 'unknown field "topK"'],
    [{ query: 42 }, 'query must be a string of 1 to 500 characters'],
    [{ query: 'java\u0000' }, 'query must not contain NUL characters'],
  ])('%j -> %s', (body, message) => {
    expect(messageOf(() => parseOrThrow(createSearchBody, body))).toBe(message);
  });

  it('refuses a body that is not an object', () => {
    expect(messageOf(() => parseOrThrow(createSearchBody, [1]))).toMatch(/JSON object/);
    expect(messageOf(() => parseOrThrow(createSearchBody, 'text'))).toMatch(/JSON object/);
  });
});

describe('listQuery', () => {
  const schema = listQuery(['completed', 'failed']);
  it('applies defaults', () => {
    expect(parseOrThrow(schema, {})).toEqual({ limit: 20, offset: 0 });
  });
  it('names the bad parameter', () => {
    expect(messageOf(() => parseOrThrow(schema, { limit: '500' }))).toBe('limit must be an integer between 1 and 100');
    expect(messageOf(() => parseOrThrow(schema, { status: 'odd' }))).toBe('status must be one of completed, failed');
  });
});

describe('directUploadQuery', () => {
  it('requires MM-YYYY dates', () => {
    expect(messageOf(() => parseOrThrow(directUploadQuery, { documentName: 'cv', documentDate: '2024-03' }))).toBe(
      'documentDate must be MM-YYYY, for example 03-2024',
    );
    expect(parseOrThrow(directUploadQuery, { documentName: ' cv ', documentDate: '03-2024' })).toEqual({
      documentName: 'cv',
      documentDate: '03-2024',
      documentType: 'cv',
      kind: 'cv',
    });
  });
  it('takes kind job for a job posting, and no other kind', () => {
    expect(parseOrThrow(directUploadQuery, { documentName: 'posting', documentDate: '03-2024', kind: 'job' })).toMatchObject({
      kind: 'job',
    });
    expect(messageOf(() => parseOrThrow(directUploadQuery, { documentName: 'p', documentDate: '03-2024', kind: 'resume' }))).toBe(
      'kind must be one of cv, job',
    );
  });
  it('refuses a NUL in the name, which the database could not store', () => {
    expect(messageOf(() => parseOrThrow(directUploadQuery, { documentName: 'a\u0000b', documentDate: '03-2024' }))).toBe(
      'documentName must not contain NUL characters',
    );
  });
});

describe('admin bodies', () => {
  it('name the rule a field broke, as the public API does', () => {
    expect(messageOf(() => parseOrThrow(createCompanyBody, { name: ' ' }))).toBe('name must be a string of 1 to 200 characters');
    expect(messageOf(() => parseOrThrow(createCompanyBody, { name: 5 }))).toBe('name must be a string of 1 to 200 characters');
    expect(messageOf(() => parseOrThrow(setLimitBody, { limit: 0 }))).toBe('limit must be an integer between 1 and 1000000');
    expect(parseOrThrow(setLimitBody, { limit: null })).toEqual({ limit: null });
  });
});
