import { createHash } from 'node:crypto';
import { createReadStream, existsSync, promises as fs } from 'node:fs';
import * as path from 'node:path';
import type { Tokenizer } from '@huggingface/tokenizers';
import type { InferenceSession, Tensor } from 'onnxruntime-node';
import { EncoderUnavailableError } from '@cs/ports';
import type { CvEmbedding, DenseEncoder, DenseModel, EmbedOptions, QueryEmbedding } from '@cs/ports';

/**
 * Where a folder's graph may be, first found wins: the full-precision export (`optimum-cli export
 * onnx` writes model.onnx, the Hub's ONNX folders onnx/model.onnx), then an int8 one (`optimum-cli
 * onnxruntime quantize` writes model_quantized.onnx). To run the int8 graph, leave model.onnx out.
 */
export const GRAPH_FILES = [
  'model.onnx',
  'onnx/model.onnx',
  'model_quantized.onnx',
  'onnx/model_quantized.onnx',
  'model_int8.onnx',
  'onnx/model_int8.onnx',
] as const;

export interface SentenceEncoderOptions {
  /** Longest input in tokens, prefix and special tokens included; longer texts keep their head. */
  maxTokens: number;
  /** Texts per inference call. */
  batchSize: number;
  /** Threads of one inference. */
  threads: number;
  /** Replace the prompts config_sentence_transformers.json names; '' means none. */
  queryPrefix?: string | undefined;
  passagePrefix?: string | undefined;
}

/** A model folder this encoder cannot read; the message names the file and what is wrong with it. */
export class OnnxEncoderError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'OnnxEncoderError';
  }
}

/** How token vectors become one: sentence-transformers' Pooling modes this encoder reads. */
export type Pooling = 'cls' | 'mean' | 'max' | 'lasttoken';

const POOLING_MODES: Record<string, Pooling | undefined> = {
  pooling_mode_cls_token: 'cls',
  pooling_mode_mean_tokens: 'mean',
  // Mean over the square root of the length points the same way as the mean: equal once normalized.
  pooling_mode_mean_sqrt_len_tokens: 'mean',
  pooling_mode_max_tokens: 'max',
  pooling_mode_lasttoken: 'lasttoken',
  pooling_mode_weightedmean_tokens: undefined,
};

/** Bounds the text handed to the tokenizer: English averages ~4 characters a token, so the token cut decides. */
const CHARS_PER_TOKEN = 6;
/** Hugging Face writes a huge model_max_length (1e30) when a tokenizer has no limit of its own. */
const NO_MODEL_LIMIT = 1_000_000;

/** A text's token ids; every one is attended to (the padding comes at run time). */
interface Encoded {
  ids: number[];
}

/** The session, its tokenizer and how its output becomes one vector a text. */
class SentenceGraph {
  /** One inference at a time per session, so memory stays that of one batch. */
  private tail: Promise<unknown> = Promise.resolve();
  private closed = false;

  constructor(
    private readonly ort: typeof import('onnxruntime-node'),
    private readonly session: InferenceSession,
    private readonly tokenizer: Tokenizer,
    private readonly output: string,
    private readonly pooling: Pooling | 'graph',
    private readonly maxTokens: number,
    private readonly padId: number,
    private readonly specialIds: ReadonlySet<number>,
  ) {}

  /** The text's token ids cut to the budget, its closing special token ([SEP], </s>) kept. */
  encode(text: string): Encoded {
    const { ids } = this.tokenizer.encode(text);
    if (ids.length <= this.maxTokens) return { ids };
    const last = ids[ids.length - 1];
    return { ids: this.specialIds.has(last) ? [...ids.slice(0, this.maxTokens - 1), last] : ids.slice(0, this.maxTokens) };
  }

