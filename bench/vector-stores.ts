/**
 * The standalone's vector store measured alone: the embedded index (usearch HNSW and a passage
 * matrix in memory, libs/embedded-vector), over the vectors of generated CVs
 * (bench/cv-generator.ts), embedded by the builtin encoder as ingestion embeds them: a
 * whole-document vector and one a passage (chunkText by section).
 *
 * For each store it prints: recall@10 and @100 of its search against exact search over the same
 * document vectors (the real queries of livecareer, and headlines of other generated CVs as
 * queries), search p50/p95 through the port (top 100 and top 20, passages named), build time
 * (every CV upserted through the port, 256 in flight, and the store closed), peak RSS while
 * building, RSS of a fresh process that opened the store and served the searches, and disk.
 *
 * Every step runs in a process of its own, so that one's memory is not another's: the vectors
 * are embedded once into `--work DIR` (kept: a later run reuses them), then each store is built
 * by one process and served by another. `--skip-build` serves what the last run built.
 *
 *   node -r @swc-node/register bench/vector-stores.ts [--scale 100000] [--work DIR] [--stores embedded] [--passages on|off] [--skip-build] [--report FILE]
 */
import { execFileSync } from 'node:child_process';
import { closeSync, existsSync, openSync, readFileSync, readSync, writeSync, promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { splitSections } from '@cs/cv-understanding';
import { EmbeddedVectorIndex } from '@cs/embedded-vector';
import { SentenceEmbedder, chunkText, loadWordVectors } from '@cs/embeddings';
import { MetricKind, exactSearch } from 'usearch';
import { EMBEDDINGS_CACHE } from '../e2e/support/local-ports';
import { EVAL_DIR } from '../e2e/support/standalone-service';
import { generateCvs, loadSourceCvs } from './cv-generator';
import { folderMb, option, percentile, pool } from './harness';

const STORES = ['embedded'] as const;
type Store = (typeof STORES)[number];
const COMPANY = 'bench';
const IN_FLIGHT = 256;
/** Exact top this many per query, the reference for recall@10 and @100. */
const TRUTH_K = 100;
const HEADLINE_QUERIES = 1_000;

interface Meta {
  documents: number;
  passages: number;
  dimensions: number;
  /** How many of the queries, first in the file, are the real ones; the rest are headlines. */
  realQueries: number;
  queries: number;
  embedSeconds: number;
}

interface BuildReport {
  seconds: number;
  peakRssMb: number;
  diskMb: number;
}

interface ServeReport {
  openSeconds: number;
  approximate: boolean;
  recall: { real: { at10: number; at100: number }; headlines: { at10: number; at100: number } };
  top100: { p50: number; p95: number };
  top20: { p50: number; p95: number };
  exact: { p50: number; p95: number };
  rssMb: number;
  peakRssMb: number;
}

const work = path.resolve(option('work', path.join(os.tmpdir(), 'cs-bench-vector-stores')));
const files = {
  meta: path.join(work, 'meta.json'),
  documents: path.join(work, 'documents.f32'),
  passageCounts: path.join(work, 'passage-counts.u32'),
  passages: path.join(work, 'passages.f32'),
  queries: path.join(work, 'queries.f32'),
  truth: path.join(work, 'truth.u32'),
};
const storeFolder = (store: Store) => path.join(work, store);

/** The kernel's count of the process's resident memory, now or at its peak. */
function rssMb(field: 'VmRSS' | 'VmHWM'): number {
  const line = readFileSync('/proc/self/status', 'utf8')
    .split('\n')
    .find((l) => l.startsWith(`${field}:`));
  return line ? Number(line.split(/\s+/)[1]) / 1024 : NaN;
}

const asBytes = (v: ArrayBufferView) => Buffer.from(v.buffer, v.byteOffset, v.byteLength);

/** Embeds the CVs and the queries into `work`, with each query's exact top 100 documents. */
async function embed(scale: number, withPassages: boolean): Promise<void> {
  const started = performance.now();
  const embedder = new SentenceEmbedder(await loadWordVectors(EMBEDDINGS_CACHE));
  const dims = embedder.dimensions;
  await fs.mkdir(work, { recursive: true });
  const documents = new Float32Array(scale * dims);
  const counts = new Uint32Array(scale);
  const passagesFile = openSync(files.passages, 'w');
  let n = 0;
  let passages = 0;
  try {
    for (const cv of generateCvs(loadSourceCvs(EVAL_DIR), scale)) {
      const whole = embedder.embedDocument(cv.text);
      if (!whole) continue;
      documents.set(whole, n * dims);
      if (withPassages) {
        const boundaries = splitSections(cv.text).map((s) => s.start - s.heading.length);
        const vectors = chunkText(cv.text, 120, 30, boundaries)
          .map((chunk) => embedder.embed(chunk.text))
          .filter((v): v is Float32Array => v !== null);
        for (const v of vectors) writeSync(passagesFile, asBytes(v));
        counts[n] = vectors.length;
        passages += vectors.length;
      }
      if (++n % 10_000 === 0) process.stderr.write(`  embedded ${n} CVs\n`);
    }
  } finally {
    closeSync(passagesFile);
  }
  const real = ['livecareer/queries.dev.jsonl', 'livecareer/queries.semantic.dev.jsonl'].flatMap((file) =>
    readFileSync(path.join(EVAL_DIR, file), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => (JSON.parse(l) as { text: string }).text),
  );
  // Headlines of CVs not in the store (another seed), read as a recruiter's query would be.
  const headlines = [...generateCvs(loadSourceCvs(EVAL_DIR), HEADLINE_QUERIES, 7)].map((cv) => cv.text.split('\n')[0]);
  const realVectors = real.map((q) => embedder.embedQuery(q)).filter((v): v is Float32Array => v !== null);
  const headlineVectors = headlines.map((q) => embedder.embedQuery(q)).filter((v): v is Float32Array => v !== null);
  const queries = new Float32Array((realVectors.length + headlineVectors.length) * dims);
  [...realVectors, ...headlineVectors].forEach((v, i) => queries.set(v, i * dims));
  const queryCount = queries.length / dims;
  const matrix = documents.subarray(0, n * dims);
  const found = exactSearch(matrix, queries, dims, TRUTH_K, MetricKind.IP, 0);
  const truth = Uint32Array.from(found.keys, Number);
  await fs.writeFile(files.documents, asBytes(matrix));
  await fs.writeFile(files.passageCounts, asBytes(counts.subarray(0, n)));
  await fs.writeFile(files.queries, asBytes(queries));
  await fs.writeFile(files.truth, asBytes(truth));
  const meta: Meta = {
    documents: n,
    passages,
    dimensions: dims,
    realQueries: realVectors.length,
    queries: queryCount,
    embedSeconds: (performance.now() - started) / 1000,
  };
  await fs.writeFile(files.meta, JSON.stringify(meta));
}

const readMeta = () => JSON.parse(readFileSync(files.meta, 'utf8')) as Meta;

const openStore = (store: Store, dims: number): Promise<EmbeddedVectorIndex> => EmbeddedVectorIndex.openFolder(storeFolder(store), dims);

/** Upserts every CV's vectors, read from the work files as it goes, through the port; then closes the store. */
async function build(store: Store): Promise<BuildReport> {
  const meta = readMeta();
  const dims = meta.dimensions;
  await fs.rm(storeFolder(store), { recursive: true, force: true });
  const counts = new Uint32Array(readFileSync(files.passageCounts).buffer.slice(0));
  const offsets = new Float64Array(meta.documents);
  for (let i = 1; i < meta.documents; i++) offsets[i] = offsets[i - 1] + counts[i - 1];
  const documentsFile = openSync(files.documents, 'r');
  const passagesFile = openSync(files.passages, 'r');
  const read = (file: number, rows: number, at: number) => {
    const vectors = new Float32Array(rows * dims);
    readSync(file, asBytes(vectors), 0, vectors.byteLength, at * dims * 4);
    return vectors;
  };
  const started = performance.now();
  const index = await openStore(store, dims);
  try {
    await pool(
      Array.from({ length: meta.documents }, (_, i) => i),
      IN_FLIGHT,
      async (i) => {
        const whole = read(documentsFile, 1, i);
        const passages = read(passagesFile, counts[i], offsets[i]);
        await index.upsert(COMPANY, `d${i}`, [
          { chunkIndex: -1, vector: whole },
          ...Array.from({ length: counts[i] }, (_, p) => ({ chunkIndex: p, vector: passages.subarray(p * dims, (p + 1) * dims) })),
        ]);
        if ((i + 1) % 10_000 === 0)
          process.stderr.write(`  ${store}: ${i + 1} CVs in, ${((performance.now() - started) / 1000).toFixed(0)} s\n`);
      },
    );
  } finally {
    await index.close();
    closeSync(documentsFile);
    closeSync(passagesFile);
  }
  return { seconds: (performance.now() - started) / 1000, peakRssMb: rssMb('VmHWM'), diskMb: await folderMb(storeFolder(store)) };
}

/** Opens the built store in this fresh process and times its searches; recall against the exact top 100. */
async function serve(store: Store): Promise<ServeReport> {
  const meta = readMeta();
  const dims = meta.dimensions;
  const queries = new Float32Array(readFileSync(files.queries).buffer.slice(0));
  const truth = new Uint32Array(readFileSync(files.truth).buffer.slice(0));
  const opening = performance.now();
  const index = await openStore(store, dims);
  const openSeconds = (performance.now() - opening) / 1000;
  try {
    const query = (q: number) => queries.subarray(q * dims, (q + 1) * dims);
    const exactOf = (q: number) => Array.from(truth.subarray(q * TRUTH_K, (q + 1) * TRUTH_K), (row) => `d${row}`);
    const timed = async (topK: number, search: (q: Float32Array, k: number) => Promise<unknown>) => {
      const ms: number[] = [];
      for (let q = 0; q < meta.queries; q++) {
        const t = performance.now();
        await search(query(q), topK);
        ms.push(performance.now() - t);
      }
      return { p50: percentile(ms, 50), p95: percentile(ms, 95) };
    };
    const searchPort = (q: Float32Array, k: number) => index.search(COMPANY, q, k);
    // One pass first: files read and caches warmed, as on a service that has been answering.
    await timed(100, searchPort);
    const top100 = await timed(100, searchPort);
    const top20 = await timed(20, searchPort);
    const exact = await timed(100, (q, k) => Promise.resolve(index.searchExact(COMPANY, q, k)));
    const sums = { real: { at10: 0, at100: 0 }, headlines: { at10: 0, at100: 0 } };
    for (let q = 0; q < meta.queries; q++) {
      const found = (await index.search(COMPANY, query(q), 100)).map((h) => h.documentId);
      const exact = exactOf(q);
      const top10 = new Set(found.slice(0, 10));
      const top100 = new Set(found);
      const group = q < meta.realQueries ? sums.real : sums.headlines;
      group.at10 += exact.slice(0, 10).filter((id) => top10.has(id)).length / 10;
      group.at100 += exact.filter((id) => top100.has(id)).length / TRUTH_K;
    }
    const mean = (s: { at10: number; at100: number }, n: number) => ({ at10: s.at10 / n, at100: s.at100 / n });
    return {
      openSeconds,
      approximate: index.isApproximate(COMPANY),
      recall: { real: mean(sums.real, meta.realQueries), headlines: mean(sums.headlines, meta.queries - meta.realQueries) },
      top100,
      top20,
      exact,
      rssMb: rssMb('VmRSS'),
      peakRssMb: rssMb('VmHWM'),
    };
  } finally {
    await index.close();
  }
}

/** Runs one step in a process of its own; its report is the last line it prints. */
function step(args: string[]): unknown {
  const out = execFileSync(process.execPath, ['-r', '@swc-node/register', __filename, ...args], {
    stdio: ['ignore', 'pipe', 'inherit'],
    maxBuffer: 64 * 2 ** 20,
  }).toString();
  return JSON.parse(out.trim().split('\n').pop()!);
}

async function main(): Promise<void> {
  const phase = option('phase', '');
  if (phase === 'embed') {
    await embed(Number(option('scale', '100000')), option('passages', 'on') === 'on');
    process.stdout.write('null\n');
    return;
  }
  if (phase === 'build' || phase === 'serve') {
    const store = option('store', '') as Store;
    if (!STORES.includes(store)) throw new Error(`--store: one of ${STORES.join(', ')}`);
    const report = phase === 'build' ? await build(store) : await serve(store);
    process.stdout.write(`${JSON.stringify(report)}\n`);
    return;
  }

  const stores = option('stores', STORES.join(',')).split(',') as Store[];
  for (const store of stores) if (!STORES.includes(store)) throw new Error(`--stores: ${store} is none of ${STORES.join(', ')}`);
  const cpus = os.cpus();
  process.stdout.write(
    `machine: ${cpus.length} × ${cpus[0]?.model.trim() ?? 'unknown CPU'}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}\n`,
  );
  if (!existsSync(files.meta)) {
    process.stderr.write(`embedding into ${work}\n`);
    step(['--phase', 'embed', '--scale', option('scale', '100000'), '--passages', option('passages', 'on'), '--work', work]);
  }
  const meta = readMeta();
  process.stdout.write(
    `${meta.documents} CVs (${meta.passages} passages), ${meta.dimensions} dimensions, embedded in ${meta.embedSeconds.toFixed(0)} s; ${meta.realQueries} real queries and ${meta.queries - meta.realQueries} headlines\n\n`,
  );
  const reports: Record<string, { build: BuildReport; serve: ServeReport }> = {};
  for (const store of stores) {
    const ann = ['--ann', option('ann', '{}')];
    const builtFile = path.join(work, `${store}.build.json`);
    process.stderr.write(`building ${store}\n`);
    if (!process.argv.includes('--skip-build'))
      await fs.writeFile(builtFile, JSON.stringify(step(['--phase', 'build', '--store', store, '--work', work, ...ann])));
    const built = JSON.parse(await fs.readFile(builtFile, 'utf8')) as BuildReport;
    process.stderr.write(`serving ${store}\n`);
    reports[store] = { build: built, serve: step(['--phase', 'serve', '--store', store, '--work', work, ...ann]) as ServeReport };
  }
  const f = (x: number, digits = 0) => (Number.isFinite(x) ? x.toFixed(digits) : 'n/a');
  process.stdout.write(
    '| store | recall@10 real / headlines | recall@100 real / headlines | top 100 p50 / p95 ms | top 20 p50 / p95 ms | exact top 100 p50 ms | build s | build peak RSS MB | open s | serving RSS MB (peak) | disk MB |\n|---|---|---|---|---|---|---|---|---|---|---|\n',
  );
  for (const [store, { build: b, serve: s }] of Object.entries(reports)) {
    process.stdout.write(
      `| ${store}${s.approximate ? '' : ' (exact)'} | ${f(s.recall.real.at10, 3)} / ${f(s.recall.headlines.at10, 3)} | ${f(s.recall.real.at100, 3)} / ${f(s.recall.headlines.at100, 3)} | ${f(s.top100.p50, 2)} / ${f(s.top100.p95, 2)} | ${f(s.top20.p50, 2)} / ${f(s.top20.p95, 2)} | ${f(s.exact.p50, 2)} | ${f(b.seconds)} | ${f(b.peakRssMb)} | ${f(s.openSeconds, 1)} | ${f(s.rssMb)} (${f(s.peakRssMb)}) | ${f(b.diskMb)} |\n`,
    );
  }
  const reportFile = option('report', path.join(process.cwd(), 'tmp', 'vector-stores-report.json'));
  await fs.mkdir(path.dirname(reportFile), { recursive: true });
  await fs.writeFile(reportFile, JSON.stringify({ meta, reports }, null, 2));
  process.stdout.write(`\nreport: ${reportFile}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
