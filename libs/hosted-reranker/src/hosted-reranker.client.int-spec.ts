import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { HostedRerankerClient, ExternalRerankerError } from './hosted-reranker.client';

describe('HostedRerankerClient', () => {
  let server: Server;
  let url: string;
  let answers: ((body: Record<string, unknown>) => [number, unknown])[];
  let requests: { body: Record<string, unknown>; auth: string | undefined }[];

  beforeEach(async () => {
    answers = [];
    requests = [];
    server = createServer((req, res) => {
      let raw = '';
      req.on('data', (c: Buffer) => (raw += c.toString()));
      req.on('end', () => {
        const body = JSON.parse(raw) as Record<string, unknown>;
        requests.push({ body, auth: req.headers.authorization });
        const [status, payload] = (answers.shift() ?? (() => [500, {}]))(body);
        res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(payload));
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v2/rerank`;
  });
  afterEach(() => new Promise((r) => server.close(r)));

  it('sends the Cohere request shape and reads its answer', async () => {
    answers.push(() => [
      200,
      {
        results: [
          { index: 1, relevance_score: 0.9 },
          { index: 0, relevance_score: 0.2 },
        ],
      },
    ]);
    const client = new HostedRerankerClient({ url, apiKey: 'secret', model: 'rerank-v3.5', timeoutMs: 20_000 });
    expect(await client.rerank('java', ['a', 'b'], 5)).toEqual([
      { index: 1, relevanceScore: 0.9 },
      { index: 0, relevanceScore: 0.2 },
    ]);
    expect(requests[0]).toEqual({ body: { model: 'rerank-v3.5', query: 'java', documents: ['a', 'b'], top_n: 2 }, auth: 'Bearer secret' });
  });

  it('sends the Jina, Voyage and TEI request shapes and reads their answers', async () => {
    answers.push(
      () => [200, { results: [{ index: 0, relevance_score: 0.7, document: { text: 'a' } }] }],
      () => [200, { data: [{ index: 0, relevance_score: 0.6 }] }],
      () => [200, [{ index: 0, score: 0.5 }]],
    );
    const jina = new HostedRerankerClient({
      url,
      shape: 'jina',
      apiKey: 'k',
      model: 'jina-reranker-v2-base-multilingual',
      timeoutMs: 20_000,
    });
    const voyage = new HostedRerankerClient({ url, shape: 'voyage', apiKey: 'k', model: 'rerank-2', timeoutMs: 20_000 });
    const tei = new HostedRerankerClient({ url, shape: 'tei', apiKey: undefined, model: 'ignored', timeoutMs: 20_000 });
    expect(await jina.rerank('java', ['a'], 3)).toEqual([{ index: 0, relevanceScore: 0.7 }]);
    expect(await voyage.rerank('java', ['a'], 3)).toEqual([{ index: 0, relevanceScore: 0.6 }]);
    expect(await tei.rerank('java', ['a'], 3)).toEqual([{ index: 0, relevanceScore: 0.5 }]);
    expect(requests.map((r) => r.body)).toEqual([
      { model: 'jina-reranker-v2-base-multilingual', query: 'java', documents: ['a'], top_n: 1 },
      { model: 'rerank-2', query: 'java', documents: ['a'], top_k: 1 },
      { query: 'java', texts: ['a'], raw_scores: false, truncate: true },
    ]);
    expect([jina.provider, voyage.provider, tei.provider]).toEqual(['jina:jina-reranker-v2-base-multilingual', 'voyage:rerank-2', 'tei']);
  });

  it('retries a 429 and succeeds on the next attempt', async () => {
    answers.push(
      () => [429, {}],
      () => [200, [{ index: 0, score: 0.5 }]],
    );
    const client = new HostedRerankerClient({ url, apiKey: undefined, model: 'm', timeoutMs: 20_000 });
    expect(await client.rerank('q', ['a'], 1)).toEqual([{ index: 0, relevanceScore: 0.5 }]);
    expect(requests).toHaveLength(2);
  });

  it('gives up at once on a 400, which a retry cannot fix', async () => {
    answers.push(() => [400, {}]);
    const client = new HostedRerankerClient({ url, apiKey: undefined, model: 'm', timeoutMs: 20_000 });
    await expect(client.rerank('q', ['a'], 1)).rejects.toEqual(new ExternalRerankerError('reranker answered HTTP 400', false));
    expect(requests).toHaveLength(1);
  });

  it('rejects an answer pointing at a document it was not sent', async () => {
    answers.push(
      () => [200, { results: [{ index: 7, relevance_score: 1 }] }],
      () => [200, { results: [{ index: 7, relevance_score: 1 }] }],
      () => [200, { results: [] }],
    );
    const client = new HostedRerankerClient({ url, apiKey: undefined, model: 'm', timeoutMs: 20_000, attempts: 1 });
    await expect(client.rerank('q', ['a'], 1)).rejects.toThrow(/malformed/);
  });
});
