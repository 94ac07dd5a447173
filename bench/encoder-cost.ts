/**
 * What each dense encoder costs on this machine, in-process and on one thread: a query's vector
 * (p50/p95 over the dev queries, after a warm-up pass) and a CV's (embedCv over real CV texts with
 * their passages cut as ingestion cuts them). No service runs meanwhile, so nothing else competes
 * for the cores.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import type { Tokenizer } from '@huggingface/tokenizers';
import { splitSections } from '@cs/cv-understanding';
import { BuiltinEncoder, SentenceEmbedder, WordNet, chunkText, loadWordVectors } from '@cs/embeddings';
import { OnnxSentenceEncoder } from '@cs/onnx-encoder';
import type { DenseEncoder } from '@cs/ports';
import { EMBEDDINGS_CACHE } from '../e2e/support/local-ports';
import { percentile } from './harness';

const ROOT = path.resolve(__dirname, '..');
const TINY_MODEL = path.join(ROOT, 'libs/onnx-encoder/src/testing/tiny-bi-encoder');
const MINILM_SHAPED = path.join(ROOT, 'tmp/minilm-shaped');
/** The service's defaults (DENSE_ONNX_MAX_TOKENS, DENSE_BATCH_SIZE, DENSE_ONNX_THREADS). */
const ONNX_OPTIONS = { maxTokens: 256, batchSize: 32, threads: 1 };
/** Timed passes over the queries, after one untimed. */
const QUERY_ROUNDS = 3;
const WARM_UP_CVS = 3;

export interface EncoderCost {
  encoder: string;
  modelId: string;
  dimensions: number;
  loadSeconds: number;
  queries: number;
  queryP50Ms: number;
  queryP95Ms: number;
  cvs: number;
  /** Wall time per CV: inflated when other processes share the cores (see loadAverage). */
  msPerCv: number;
  /** Process CPU per CV: on an idle machine about msPerCv (one thread: the ONNX session runs on the caller's). */
  cpuMsPerCv: number;
  /** CVs a second one dedicated core gives, from cpuMsPerCv: so the figure holds on a busy machine too. */
  cvsPerSecond: number;
  passagesPerCv: number;
  /** Tokens the model reads per CV (whole and passages, after the maxTokens cut); subword models only. */
  tokensPerCv: number;
  note?: string;
}

interface Cv {
  text: string;
  passages: string[];
}

/** A CV's passages as ingestion cuts them: 120 words, 30 overlapping, never across a section. */
function passagesOf(text: string): string[] {
  const boundaries = splitSections(text).map((section) => section.start - section.heading.length);
  return chunkText(text, 120, 30, boundaries).map((chunk) => chunk.text);
}

function jsonl<T>(file: string): T[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as T);
}

/** The interpreter that has the `onnx` package: Debian's python3-onnx sits under /usr/bin, ahead of a pyenv one on PATH. */
function pythonWithOnnx(): string | undefined {
  return ['/usr/bin/python3', 'python3'].find((python) => spawnSync(python, ['-c', 'import onnx, numpy']).status === 0);
}

/** Writes tmp/minilm-shaped (bench/make-minilm-shaped-encoder.py); the reason it could not, or undefined. */
function makeMiniLmShaped(evalDir: string): string | undefined {
  const python = pythonWithOnnx();
  if (!python) return 'no python3 with the onnx package (Debian: python3-onnx)';
  const made = spawnSync(
    python,
    [path.join(__dirname, 'make-minilm-shaped-encoder.py'), MINILM_SHAPED, path.join(evalDir, 'livecareer/resumes.jsonl')],
    { encoding: 'utf8' },
  );
  return made.status === 0 ? undefined : `make-minilm-shaped-encoder.py failed: ${made.stderr.trim().split('\n').pop()}`;
}

/** Tokens per CV as the ONNX encoder feeds them: passage prompt, the character budget, the maxTokens cut. */
function tokenCounter(modelDir: string): (cv: Cv) => number {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- an ES module, loaded as the encoder loads it
  const { Tokenizer: TokenizerClass } = require('@huggingface/tokenizers') as typeof import('@huggingface/tokenizers');
  const read = (file: string) => JSON.parse(readFileSync(path.join(modelDir, file), 'utf8')) as Record<string, unknown>;
  const tokenizer: Tokenizer = new TokenizerClass(read('tokenizer.json'), read('tokenizer_config.json'));
  const prompts = existsSync(path.join(modelDir, 'config_sentence_transformers.json'))
    ? ((read('config_sentence_transformers.json').prompts ?? {}) as Record<string, string | undefined>)
    : {};
  const prefix = prompts.passage ?? prompts.document ?? '';
  const count = (text: string) =>
    Math.min(ONNX_OPTIONS.maxTokens, tokenizer.encode(prefix + text.trim().slice(0, ONNX_OPTIONS.maxTokens * 6)).ids.length);
  return (cv) => [cv.text, ...cv.passages].reduce((sum, text) => sum + count(text), 0);
}

