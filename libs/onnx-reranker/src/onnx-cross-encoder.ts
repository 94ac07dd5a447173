import { existsSync, promises as fs } from 'node:fs';
import * as path from 'node:path';
import type { Tokenizer } from '@huggingface/tokenizers';
import type { InferenceSession, Tensor } from 'onnxruntime-node';

/** The files a model folder must hold: the Hugging Face export layout (`optimum` writes it). */
export const MODEL_FILES = ['model.onnx', 'tokenizer.json', 'tokenizer_config.json'] as const;

export interface CrossEncoderOptions {
  /** Longest query-plus-CV input, in tokens; the CV is cut to fit (its head: role, summary, skills). */
  maxTokens: number;
  /** Pairs per inference call. */
  batchSize?: number;
  /** Threads of one inference; 1 leaves the other core to the rest of the service. */
  threads?: number;
}

export class CrossEncoderError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CrossEncoderError';
  }
}

/** A bounded guess of how many characters fill the token budget: English averages ~4 a token. */
const CHARS_PER_TOKEN = 6;

/**
 * A cross-encoder (query and CV read together by one transformer) from a local ONNX export, run
 * by onnxruntime-node on the CPU, with the model's own tokenizer (Hugging Face tokenizer.json).
 * Loaded only when an operator names a model folder: no model hub is reached, ever.
 */
export class OnnxCrossEncoder {
  private constructor(
    private readonly session: InferenceSession,
    private readonly tokenizer: Tokenizer,
    private readonly ort: typeof import('onnxruntime-node'),
    private readonly options: Required<CrossEncoderOptions>,
    readonly name: string,
  ) {}

  static async load(modelDir: string, options: CrossEncoderOptions): Promise<OnnxCrossEncoder> {
    const missing = MODEL_FILES.filter((f) => !existsSync(path.join(modelDir, f)));
    if (missing.length) throw new CrossEncoderError(`cross-encoder folder ${modelDir} lacks ${missing.join(', ')}`);
    const [tokenizerJson, tokenizerConfig] = await Promise.all(
      ['tokenizer.json', 'tokenizer_config.json'].map(async (f) => JSON.parse(await fs.readFile(path.join(modelDir, f), 'utf8')) as object),
    );
    // Required here, not at the top: the runtime and tokenizers load only for those who use them.
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded lazily, only when a model is configured
    const ort = require('onnxruntime-node') as typeof import('onnxruntime-node');
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded lazily, only when a model is configured
    const { Tokenizer: TokenizerClass } = require('@huggingface/tokenizers') as typeof import('@huggingface/tokenizers');
    const threads = options.threads ?? 1;
    const session = await ort.InferenceSession.create(path.join(modelDir, 'model.onnx'), {
      intraOpNumThreads: threads,
      interOpNumThreads: 1,
    });
    for (const input of ['input_ids', 'attention_mask']) {
      if (!session.inputNames.includes(input)) {
        throw new CrossEncoderError(
          `${modelDir}/model.onnx has inputs ${session.inputNames.join(', ')}; a cross-encoder needs input_ids and attention_mask`,
        );
      }
    }
    return new OnnxCrossEncoder(
      session,
      new TokenizerClass(tokenizerJson, tokenizerConfig),
      ort,
      { batchSize: 16, threads, ...options },
      path.basename(path.resolve(modelDir)),
    );
  }

  /** One relevance logit per text, for the query; higher is more relevant. */
  async score(query: string, texts: readonly string[]): Promise<number[]> {
    const scores: number[] = [];
    for (let from = 0; from < texts.length; from += this.options.batchSize) {
      scores.push(...(await this.scoreBatch(query, texts.slice(from, from + this.options.batchSize))));
    }
    return scores;
  }

  async close(): Promise<void> {
    await this.session.release();
  }

  private async scoreBatch(query: string, texts: readonly string[]): Promise<number[]> {
    const encoded = texts.map((text) => this.encodePair(query, text));
    const width = Math.max(...encoded.map((e) => e.ids.length));
    const feeds: Record<string, Tensor> = {};
    const tensor = (pick: (e: (typeof encoded)[number]) => number[]) => {
      const data = new BigInt64Array(encoded.length * width); // zero-padded: [PAD] is id 0, mask 0
      encoded.forEach((e, row) => pick(e).forEach((v, col) => (data[row * width + col] = BigInt(v))));
      return new this.ort.Tensor('int64', data, [encoded.length, width]);
    };
    feeds.input_ids = tensor((e) => e.ids);
    feeds.attention_mask = tensor((e) => e.attention_mask);
    if (this.session.inputNames.includes('token_type_ids')) feeds.token_type_ids = tensor((e) => e.token_type_ids ?? e.ids.map(() => 0));
    const output = (await this.session.run(feeds))[this.session.outputNames[0]];
    const [rows, columns] = output.dims.length > 1 ? [output.dims[0], output.dims[1]] : [output.dims[0], 1];
    const values = output.data as Float32Array;
    // One logit a pair, or two (not relevant, relevant): the last column is relevance.
    return Array.from({ length: rows }, (_, row) => values[row * columns + columns - 1]);
  }

  /** [CLS] query [SEP] CV [SEP], cut to the token budget while keeping the closing [SEP]. */
  private encodePair(query: string, text: string) {
    const budget = this.options.maxTokens;
    const encoding = this.tokenizer.encode(query, { text_pair: text.slice(0, budget * CHARS_PER_TOKEN), return_token_type_ids: true });
    if (encoding.ids.length <= budget) return encoding;
    const keep = (values: number[]) => [...values.slice(0, budget - 1), values[values.length - 1]];
    return { ids: keep(encoding.ids), attention_mask: keep(encoding.attention_mask), token_type_ids: keep(encoding.token_type_ids) };
  }
}

export interface Scored {
  id: string;
  score: number;
}

/**
 * A first ranking's best `depth` read again by the cross-encoder and put in its order; the rest
 * follow in the first order. Each place keeps the score the first ranking gave that place: the
 * cross-encoder's logits are not calibrated (a sigmoid of them put most of a good list at 0.999),
 * while the first ranking's scores are (see `relevance-score.ts` in libs/ranking), so scores stay
 * 0..1, apart, and falling with the final order.
 */
export async function rerankWithCrossEncoder(
  encoder: Pick<OnnxCrossEncoder, 'score'>,
  query: string,
  ranked: readonly Scored[],
  textOf: (id: string) => string,
  depth: number,
): Promise<Scored[]> {
  const head = ranked.slice(0, depth);
  const tail = ranked.slice(depth);
  const logits = await encoder.score(
    query,
    head.map((r) => textOf(r.id)),
  );
  const placeScores = head.map((r) => r.score).sort((a, b) => b - a);
  const reread = head
    .map((r, i) => ({ id: r.id, logit: logits[i] }))
    .sort((a, b) => b.logit - a.logit || a.id.localeCompare(b.id))
    .map((r, place) => ({ id: r.id, score: placeScores[place] }));
  return [...reread, ...tail];
}
