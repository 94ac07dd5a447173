/**
 * @jest-environment ./scripts/jest-native-typed-arrays.environment.js
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import { loadConfig } from '@cs/config';
import { createDenseEncoder } from './dense-encoder.factory';

// The onnx-encoder's stand-in model: prompts `query: ` / `passage: `, 8 dimensions.
const TINY = path.resolve(__dirname, '../../../onnx-encoder/src/testing/tiny-bi-encoder');
// Only the builtin model reads the word vectors.
const NO_WORD_VECTORS = undefined;

describe('createDenseEncoder', () => {
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
    const encoder = await createDenseEncoder(config.denseModel, NO_WORD_VECTORS);
    expect(encoder.model).toEqual({ id: 'http:tei/default', dimensions: 2 });
    const { vector } = await encoder.embedQuery('nurse');
    expect([...vector!]).toEqual([0.6000000238418579, 0.800000011920929]);
    expect(bodies).toEqual([{ path: '/embed', body: { inputs: ['query: nurse'], normalize: true, truncate: true } }]);
    await encoder.close();
  });

  it('loads the ONNX folder DENSE_MODEL names, with the prefixes and token budget of the config', async () => {
    const env = { DENSE_MODEL: `onnx:${TINY}`, DENSE_PASSAGE_PREFIX: 'query: ', DENSE_ONNX_MAX_TOKENS: '8' };
    const encoder = await createDenseEncoder(loadConfig(env).denseModel, NO_WORD_VECTORS);
    try {
      expect(encoder.model).toEqual({ id: expect.stringMatching(/^onnx:tiny-bi-encoder@[0-9a-f]{12}$/) as unknown, dimensions: 8 });
      // The folder's query prompt and DENSE_PASSAGE_PREFIX are the same words: so are the vectors.
      const { vector } = await encoder.embedQuery('python developer');
      const [passage, long] = await encoder.embedPassages(['python developer', 'python developer chef kitchen nurse']);
      expect([...vector!]).toEqual([...passage!]);
      // Eight tokens: [CLS] query : python developer chef kitchen [SEP], the nurse cut.
      const [cut] = await encoder.embedPassages(['python developer chef kitchen']);
      expect([...long!]).toEqual([...cut!]);
    } finally {
      await encoder.close();
    }
  });

  it('stops the service at start with the sentence naming what the folder lacks', async () => {
    const config = loadConfig({ DENSE_MODEL: `onnx:${path.dirname(TINY)}` }).denseModel;
    await expect(createDenseEncoder(config, NO_WORD_VECTORS)).rejects.toThrow(`DENSE_MODEL folder ${path.dirname(TINY)} lacks model.onnx`);
  });

  it('refuses the builtin model without the word vectors', async () => {
    await expect(createDenseEncoder(loadConfig({}).denseModel, NO_WORD_VECTORS)).rejects.toThrow(/needs the word vectors/);
  });
});