  /** One unit vector a text, null where the pooled vector is zero (nothing to point with). */
  run(batch: readonly Encoded[], signal: AbortSignal | undefined): Promise<(Float32Array | null)[]> {
    const result = this.tail.then(async () => {
      signal?.throwIfAborted();
      if (this.closed) throw new EncoderUnavailableError('the ONNX sentence encoder is closed');
      let outputs: InferenceSession.ReturnType;
      try {
        outputs = await this.session.run(this.feeds(batch), [this.output]);
      } catch (error) {
        // The runtime failed, not the text: the caller retries later rather than marking a CV invalid.
        throw new EncoderUnavailableError(`the ONNX sentence encoder failed: ${(error as Error).message}`, { cause: error });
      }
      return this.pool(outputs[this.output], batch);
    });
    this.tail = result.catch(() => undefined);
    return result;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.tail;
    await this.session.release();
  }

  private feeds(batch: readonly Encoded[]): Record<string, Tensor> {
    // Padded to the batch's longest; padded places have mask 0 and do not count.
    const width = Math.max(...batch.map((e) => e.ids.length));
    const tensor = (pick: (e: Encoded) => number[], pad: number) => {
      const data = new BigInt64Array(batch.length * width).fill(BigInt(pad));
      batch.forEach((e, row) => pick(e).forEach((v, col) => (data[row * width + col] = BigInt(v))));
      return new this.ort.Tensor('int64', data, [batch.length, width]);
    };
    const feeds: Record<string, Tensor> = {
      input_ids: tensor((e) => e.ids, this.padId),
      attention_mask: tensor((e) => e.ids.map(() => 1), 0),
    };
    // Single texts, never pairs: every token is of the first segment.
    if (this.session.inputNames.includes('token_type_ids')) feeds.token_type_ids = tensor(() => [], 0);
    return feeds;
  }

  private pool(output: Tensor, batch: readonly Encoded[]): (Float32Array | null)[] {
    const values = output.data as Float32Array;
    if (this.pooling === 'graph') {
      const [rows, dim] = output.dims;
      return Array.from({ length: rows }, (_, row) => unit(values.slice(row * dim, (row + 1) * dim)));
    }
    const pooling = this.pooling;
    const [, width, dim] = output.dims;
    return batch.map((e, row) => {
      const token = (position: number) => values.subarray((row * width + position) * dim, (row * width + position + 1) * dim);
      const length = e.ids.length; // the real tokens come first, the padding after
      const pooled = new Float32Array(dim);
      switch (pooling) {
        case 'cls':
          pooled.set(token(0));
          break;
        case 'lasttoken':
          pooled.set(token(length - 1));
          break;
        case 'mean':
          for (let p = 0; p < length; p++) {
            const t = token(p);
            for (let k = 0; k < dim; k++) pooled[k] += t[k] / length;
          }
          break;
        case 'max':
          pooled.set(token(0));
          for (let p = 1; p < length; p++) {
            const t = token(p);
            for (let k = 0; k < dim; k++) pooled[k] = Math.max(pooled[k], t[k]);
          }
          break;
      }
      return unit(pooled);
    });
  }
}

function unit(vector: Float32Array): Float32Array | null {
  let sum = 0;
  for (let k = 0; k < vector.length; k++) sum += vector[k] * vector[k];
  if (sum === 0 || !Number.isFinite(sum)) return null;
  const scale = 1 / Math.sqrt(sum);
  for (let k = 0; k < vector.length; k++) vector[k] *= scale;
  return vector;
}

async function readJson(file: string): Promise<Record<string, unknown>> {
  const text = await fs.readFile(file, 'utf8');
  try {
    const value = JSON.parse(text) as unknown;
    if (value && typeof value === 'object') return value as Record<string, unknown>;
  } catch {
    // reported below, with the file's name
  }
  throw new OnnxEncoderError(`${file} is not a JSON object`);
}

async function readOptionalJson(file: string): Promise<Record<string, unknown> | undefined> {
  return existsSync(file) ? readJson(file) : undefined;
}