async function measureEncoder(
  name: string,
  load: () => Promise<DenseEncoder>,
  queries: readonly string[],
  cvs: readonly Cv[],
  tokens: ((cv: Cv) => number) | undefined,
  note?: string,
): Promise<EncoderCost> {
  process.stderr.write(`  encoder cost: ${name}, ${queries.length} queries, ${cvs.length} CVs\n`);
  const loading = performance.now();
  const encoder = await load();
  const loadSeconds = (performance.now() - loading) / 1000;
  try {
    const queryMs: number[] = [];
    for (let round = 0; round <= QUERY_ROUNDS; round++) {
      for (const query of queries) {
        const started = performance.now();
        await encoder.embedQuery(query);
        if (round > 0) queryMs.push(performance.now() - started);
      }
    }
    for (const cv of cvs.slice(0, WARM_UP_CVS)) await encoder.embedCv(cv.text, cv.passages);
    const cpuBefore = process.cpuUsage();
    const started = performance.now();
    for (const cv of cvs) await encoder.embedCv(cv.text, cv.passages);
    const msPerCv = (performance.now() - started) / cvs.length;
    const cpu = process.cpuUsage(cpuBefore);
    const cpuMsPerCv = (cpu.user + cpu.system) / 1000 / cvs.length;
    return {
      encoder: name,
      modelId: encoder.model.id,
      dimensions: encoder.model.dimensions,
      loadSeconds,
      queries: queryMs.length,
      queryP50Ms: percentile(queryMs, 50),
      queryP95Ms: percentile(queryMs, 95),
      cvs: cvs.length,
      msPerCv,
      cpuMsPerCv,
      cvsPerSecond: 1000 / cpuMsPerCv,
      passagesPerCv: cvs.reduce((sum, cv) => sum + cv.passages.length, 0) / cvs.length,
      tokensPerCv: tokens ? cvs.reduce((sum, cv) => sum + tokens(cv), 0) / cvs.length : NaN,
      ...(note ? { note } : {}),
    };
  } finally {
    await encoder.close();
  }
}

function notTimed(encoder: string, note: string): EncoderCost {
  return {
    encoder,
    modelId: 'n/a',
    dimensions: NaN,
    loadSeconds: NaN,
    queries: 0,
    queryP50Ms: NaN,
    queryP95Ms: NaN,
    cvs: 0,
    msPerCv: NaN,
    cvsPerSecond: NaN,
    cpuMsPerCv: NaN,
    passagesPerCv: NaN,
    tokensPerCv: NaN,
    note,
  };
}

/**
 * Each encoder's cost: builtin, the tiny test ONNX model (the code path of an operator's model:
 * tokenizer, session, pooling, batching, at a negligible graph), and a graph of all-MiniLM-L6-v2's
 * shape with random weights. The weights' values do not change what a forward pass costs, so the
 * last row is what a real MiniLM-sized model costs here. `cvs` CVs for the first two, `miniLmCvs`
 * for the MiniLM-shaped one (a transformer is ~100× slower).
 */
export async function encoderCost(evalDir: string, cvs = 300, miniLmCvs = 40): Promise<EncoderCost[]> {
  const queries = ['queries.dev.jsonl', 'queries.semantic.dev.jsonl'].flatMap((file) =>
    jsonl<{ text: string }>(path.join(evalDir, 'livecareer', file)).map((q) => q.text),
  );
  const texts = jsonl<{ text: string }>(path.join(evalDir, 'livecareer/resumes.jsonl'))
    .slice(0, cvs)
    .map(({ text }) => ({ text, passages: passagesOf(text) }));
  const onnx = (dir: string) => () => OnnxSentenceEncoder.load(dir, ONNX_OPTIONS);

  const costs: EncoderCost[] = [];
  // As the service builds it: with WordNet, and typo repair's index made before the first query.
  const builtin = async () => {
    const embedder = new SentenceEmbedder(await loadWordVectors(EMBEDDINGS_CACHE), await WordNet.load());
    await embedder.warmUp();
    return new BuiltinEncoder(embedder);
  };
  costs.push(await measureEncoder('builtin', builtin, queries, texts, undefined));
  costs.push(await measureEncoder('onnx, tiny test model', onnx(TINY_MODEL), queries, texts, tokenCounter(TINY_MODEL)));

  const unmade = makeMiniLmShaped(evalDir);
  if (unmade) {
    process.stderr.write(`  encoder cost: MiniLM-shaped row skipped: ${unmade}\n`);
    costs.push(notTimed('onnx, MiniLM-shaped', `skipped: ${unmade}`));
  } else {
    const few = texts.slice(0, miniLmCvs);
    costs.push(
      await measureEncoder(
        'onnx, MiniLM-shaped',
        onnx(MINILM_SHAPED),
        queries,
        few,
        tokenCounter(MINILM_SHAPED),
        `random weights, ${few.length} CVs`,
      ),
    );
  }
  // onnxruntime's quantizer is Python's onnxruntime package, which this machine lacks.
  costs.push(notTimed('onnx, MiniLM-shaped int8', 'not timed: needs Python onnxruntime (quantization) to make'));
  costs.push(notTimed('http', 'not timed: network-bound, measured by the provider'));
  return costs;
}

export function printEncoderCost(costs: readonly EncoderCost[], loadAverage: number): void {
  const f = (x: number, digits = 0) => (Number.isFinite(x) ? x.toFixed(digits) : 'n/a');
  process.stdout.write(
    `\n## dense encoders: cost on one thread (maxTokens ${ONNX_OPTIONS.maxTokens}, batch ${ONNX_OPTIONS.batchSize}; load average ${loadAverage.toFixed(1)} meanwhile)\n\n` +
      `| encoder | model id | dims | query p50 ms | p95 | ms per CV | CPU ms per CV | CVs/s on one core | passages/CV | tokens/CV | note |\n|---|---|---|---|---|---|---|---|---|---|---|\n`,
  );
  for (const c of costs) {
    process.stdout.write(
      `| ${c.encoder} | ${c.modelId} | ${f(c.dimensions)} | ${f(c.queryP50Ms, 2)} | ${f(c.queryP95Ms, 2)} | ${f(c.msPerCv, 1)} | ${f(c.cpuMsPerCv, 1)} | ${f(c.cvsPerSecond, 1)} | ${f(c.passagesPerCv, 1)} | ${f(c.tokensPerCv)} | ${c.note ?? ''} |\n`,
    );
  }
}
