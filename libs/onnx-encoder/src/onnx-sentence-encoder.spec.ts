/**
 * @jest-environment ./scripts/jest-native-typed-arrays.environment.js
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { EncoderUnavailableError } from '@cs/ports';
import { describeDenseEncoderContract } from '@cs/ports/testing';
import { OnnxEncoderError, OnnxSentenceEncoder, type SentenceEncoderOptions } from './onnx-sentence-encoder';

// Stand-in models written by testing/make-tiny-bi-encoder.py: a token's vector is row `id` of a fixed
// table, so every sentence vector is computable here from the token ids alone.
const TINY = path.join(__dirname, 'testing', 'tiny-bi-encoder');
const TINY_POOLED = path.join(__dirname, 'testing', 'tiny-pooled-bi-encoder');
const NO_ATTENTION_MASK = path.join(__dirname, 'testing', 'bad-graphs', 'no-attention-mask.onnx');
const CROSS_ENCODER = path.join(__dirname, '../../onnx-reranker/src/testing/tiny-cross-encoder/model.onnx');
const OPTIONS: SentenceEncoderOptions = { maxTokens: 64, batchSize: 4, threads: 1 };

const VOCAB = (JSON.parse(readFileSync(path.join(TINY, 'tokenizer.json'), 'utf8')) as { model: { vocab: Record<string, number> } }).model
  .vocab;
const DIM = 8;
const row = (id: number) => Array.from({ length: DIM }, (_, k) => (((5 * id + 3 * k) % 13) - 6) / 8);

/** [CLS] words [SEP] as ids; the words as the tokenizer splits them. */
function idsOf(words: string): number[] {
  return ['[CLS]', ...words.split(' '), '[SEP]'].map((w) => {
    if (!(w in VOCAB)) throw new Error(`not in the tiny vocabulary: ${w}`);
    return VOCAB[w];
  });
}

function unit(vector: number[]): number[] {
  const length = Math.sqrt(vector.reduce((s, x) => s + x * x, 0));
  return vector.map((x) => x / length);
}

function predicted(words: string, pooling: 'mean' | 'cls' | 'max' | 'lasttoken' = 'mean'): number[] {
  const rows = idsOf(words).map(row);
  const pick = {
    mean: () => rows[0].map((_, k) => rows.reduce((s, r) => s + r[k], 0) / rows.length),
    cls: () => rows[0],
    lasttoken: () => rows[rows.length - 1],
    max: () => rows[0].map((_, k) => Math.max(...rows.map((r) => r[k]))),
  };
  return unit(pick[pooling]());
}

function close(expected: number[]): unknown[] {
  return expected.map((x) => expect.closeTo(x, 5));
}

const made: string[] = [];
/** A copy of a model folder in the temp dir under the same name, with files replaced (null: removed). */
function variant(files: Record<string, string | Buffer | null>, from = TINY): string {
  const dir = path.join(mkdtempSync(path.join(os.tmpdir(), 'onnx-encoder-')), path.basename(from));
  made.push(path.dirname(dir));
  cpSync(from, dir, { recursive: true });
  for (const [file, content] of Object.entries(files)) {
    const target = path.join(dir, file);
    if (content === null) rmSync(target, { recursive: true, force: true });
    else {
      mkdirSync(path.dirname(target), { recursive: true });
      writeFileSync(target, content);
    }
  }
  return dir;
}
const poolingConfig = (modes: Record<string, boolean>) =>
  JSON.stringify({ word_embedding_dimension: DIM, pooling_mode_cls_token: false, pooling_mode_mean_tokens: false, ...modes });

afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

describeDenseEncoderContract('onnx tiny bi-encoder', async () => ({ encoder: await OnnxSentenceEncoder.load(TINY, OPTIONS) }));
describeDenseEncoderContract('onnx tiny bi-encoder that pools in its graph', async () => ({
  encoder: await OnnxSentenceEncoder.load(TINY_POOLED, OPTIONS),
}));