/** sentence-transformers' modules.json names the Pooling folder (1_Pooling as a rule) and any Dense layer. */
function modulesOf(modules: unknown): { poolingDir: string; dense: string | undefined } {
  const list = Array.isArray(modules) ? (modules as { type?: unknown; path?: unknown }[]) : [];
  const pathOf = (kind: string) => {
    const found = list.find((m) => typeof m.type === 'string' && m.type.endsWith(`.${kind}`));
    return typeof found?.path === 'string' ? found.path : undefined;
  };
  return { poolingDir: pathOf('Pooling') ?? '1_Pooling', dense: pathOf('Dense') };
}

function poolingOf(file: string, config: Record<string, unknown>): Pooling {
  const set = Object.keys(config).filter((key) => key.startsWith('pooling_mode_') && config[key] === true);
  if (set.length === 0) throw new OnnxEncoderError(`${file} sets no pooling mode`);
  if (set.length > 1) throw new OnnxEncoderError(`${file} sets pooling modes ${set.join(', ')}; this encoder reads one`);
  const pooling = POOLING_MODES[set[0]];
  if (!pooling) {
    const known = Object.keys(POOLING_MODES).filter((key) => POOLING_MODES[key]);
    throw new OnnxEncoderError(`${file} sets ${set[0]}; this encoder reads ${known.join(', ')}`);
  }
  return pooling;
}

function tokenContent(token: unknown): string | undefined {
  if (typeof token === 'string') return token;
  const content = (token as { content?: unknown } | null)?.content;
  return typeof content === 'string' ? content : undefined;
}

function prompt(prompts: unknown, ...names: string[]): string | undefined {
  const table = (prompts ?? {}) as Record<string, unknown>;
  return names.map((name) => table[name]).find((value) => typeof value === 'string');
}

/** What the vectors depend on: the graph's bytes (streamed), the tokenizer, the pooling and the passages' input. */
async function digestOf(graphFile: string, tokenizerFile: string, recipe: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(graphFile)) hash.update(chunk as Buffer);
  hash.update(await fs.readFile(tokenizerFile));
  hash.update(recipe);
  return hash.digest('hex').slice(0, 12);
}

/**
 * A sentence-transformer (all-MiniLM-L6-v2, bge-small-en-v1.5, e5-small-v2…) from a local ONNX
 * export, run by onnxruntime-node on the CPU with the model's own tokenizer. Loaded only when an
 * operator names a model folder (DENSE_MODEL=onnx:<folder>): no model hub is reached, ever.
 */
export class OnnxSentenceEncoder implements DenseEncoder {
  private constructor(
    private readonly graph: SentenceGraph,
    private readonly prefixes: { query: string; passage: string },
    private readonly batchSize: number,
    private readonly budgetChars: number,
    readonly model: DenseModel,
  ) {}

