import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadConfig } from '@cs/config';
import { QuantizedWordVectors, SentenceEmbedder } from '@cs/embeddings';
import { createDenseEncoder } from './dense-encoder.factory';

describe('createDenseEncoder', () => {
  // The builtin model is not asked for here; an empty vocabulary stands in for it.
  const builtin = new SentenceEmbedder(QuantizedWordVectors.quantize(new Float32Array(0), 2, new Map()));
  let server: Server;
  let url: string;
  const bodies: unknown[] = [];

  beforeAll(async () => {
    server = createServer((req, res) => {
      let raw = '';
      req.on('data', (chunk: Buffer) => (raw += chunk.toString()));
      req.on('end', () => {
        bodies.push({ path: req.url, body: JSON.parse(raw) as unknown });
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify([[3, 4]]));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  it('builds the hosted encoder DENSE_MODEL=http:<provider> names, from the settings as the config reads them', async () => {
    const config = loadConfig({ DENSE_MODEL: 'http:tei', DENSE_API_URL: url, DENSE_API_DIMENSIONS: '2', DENSE_QUERY_PREFIX: 'query: ' });
    const encoder = await createDenseEncoder(config.denseModel, builtin);
    expect(encoder.model).toEqual({ id: 'http:tei/default', dimensions: 2 });
    const { vector } = await encoder.embedQuery('nurse');
    expect([...vector!]).toEqual([0.6000000238418579, 0.800000011920929]);
    expect(bodies).toEqual([{ path: '/embed', body: { inputs: ['query: nurse'], normalize: true, truncate: true } }]);
    await encoder.close();
  });
});