describe('OnnxSentenceEncoder', () => {
  const opened: OnnxSentenceEncoder[] = [];
  const load = async (dir: string, options: Partial<SentenceEncoderOptions> = {}) => {
    const encoder = await OnnxSentenceEncoder.load(dir, { ...OPTIONS, ...options });
    opened.push(encoder);
    return encoder;
  };
  afterAll(async () => {
    await Promise.all(opened.map((e) => e.close()));
  });

  it('mean-pools the token vectors of the non-padding tokens, with the passage prompt, to unit length', async () => {
    const encoder = await load(TINY);
    expect(encoder.model.dimensions).toBe(DIM);
    const [short, long] = await encoder.embedPassages(['Python developer', 'Nurse, patient care.']);
    expect([...short!]).toEqual(close(predicted('passage : python developer')));
    expect([...long!]).toEqual(close(predicted('passage : nurse , patient care .')));
  });

  it('reads a query with the query prompt and a passage with the passage prompt, the options overriding both', async () => {
    const encoder = await load(TINY);
    const query = await encoder.embedQuery('python developer', { wordContexts: new Map([['python', 'a snake']]) });
    expect(query.unknownWords).toEqual([]);
    expect([...query.vector!]).toEqual(close(predicted('query : python developer')));
    const [passage] = await encoder.embedPassages(['python developer']);
    expect([...passage!]).toEqual(close(predicted('passage : python developer')));
    expect([...passage!]).not.toEqual(close(predicted('query : python developer')));

    const overridden = await load(TINY, { queryPrefix: '', passagePrefix: 'query: ' });
    expect([...(await overridden.embedQuery('python developer')).vector!]).toEqual(close(predicted('python developer')));
    expect([...(await overridden.embedPassages(['python developer']))[0]!]).toEqual(close(predicted('query : python developer')));
  });

  it('pools as 1_Pooling/config.json says: the first token, the largest of each dimension, the last token; the mean when absent', async () => {
    const text = 'chef kitchen manager';
    const read = async (dir: string) => [...(await (await load(dir)).embedPassages([text]))[0]!];
    const cls = variant({ '1_Pooling/config.json': poolingConfig({ pooling_mode_cls_token: true }) });
    expect(await read(cls)).toEqual(close(predicted(`passage : ${text}`, 'cls')));
    const max = variant({ '1_Pooling/config.json': poolingConfig({ pooling_mode_max_tokens: true }) });
    expect(await read(max)).toEqual(close(predicted(`passage : ${text}`, 'max')));
    const last = variant({ '1_Pooling/config.json': poolingConfig({ pooling_mode_lasttoken: true }) });
    expect(await read(last)).toEqual(close(predicted(`passage : ${text}`, 'lasttoken')));
    const none = variant({ '1_Pooling': null, 'modules.json': null });
    expect(await read(none)).toEqual(close(predicted(`passage : ${text}`, 'mean')));
    // The pooling is part of what the vectors are: the model id says it.
    const ids = await Promise.all([cls, max, last, none].map(async (dir) => (await load(dir)).model.id));
    expect(new Set(ids).size).toBe(4);
    // The mean it assumes is the mean 1_Pooling names: the same vectors, the same id.
    expect(ids[3]).toBe((await load(TINY)).model.id);
  });

  it('takes a graph that pools itself as it is, finding its width by encoding a text, feeding no token_type_ids it lacks', async () => {
    const encoder = await load(TINY_POOLED);
    expect(encoder.model.dimensions).toBe(DIM);
    const [vector] = await encoder.embedPassages(['python developer']);
    // This folder names no prompts.
    expect([...vector!]).toEqual(close(predicted('python developer')));
  });

  it('cuts a text longer than maxTokens to its head, keeping the closing [SEP]', async () => {
    const encoder = await load(TINY, { maxTokens: 6 });
    const [cut, whole] = await encoder.embedPassages(['python developer chef kitchen nurse', 'python developer']);
    // [CLS] passage : python developer [SEP]: six tokens.
    expect([...cut!]).toEqual(close(predicted('passage : python developer')));
    expect([...cut!]).toEqual([...whole!]);
  });

  it('gives the same vectors in batches padded to their longest as one text at a time, nulls for empty texts', async () => {
    const texts = ['java', '', 'cloud engineer with docker and aws', 'nurse', '   ', 'sales manager, accountant'];
    const batched = await (await load(TINY, { batchSize: 2 })).embedPassages(texts);
    const single = await load(TINY, { batchSize: 1 });
    const oneByOne = await Promise.all(texts.map(async (t) => (await single.embedPassages([t]))[0]));
    expect(batched.map((v) => v && [...v])).toEqual(oneByOne.map((v) => v && close([...v])));
    expect(batched[1]).toBeNull();
    expect(batched[4]).toBeNull();
    expect([...batched[3]!]).toEqual(close(predicted('passage : nurse')));
    expect((await single.embedQuery(' \n ')).vector).toBeNull();
  });

  it('embeds a CV whole and by passage as the same texts embedded as passages', async () => {
    const encoder = await load(TINY, { batchSize: 3 });
    const passages = ['python developer', 'kubernetes, docker', 'java engineer'];
    const cv = await encoder.embedCv(passages.join('. '), passages);
    expect([...cv.whole!]).toEqual(close(predicted('passage : python developer . kubernetes , docker . java engineer')));
    expect(cv.passages.map((v) => [...v!])).toEqual((await encoder.embedPassages(passages)).map((v) => close([...v!])));
  });

  it('names the model by its folder and a digest of what makes its passages vectors', async () => {
    const encoder = await load(TINY);
    expect(encoder.model.id).toMatch(/^onnx:tiny-bi-encoder@[0-9a-f]{12}$/);
    // The same files elsewhere, under the same name: the same vectors, the same id.
    expect((await load(variant({}))).model.id).toBe(encoder.model.id);
    expect((await load(TINY, { queryPrefix: 'find: ' })).model.id).toBe(encoder.model.id);
    expect((await load(TINY, { passagePrefix: '' })).model.id).not.toBe(encoder.model.id);
    expect((await load(TINY, { maxTokens: 32 })).model.id).not.toBe(encoder.model.id);
  });

  it('finds the graph as exports place it, the full-precision model.onnx before an int8 one', async () => {
    const graph = readFileSync(path.join(TINY, 'model.onnx'));
    const hub = await load(variant({ 'model.onnx': null, 'onnx/model.onnx': graph }));
    expect([...(await hub.embedPassages(['java']))[0]!]).toEqual(close(predicted('passage : java')));
    const int8 = await load(variant({ 'model.onnx': null, 'model_quantized.onnx': graph }));
    expect([...(await int8.embedPassages(['java']))[0]!]).toEqual(close(predicted('passage : java')));
    // Were the unreadable int8 file chosen, the load would fail.
    await expect(load(variant({ 'model_quantized.onnx': 'not a model' }))).resolves.toBeInstanceOf(OnnxSentenceEncoder);
  });

  it('stops between batches when the signal aborts, with its reason', async () => {
    const encoder = await load(TINY, { batchSize: 1 });
    const stopped = new AbortController();
    stopped.abort(new Error('already stopped'));
    await expect(encoder.embedPassages(['java'], { signal: stopped.signal })).rejects.toThrow('already stopped');
    const midway = new AbortController();
    // The first batch starts synchronously; the abort lands before the second.
    const embedding = encoder.embedCv('java developer', ['java', 'developer'], { signal: midway.signal });
    midway.abort(new Error('shutting down'));
    await expect(embedding).rejects.toThrow('shutting down');
    expect((await encoder.embedQuery('java')).vector).not.toBeNull();
  });

  it('runs concurrent calls one inference at a time, each getting its own vectors', async () => {
    const encoder = await load(TINY, { batchSize: 1 });
    // Counts the session's runs in flight, through the encoder's private session.
    const session = (encoder as unknown as { graph: { session: { run: (...args: unknown[]) => Promise<unknown> } } }).graph.session;
    const run = session.run.bind(session);
    let inFlight = 0;
    let most = 0;
    session.run = async (...args) => {
      most = Math.max(most, ++inFlight);
      try {
        return await run(...args);
      } finally {
        inFlight--;
      }
    };
    const texts = ['java', 'nurse', 'chef kitchen', 'aws cloud'];
    const results = await Promise.all(texts.map((t) => encoder.embedPassages([t, t])));
    expect(most).toBe(1);
    results.forEach((pair, i) => {
      expect(pair.map((v) => [...v!])).toEqual([close(predicted(`passage : ${texts[i]}`)), close(predicted(`passage : ${texts[i]}`))]);
    });
  });

  it('refuses to embed once closed, as the encoder being unavailable', async () => {
    const encoder = await OnnxSentenceEncoder.load(TINY, OPTIONS);
    await encoder.close();
    await expect(encoder.embedPassages(['java'])).rejects.toBeInstanceOf(EncoderUnavailableError);
    await encoder.close();
  });

  describe('names the file at fault in a folder it cannot read', () => {
    const fails = (dir: string, message: string) =>
      expect(OnnxSentenceEncoder.load(dir, OPTIONS)).rejects.toThrow(new OnnxEncoderError(message));

    it('a missing tokenizer or graph', async () => {
      const noTokenizer = variant({ 'tokenizer.json': null });
      await fails(noTokenizer, `DENSE_MODEL folder ${noTokenizer} lacks tokenizer.json`);
      const empty = mkdtempSync(path.join(os.tmpdir(), 'onnx-encoder-'));
      made.push(empty);
      await fails(
        empty,
        `DENSE_MODEL folder ${empty} lacks model.onnx, tokenizer.json, tokenizer_config.json ` +
          '(nor onnx/model.onnx, model_quantized.onnx, onnx/model_quantized.onnx, model_int8.onnx, onnx/model_int8.onnx)',
      );
    });

    it('a pooling config with no mode, several, or one it does not read', async () => {
      const none = variant({ '1_Pooling/config.json': poolingConfig({}) });
      await fails(none, `${none}/1_Pooling/config.json sets no pooling mode`);
      const two = variant({ '1_Pooling/config.json': poolingConfig({ pooling_mode_cls_token: true, pooling_mode_max_tokens: true }) });
      await fails(
        two,
        `${two}/1_Pooling/config.json sets pooling modes pooling_mode_cls_token, pooling_mode_max_tokens; this encoder reads one`,
      );
      const weighted = variant({ '1_Pooling/config.json': poolingConfig({ pooling_mode_weightedmean_tokens: true }) });
      await fails(
        weighted,
        `${weighted}/1_Pooling/config.json sets pooling_mode_weightedmean_tokens; this encoder reads ` +
          'pooling_mode_cls_token, pooling_mode_mean_tokens, pooling_mode_mean_sqrt_len_tokens, pooling_mode_max_tokens, pooling_mode_lasttoken',
      );
    });

    it('a graph of the wrong inputs or outputs, or no graph at all', async () => {
      const noMask = variant({ 'model.onnx': readFileSync(NO_ATTENTION_MASK) });
      await fails(
        noMask,
        `${noMask}/model.onnx has inputs input_ids; a sentence encoder needs input_ids and attention_mask (and token_type_ids at most)`,
      );
      const crossEncoder = variant({ 'model.onnx': readFileSync(CROSS_ENCODER) });
      await fails(crossEncoder, `${crossEncoder}/model.onnx outputs logits; needs last_hidden_state or sentence_embedding`);
      const garbage = variant({ 'model.onnx': 'not a model' });
      await expect(OnnxSentenceEncoder.load(garbage, OPTIONS)).rejects.toThrow(`${garbage}/model.onnx is not a model onnxruntime loads: `);
    });

    it('a tokenizer that is not JSON, and a Dense layer the graph lacks', async () => {
      const broken = variant({ 'tokenizer.json': '{"version": ' });
      await fails(broken, `${broken}/tokenizer.json is not a JSON object`);
      const modules = JSON.parse(readFileSync(path.join(TINY, 'modules.json'), 'utf8')) as object[];
      const dense = variant({
        'modules.json': JSON.stringify([...modules, { idx: 3, name: '3', path: '2_Dense', type: 'sentence_transformers.models.Dense' }]),
      });
      await fails(
        dense,
        `${dense}/modules.json has a Dense layer (2_Dense) that ${dense}/model.onnx lacks; export the model with its sentence_embedding`,
      );
    });
  });
});
