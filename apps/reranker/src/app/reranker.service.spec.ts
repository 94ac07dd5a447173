/**
 * @jest-environment ./scripts/jest-native-typed-arrays.environment.js
 */
import * as path from 'node:path';
import { SHIPPED_TUNING } from '@cs/ranking';
import { loadConfig } from '@cs/config';
import { QuantizedWordVectors, SentenceEmbedder } from '@cs/embeddings';
import { textsFrom } from '@cs/ports';
import { MetricsRegistry } from '@cs/service-kit';
import { RerankerMetrics } from './reranker-metrics';
import { RerankerService } from './reranker.service';

// Its logit counts the CV's tokens equal to a query token (libs/onnx-reranker/src/testing).
const TINY = path.resolve(__dirname, '../../../../libs/onnx-reranker/src/testing/tiny-cross-encoder');
const embedder = new SentenceEmbedder(
  QuantizedWordVectors.quantize(
    Float32Array.from([1, 0, 0, 1]),
    2,
    new Map([
      ['kubernetes', 0],
      ['chef', 1],
    ]),
  ),
);

// The feature scorer weighs 'once' first (short and to the point); the stand-in model counts.
const documents = [
  { id: 'once', text: 'Kubernetes engineer' },
  { id: 'many', text: `Engineer. ${'kubernetes '.repeat(5)}${'then other work for years '.repeat(40)}` },
  { id: 'chef', text: 'Chef of a kitchen' },
  { id: 'twice', text: `Kubernetes and kubernetes engineer ${'then other work '.repeat(10)}` },
];
const candidates = documents.map((d) => ({ id: d.id }));
const texts = textsFrom(new Map(documents.map((d) => [d.id, d.text])));
const metrics = () => new RerankerMetrics(new MetricsRegistry('test'));

describe('RerankerService', () => {
  it("lets a configured ONNX cross-encoder order the builtin reranker's best", async () => {
    const service = new RerankerService(
      embedder,
      loadConfig({ RERANKER_ONNX_MODEL_DIR: TINY, RERANKER_ONNX_TOP_N: '4' }).crossEncoder,
      SHIPPED_TUNING,
      null,
      metrics(),
    );
    await service.onModuleInit();
    try {
      const response = await service.rerankBuiltin('kubernetes', candidates, texts, 3);
      expect(response.provider).toBe('builtin+onnx:tiny-cross-encoder');
      expect(response.results.map((r) => r.id)).toEqual(['many', 'twice', 'once']);
      // The local provider of hybrid is the same scorer, and says so.
      expect((await service.rerankExternal('kubernetes', candidates, texts, 3)).provider).toBe('builtin+onnx:tiny-cross-encoder');
    } finally {
      await service.onModuleDestroy();
    }
  });

  it('ranks with the feature scorer alone when no model is given', async () => {
    const service = new RerankerService(embedder, undefined, SHIPPED_TUNING, null, metrics());
    await service.onModuleInit();
    const response = await service.rerankBuiltin('kubernetes', candidates, texts, 2);
    expect(response.provider).toBe('builtin');
    expect(response.results.map((r) => r.id)[0]).toBe('once');
    expect(response.results).toHaveLength(2);
  });

  it('stops the boot when the named model folder is not a cross-encoder', async () => {
    // A folder with model.onnx passes the config check; the missing tokenizer stops the service.
    const service = new RerankerService(
      embedder,
      { modelDir: path.join(TINY, '..'), topN: 5, maxTokens: 64 },
      SHIPPED_TUNING,
      null,
      metrics(),
    );
    await expect(service.onModuleInit()).rejects.toThrow(/lacks model.onnx, tokenizer.json, tokenizer_config.json/);
  });
});