  /**
   * Reads a sentence-transformers folder as `optimum` exports it: a graph (GRAPH_FILES), tokenizer.json,
   * tokenizer_config.json, the pooling of 1_Pooling/config.json (mean when the folder has none, as
   * sentence-transformers assumes) unless the graph outputs sentence_embedding itself, and the prompts of
   * config_sentence_transformers.json (`query`, `passage` or `document`) unless the options name others.
   * Throws an OnnxEncoderError naming the file at fault.
   */
  static async load(modelDir: string, options: SentenceEncoderOptions): Promise<OnnxSentenceEncoder> {
    const graphFile = GRAPH_FILES.map((f) => path.join(modelDir, f)).find((f) => existsSync(f));
    const missing = [
      ...(graphFile ? [] : ['model.onnx']),
      ...['tokenizer.json', 'tokenizer_config.json'].filter((f) => !existsSync(path.join(modelDir, f))),
    ];
    if (missing.length) {
      const elsewhere = graphFile ? '' : ` (nor ${GRAPH_FILES.slice(1).join(', ')})`;
      throw new OnnxEncoderError(`DENSE_MODEL folder ${modelDir} lacks ${missing.join(', ')}${elsewhere}`);
    }
    const tokenizerFile = path.join(modelDir, 'tokenizer.json');
    const [tokenizerJson, tokenizerConfig, modulesJson, sentenceConfig] = await Promise.all([
      readJson(tokenizerFile),
      readJson(path.join(modelDir, 'tokenizer_config.json')),
      readOptionalJson(path.join(modelDir, 'modules.json')),
      readOptionalJson(path.join(modelDir, 'config_sentence_transformers.json')),
    ]);

    // Required here, not at the top: the runtime and tokenizers load only for those who use them.
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded lazily, only when a model is configured
    const ort = require('onnxruntime-node') as typeof import('onnxruntime-node');
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded lazily, only when a model is configured
    const { Tokenizer: TokenizerClass } = require('@huggingface/tokenizers') as typeof import('@huggingface/tokenizers');
    let tokenizer: Tokenizer;
    try {
      tokenizer = new TokenizerClass(tokenizerJson, tokenizerConfig);
    } catch (error) {
      throw new OnnxEncoderError(`${tokenizerFile} is not a tokenizer this encoder reads: ${(error as Error).message}`, { cause: error });
    }

    let session: InferenceSession;
    try {
      session = await ort.InferenceSession.create(graphFile!, { intraOpNumThreads: options.threads, interOpNumThreads: 1 });
    } catch (error) {
      throw new OnnxEncoderError(`${graphFile} is not a model onnxruntime loads: ${(error as Error).message}`, { cause: error });
    }
    try {
      return await OnnxSentenceEncoder.open(modelDir, graphFile!, options, {
        ort,
        session,
        tokenizer,
        tokenizerConfig,
        modulesJson,
        sentenceConfig,
      });
    } catch (error) {
      await session.release();
      throw error;
    }
  }

  private static async open(
    modelDir: string,
    graphFile: string,
    options: SentenceEncoderOptions,
    loaded: {
      ort: typeof import('onnxruntime-node');
      session: InferenceSession;
      tokenizer: Tokenizer;
      tokenizerConfig: Record<string, unknown>;
      modulesJson: Record<string, unknown> | undefined;
      sentenceConfig: Record<string, unknown> | undefined;
    },
  ): Promise<OnnxSentenceEncoder> {
    const { session, tokenizer, tokenizerConfig } = loaded;
    const inputs = session.inputNames;
    const fed = ['input_ids', 'attention_mask', 'token_type_ids'];
    if (!inputs.includes('input_ids') || !inputs.includes('attention_mask') || inputs.some((i) => !fed.includes(i))) {
      throw new OnnxEncoderError(
        `${graphFile} has inputs ${inputs.join(', ')}; a sentence encoder needs input_ids and attention_mask (and token_type_ids at most)`,
      );
    }
    // A graph that pools itself (optimum's sentence-transformers export) wins over token vectors pooled here.
    const output = ['sentence_embedding', 'last_hidden_state', 'token_embeddings'].find((name) => session.outputNames.includes(name));
    if (!output) {
      throw new OnnxEncoderError(`${graphFile} outputs ${session.outputNames.join(', ')}; needs last_hidden_state or sentence_embedding`);
    }
    const metadata = session.outputMetadata.find((m) => m.name === output);
    if (metadata?.isTensor && metadata.type !== 'float32') {
      throw new OnnxEncoderError(`${graphFile} outputs ${output} as ${metadata.type}; needs float32`);
    }

    const modules = modulesOf(loaded.modulesJson);
    let pooling: Pooling | 'graph' = 'graph';
    if (output !== 'sentence_embedding') {
      // The Dense layer is not in the transformer's graph: pooling its tokens here would give other vectors.
      if (modules.dense) {
        throw new OnnxEncoderError(
          `${path.join(modelDir, 'modules.json')} has a Dense layer (${modules.dense}) that ${graphFile} lacks; export the model with its sentence_embedding`,
        );
      }
      const poolingFile = path.join(modelDir, modules.poolingDir, 'config.json');
      const poolingConfig = await readOptionalJson(poolingFile);
      pooling = poolingConfig ? poolingOf(poolingFile, poolingConfig) : 'mean';
    }

    const modelLimit = tokenizerConfig.model_max_length;
    const maxTokens =
      typeof modelLimit === 'number' && modelLimit < NO_MODEL_LIMIT ? Math.min(options.maxTokens, modelLimit) : options.maxTokens;
    const padToken = tokenContent(tokenizerConfig.pad_token);
    const padId = (padToken === undefined ? undefined : tokenizer.token_to_id(padToken)) ?? 0;
    const specialIds = new Set([...tokenizer.get_added_tokens_decoder()].filter(([, token]) => token.special).map(([id]) => id));
    const graph = new SentenceGraph(loaded.ort, session, tokenizer, output, pooling, maxTokens, padId, specialIds);

    const prompts = loaded.sentenceConfig?.prompts;
    const prefixes = {
      query: options.queryPrefix ?? prompt(prompts, 'query') ?? '',
      passage: options.passagePrefix ?? prompt(prompts, 'passage', 'document') ?? '',
    };
    const shape = metadata?.isTensor ? metadata.shape : [];
    let dimensions = shape.length > 0 ? shape[shape.length - 1] : undefined;
    if (typeof dimensions !== 'number' || dimensions <= 0) {
      // A symbolic width: one short text says it.
      const [probe] = await graph.run([graph.encode('dimension probe')], undefined);
      dimensions = probe?.length ?? 0;
      if (!dimensions) throw new OnnxEncoderError(`${graphFile} gives a zero vector for a short text; it cannot be a sentence encoder`);
    }
    const recipe = JSON.stringify({ pooling, passagePrefix: prefixes.passage, maxTokens });
    const digest = await digestOf(graphFile, path.join(modelDir, 'tokenizer.json'), recipe);
    const name = path.basename(path.resolve(modelDir)).replace(/\s+/g, '_');
    return new OnnxSentenceEncoder(graph, prefixes, options.batchSize, maxTokens * CHARS_PER_TOKEN, {
      id: `onnx:${name}@${digest}`,
      dimensions,
    });
  }

