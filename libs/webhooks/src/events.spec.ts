import { webhookData, webhookMessage } from './events';

const searchRow = {
  searchId: '0b0c7f4c-9a4e-4c8e-8d1e-1f1d3c7a9b01',
  searchGroupId: '6f1e0a52-3a7c-4d7e-9f43-2b8e2a7c5d10',
  searchType: 'hybrid',
  status: 'completed',
  resultsCount: 12,
  processingTimeMs: 1840,
  completedAt: '2026-11-24T19:05:22.123456+00:00',
  error: null,
  errorRetryable: null,
};
const documentRow = {
  documentId: '2d6b1f7e-5c3a-4e9b-8a1d-7c4e2b9f0a33',
  documentName: 'Jane Doe',
  documentType: 'cv',
  status: 'invalid',
  message: 'No text could be extracted (a scan?)',
  error: null,
};

describe('webhook messages', () => {
  it('gives search.completed the ids, the status, the counts and the URLs to read the results', () => {
    expect(webhookData('search.completed', searchRow)).toEqual({
      searchId: searchRow.searchId,
      searchGroupId: searchRow.searchGroupId,
      searchType: 'hybrid',
      status: 'completed',
      completedAt: '2026-11-24T19:05:22.123Z',
      statusUrl: `/v1/public/searches/${searchRow.searchId}`,
      resultsCount: 12,
      processingTimeMs: 1840,
      resultsUrl: `/v1/public/searches/${searchRow.searchId}/results`,
    });
  });

  it('gives search.failed the error and whether a new search may succeed, and no results URL', () => {
    const data = webhookData('search.failed', { ...searchRow, status: 'failed', error: 'no searchable documents', errorRetryable: false });
    expect(data).toMatchObject({ status: 'failed', error: 'no searchable documents', errorRetryable: false });
    expect(data).not.toHaveProperty('resultsUrl');
    expect(data).not.toHaveProperty('resultsCount');
  });

  it("gives document events the document's name, status and message; document.failed its error too", () => {
    expect(webhookData('document.invalid', documentRow)).toEqual({
      documentId: documentRow.documentId,
      documentName: 'Jane Doe',
      documentType: 'cv',
      status: 'invalid',
      message: 'No text could be extracted (a scan?)',
      statusUrl: `/v1/public/documents/${documentRow.documentId}`,
    });
    expect(webhookData('document.completed', { ...documentRow, status: 'completed', message: 'Searchable' })).toMatchObject({
      status: 'completed',
      message: 'Searchable',
    });
    expect(
      webhookData('document.failed', {
        ...documentRow,
        status: 'failed',
        message: 'The file could not be read',
        error: { message: 'encrypted PDF', retryable: false },
      }),
    ).toMatchObject({ status: 'failed', error: { message: 'encrypted PDF', retryable: false } });
  });

  it('gives saved_search.new_matches the saved search, its new CVs and where to list them', () => {
    const newMatches = [{ documentId: 'd1', documentName: 'Ada', rank: 2, score: 0.8, arrivedAt: '2026-11-30T09:00:00.000Z' }];
    expect(
      webhookData('saved_search.new_matches', { savedSearchId: 's1', name: 'Backend', searchType: 'hybrid', newMatches, extra: 'x' }),
    ).toEqual({ savedSearchId: 's1', name: 'Backend', searchType: 'hybrid', newMatches, newUrl: '/v1/public/saved-searches/s1/new' });
    expect(webhookData('saved_search.new_matches', { savedSearchId: 's1' })).toMatchObject({ name: null, newMatches: [] });
  });

  it('writes null for what a row lacks rather than inventing it', () => {
    expect(webhookData('search.completed', { searchId: searchRow.searchId })).toMatchObject({
      searchGroupId: null,
      resultsCount: null,
      completedAt: null,
    });
  });

  it('wraps the data as {id, type, timestamp, data} with the time the event happened', () => {
    const message = webhookMessage({
      id: 'e1',
      type: 'webhook.test',
      createdAt: new Date('2026-11-24T19:05:22.5Z'),
      data: { webhookId: 'w1', message: 'hello' },
    });
    expect(message).toEqual({
      id: 'e1',
      type: 'webhook.test',
      timestamp: '2026-11-24T19:05:22.500Z',
      data: { webhookId: 'w1', message: 'hello' },
    });
    expect(Object.keys(JSON.parse(JSON.stringify(message)) as object)).toEqual(['id', 'type', 'timestamp', 'data']);
  });
});
