/**
 * @jest-environment ./scripts/jest-native-typed-arrays.environment.js
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { CrossEncoderError, OnnxCrossEncoder, rerankWithCrossEncoder } from './onnx-cross-encoder';

// A stand-in model with a cross-encoder's interface, written by testing/make-tiny-cross-encoder.py:
// its logit counts the CV's tokens that equal a query token.
const TINY = path.join(__dirname, 'testing', 'tiny-cross-encoder');

describe('OnnxCrossEncoder', () => {
  let encoder: OnnxCrossEncoder;
  beforeAll(async () => {
    encoder = await OnnxCrossEncoder.load(TINY, { maxTokens: 64, batchSize: 2 });
  });
  afterAll(() => encoder.close());

  it('reads the query and each CV together, through the model tokenizer, in batches', async () => {
    const scores = await encoder.score('Kubernetes, Python', [
      'Java developer',
      'Kubernetes engineer; kubernetes and Docker',
      'python developer with kubernetes',
    ]);
    expect(scores).toEqual([0, 2, 2]);
    // The same CV against another query: the score is of the pair, not of the CV.
    expect(await encoder.score('chef kitchen', ['Kubernetes engineer; kubernetes and Docker'])).toEqual([0]);
  });

  it('cuts a long CV to the token budget, keeping the pair well formed', async () => {
    const long = `${'chef '.repeat(200)}kubernetes`;
    // Past 64 tokens the closing 'kubernetes' is cut: nothing of the query is left in the CV.
    expect(await encoder.score('kubernetes', [long, 'kubernetes chef'])).toEqual([0, 1]);
  });

  it('names what a model folder lacks', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'cross-encoder-'));
    writeFileSync(path.join(dir, 'model.onnx'), '');
    await expect(OnnxCrossEncoder.load(dir, { maxTokens: 64 })).rejects.toThrow(
      new CrossEncoderError(`cross-encoder folder ${dir} lacks tokenizer.json, tokenizer_config.json`),
    );
  });

  it("reorders the first ranking's best by the cross-encoder, each place keeping its score, the rest below them", async () => {
    const texts: Record<string, string> = {
      a: 'java developer',
      b: 'kubernetes kubernetes',
      c: 'kubernetes',
      d: 'kubernetes kubernetes kubernetes',
    };
    const ranked = [
      { id: 'a', score: 0.9 },
      { id: 'b', score: 0.8 },
      { id: 'c', score: 0.7 },
      { id: 'd', score: 0.6 },
    ];
    const out = await rerankWithCrossEncoder(encoder, 'kubernetes', ranked, (id) => texts[id], 3);
    // d is the best match but outside the depth read again: it stays last.
    expect(out.map((r) => r.id)).toEqual(['b', 'c', 'a', 'd']);
    // Each place keeps its calibrated score: apart, falling, and above the rest.
    expect(out.map((r) => r.score)).toEqual([0.9, 0.8, 0.7, 0.6]);
  });
});