  /** `wordContexts` is for word-vector models: a subword tokenizer reads every word. */
  async embedQuery(text: string, options: EmbedOptions & { wordContexts?: ReadonlyMap<string, string> } = {}): Promise<QueryEmbedding> {
    const [vector] = await this.embedTexts([text], this.prefixes.query, options.signal);
    return { vector, unknownWords: [] };
  }

  embedPassages(texts: readonly string[], options: EmbedOptions = {}): Promise<(Float32Array | null)[]> {
    return this.embedTexts(texts, this.prefixes.passage, options.signal);
  }

  async embedCv(text: string, passages: readonly string[], options: EmbedOptions = {}): Promise<CvEmbedding> {
    const [whole, ...vectors] = await this.embedTexts([text, ...passages], this.prefixes.passage, options.signal);
    return { whole, passages: vectors };
  }

  async close(): Promise<void> {
    await this.graph.close();
  }

  private async embedTexts(texts: readonly string[], prefix: string, signal: AbortSignal | undefined): Promise<(Float32Array | null)[]> {
    signal?.throwIfAborted();
    const vectors: (Float32Array | null)[] = texts.map(() => null);
    const encoded = texts
      .map((text, index) => ({ index, text: text.trim() }))
      .filter(({ text }) => text.length > 0)
      .map(({ index, text }) => ({ index, ...this.graph.encode(prefix + text.slice(0, this.budgetChars)) }));
    // Texts of like length batched together: each batch pads to its longest, so a CV's whole pads none of its passages.
    encoded.sort((a, b) => b.ids.length - a.ids.length);
    for (let from = 0; from < encoded.length; from += this.batchSize) {
      signal?.throwIfAborted();
      const batch = encoded.slice(from, from + this.batchSize);
      const pooled = await this.graph.run(batch, signal);
      batch.forEach((e, i) => (vectors[e.index] = pooled[i]));
    }
    return vectors;
  }
}
