/**
 * `npm run bench`: speed and memory through the real service. For the livecareer PDFs (2,484) and,
 * with `--scale N`, for N generated CVs (bench/cv-generator.ts), it prints: ingestion throughput
 * (CVs/s, upload until every CV is processed), the service's CPU per CV while ingesting, and the
 * CPU that extracting a file's text takes alone (the floor under it); `processingTimeMs` p50/p95 per search type and
 * the time a client sees from POST to `completed` (polling every 5 ms); the service's RSS; and
 * the recall of the HNSW graph against exact search over the same document vectors.
 *
 * Searches use the API's defaults (top_k 20, rerank_top_n 30) unless `--top-k` says otherwise; hybrid
 * and builtin-rerank are timed again at top_k 100 and rerank_top_n 100. The `filters` phase times
 * each type again with a documentDate filter passing half the CVs and one in a hundred (the bench
 * gives the CVs 100 document dates in turn). The `match` phase times match searches of the dev job
 * postings (`--postings`), their text as `jobDescription`. Then an HTTP load phase
 * (autocannon, bench/load.ts) reads a completed search's status and result pages for 10 s per
 * route (`--load-seconds`) and prints req/s, p50 and p99.
 *
 * First, what each dense encoder costs in-process on one thread (bench/encoder-cost.ts);
 * `--encoders-only` measures that alone.
 *
 * `--data DIR` keeps each instance's data in DIR/<label>; a later run with the same DIR skips the ingestion and measures searches over what is there
 * (ingestion figures then print as n/a).
 *
 * Where the bench
 * may make a memory cgroup (root, cgroup v1 or v2), the service runs in one, and its whole memory
 * (RSS and page cache, as a pod's limit counts it) prints beside RSS; with the data folder's size,
 * and, in the `restart` phase, the time a restart takes until ready and the memory of the fresh
 * process once it has served a round of searches. The `compaction` phase deletes a tenth of the
 * CVs through the API, stops the service and times the rewrite of its keyword index and vector set
 * without them (bench/compaction.ts), with the indexes' size before and after, then uploads those
 * CVs again.
 *
 *   npm run bench -- [--encoders-only] [--corpus DIR|FILE.jsonl] [--limit N] [--scale N [--only-scale]] [--rounds R] [--top-k K] [--phases encoders,searches,filters,match,deep,restart,compaction,load,tracing,hnsw] [--postings FILE] [--load-seconds S] [--data DIR] [--report FILE]
 */
import { execFile } from 'node:child_process';
import { promises as fs, readFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { extractText, type AcceptedType } from '@cs/document-parsing';
import { EmbeddedVectorIndex } from '@cs/embedded-vector';
import { SentenceEmbedder, loadWordVectors } from '@cs/embeddings';
import { EMBEDDINGS_CACHE } from '../e2e/support/local-ports';
import { EVAL_DIR } from '../e2e/support/standalone-service';
import { generateCvs, loadSourceCvs } from './cv-generator';
import type { CompactionReport } from './compaction';
import { encoderCost, printEncoderCost } from './encoder-cost';
import { QUERY_SEARCH_TYPES as SEARCH_TYPES, type QuerySearchType as SearchType } from '@cs/search-domain';
import { FACET_FIELDS } from '@cs/search-filters';
import {
  benchDocumentDate,
  folderMb,
  ingest,
  loadCorpus,
  newApiKey,
  option,
  percentile,
  pool,
  startInstance,
  type CorpusItem,
} from './harness';
import { EMBEDDED_INDEX_FOLDERS } from '@cs/service-kit';
import { loadPhase, printLoad, type LoadRow } from './load';
import { MemoryCgroup, type CgroupMemory } from './memory-cgroup';
import { OtlpReceiver } from '../e2e/support/otlp-receiver';
import type { StandaloneService } from '../e2e/support/standalone-service';

const POLL_MS = 5;
const LOAD_SECONDS = Number(option('load-seconds', '10'));
if (!(LOAD_SECONDS >= 1)) throw new Error('--load-seconds must be a number of seconds, at least 1');

/** What is measured (`--phases`, comma-separated; all by default): the encoders alone, then, once the CVs are in, the rest. */
const PHASES = ['encoders', 'searches', 'filters', 'match', 'deep', 'restart', 'compaction', 'load', 'tracing', 'hnsw'];
const phases = new Set(option('phases', PHASES.join(',')).split(','));
for (const phase of phases) if (!PHASES.includes(phase)) throw new Error(`--phases: ${phase} is none of ${PHASES.join(', ')}`);
if (option('tracing', 'on') === 'off') phases.delete('tracing');

interface Timing {
  type: string;
  processingMs: number;
  clientMs: number;
  stages: Record<string, number>;
}

interface ScaleReport {
  label: string;
  documents: number;
  /** From spawning the service until it answers, ready: on a reused data folder, its indexes open then. */
  startSeconds: number;
  reused: boolean;
  ingestionSeconds: number;
  cvsPerSecond: number;
  rssMb: number;
  peakRssMb: number;
  /** The service's cgroup, read with RSS; undefined where no cgroup could be made. */
  cgroup?: CgroupMemory;
  /** The data folder, and the part of it the store's indexes take. */
  disk: { totalMb: number; indexesMb: number };
  /** The `restart` phase: SIGTERM, then a new process on the same data until ready, and its memory after a round of searches. */
  restart?: { seconds: number; rssMb: number; cgroup?: CgroupMemory };
  /** The `compaction` phase: a tenth of the CVs deleted, then the stopped store's indexes rewritten without them. */
  compaction?: CompactionReport & { deleted: number; deleteSeconds: number; indexesMbBefore: number; indexesMbAfter: number };
  /** CPU the service spent on ingestion per CV, in ms: all its threads, and its main thread. */
  cpuMsPerCv: { process: number; mainThread: number };
  /** CPU to extract one file's text, in ms, alone on one thread: the floor under ingestion's cost. */
  extractionCpuMs: number;
  searches?: Record<string, { p50: number; p95: number; clientP50: number; clientP95: number; stagesP50: Record<string, number> }>;
  /** The fused and reranked types at top_k 100 and rerank_top_n 100. */
  deep?: ScaleReport['searches'];
  /** Match searches of the dev job postings (their text as jobDescription). */
  match?: ScaleReport['searches'];
  /** Each type's processingTimeMs p50 unfiltered, and with a documentDate filter passing half the CVs and one in a hundred. */
  filters?: Record<string, { unfiltered: number; half: number; hundredth: number; halfWithFacets: number }>;
  /** Each route read under load by autocannon. */
  load?: LoadRow[];
  hnsw?: { documents: number; recallAt10: number; recallAt100: number; exactMs: number; hnswMs: number };
  /** Search p50s per type (processingTimeMs, and client POST→completed), restarted without and with tracing exported over OTLP. */
  tracing?: {
    off: Record<string, { p50: number; clientP50: number }>;
    on: Record<string, { p50: number; clientP50: number }>;
    exportRequests: number;
  };
}

/** Resident and peak resident memory of a process, in MB (Linux /proc). */
async function memoryOf(pid: number | undefined): Promise<{ rssMb: number; peakRssMb: number }> {
  if (!pid) return { rssMb: NaN, peakRssMb: NaN };
  const status = await fs.readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
  const kb = (key: string) => Number(new RegExp(`${key}:\\s+(\\d+)`).exec(status)?.[1] ?? NaN);
  return { rssMb: kb('VmRSS') / 1024, peakRssMb: kb('VmHWM') / 1024 };
}

async function diskOf(dataDir: string): Promise<ScaleReport['disk']> {
  const indexes = await Promise.all(EMBEDDED_INDEX_FOLDERS.map((folder) => folderMb(path.join(dataDir, folder))));
  return { totalMb: await folderMb(dataDir), indexesMb: indexes.reduce((a, b) => a + b, 0) };
}

/** Deletes every tenth completed CV through the API (listed in pages of 100), 8 at a time; gives their names. */
async function deleteTenth(client: Awaited<ReturnType<typeof startInstance>>['client']): Promise<Set<string>> {
  const doomed: { documentId: string; documentName: string }[] = [];
  for (let offset = 0; ; offset += 100) {
    const page = await client.get(`/v1/public/documents?status=completed&limit=100&offset=${offset}`);
    const documents = page.body.data as { documentId: string; documentName: string }[];
    doomed.push(...documents.filter((_, i) => (offset + i) % 10 === 0));
    if (documents.length < 100) break;
  }
  await pool(doomed, 8, async ({ documentId }) => {
    const answer = await client.request('DELETE', `/v1/public/documents/${documentId}`);
    if (answer.status !== 200) throw new Error(`deleting ${documentId} answered ${answer.status}: ${JSON.stringify(answer.body)}`);
  });
  return new Set(doomed.map((d) => d.documentName));
}

/**
 * Stops the service and times the rewrite of its indexes by `bench/compaction.ts` in a process of
 * its own, with their size before and after; then starts the service again.
 */
async function compactStopped(service: StandaloneService): Promise<CompactionReport & { indexesMbBefore: number; indexesMbAfter: number }> {
  await service.stop('SIGTERM');
  try {
    const indexesMbBefore = (await diskOf(service.dataDir)).indexesMb;
    const output = await new Promise<string>((resolve, reject) =>
      execFile(
        process.execPath,
        ['-r', '@swc-node/register', path.join(__dirname, 'compaction.ts'), '--data', service.dataDir],
        { maxBuffer: 1 << 20 },
        (error, stdout, stderr) => (error ? reject(new Error(`compaction failed: ${stderr || error.message}`)) : resolve(stdout)),
      ),
    );
    const report = JSON.parse(output.trim().split('\n').pop()!) as CompactionReport;
    return { ...report, indexesMbBefore, indexesMbAfter: (await diskOf(service.dataDir)).indexesMb };
  } finally {
    await service.boot();
  }
}

/** A new cgroup for the service's next start (when one can be made), joined through STANDALONE_CGROUP_PROCS. */
async function nextCgroup(name: string): Promise<MemoryCgroup | null> {
  const cgroup = await MemoryCgroup.create(`cs-bench-${process.pid}-${name}`);
  if (cgroup) process.env.STANDALONE_CGROUP_PROCS = cgroup.procsFile;
  else delete process.env.STANDALONE_CGROUP_PROCS;
  return cgroup;
}

/** Mean CPU to extract a file's text, on this thread with nothing else running (up to 200 files, after 10 to warm up). */
async function extractionCpu(corpus: readonly CorpusItem[]): Promise<number> {
  const sample = corpus.slice(0, 210);
  if (sample.length <= 10) return NaN;
  for (const [, bytes, type] of sample.slice(0, 10)) await extractText(bytes, type as AcceptedType).catch(() => '');
  const before = process.cpuUsage();
  for (const [, bytes, type] of sample.slice(10)) await extractText(bytes, type as AcceptedType).catch(() => '');
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000 / (sample.length - 10);
}

/** CPU seconds a process and its main thread have used (Linux /proc, in USER_HZ = 100 ticks a second). */
async function cpuOf(pid: number | undefined): Promise<{ process: number; mainThread: number }> {
  const seconds = async (file: string) => {
    const fields = (await fs.readFile(file, 'utf8').catch(() => '')).split(') ')[1]?.split(' ') ?? [];
    return (Number(fields[11]) + Number(fields[12])) / 100; // utime + stime
  };
  if (!pid) return { process: NaN, mainThread: NaN };
  return { process: await seconds(`/proc/${pid}/stat`), mainThread: await seconds(`/proc/${pid}/task/${pid}/stat`) };
}

async function timeSearches(
  client: Awaited<ReturnType<typeof startInstance>>['client'],
  queries: string[],
  rounds: number,
  depth = option('top-k', ''),
  types: readonly SearchType[] = SEARCH_TYPES,
  extra: Record<string, unknown> = {},
): Promise<Timing[]> {
  const sizes = { ...(depth ? { top_k: Number(depth), rerank_top_n: Number(depth) } : {}), ...extra };
  const bodies = queries.flatMap((query) => types.map((type) => ({ type, body: { query, ...sizes } })));
  return timeBodies(client, bodies, rounds);
}

/** Match searches of job postings, their text as `jobDescription`. */
function timeMatches(client: Awaited<ReturnType<typeof startInstance>>['client'], postings: string[], rounds: number): Promise<Timing[]> {
  return timeBodies(
    client,
    postings.map((jobDescription) => ({ type: 'match', body: { jobDescription } })),
    rounds,
  );
}

/** Each search run to its end, `rounds` times after a first pass, with its times and its stages'. */
async function timeBodies(
  client: Awaited<ReturnType<typeof startInstance>>['client'],
  bodies: { type: string; body: Record<string, unknown> }[],
  rounds: number,
): Promise<Timing[]> {
  const timings: Timing[] = [];
  // One pass first: the first searches fill the reranker's and the explanations' caches.
  for (let round = 0; round <= rounds; round++) {
    for (const { type, body } of bodies) {
      const started = performance.now();
      const created = await client.post(`/v1/public/searches/${type}`, body);
      if (created.status !== 202) throw new Error(`search answered ${created.status}: ${JSON.stringify(created.body)}`);
      const status = await client.waitForSearch(created.body.searchId, 60_000, POLL_MS);
      const clientMs = performance.now() - started;
      if (status.status !== 'completed') throw new Error(`a ${type} search ended ${status.status}: ${status.error}`);
      if (round === 0) continue;
      const results = await client.get(`/v1/public/searches/${created.body.searchId}/results`);
      timings.push({ type, processingMs: status.processingTimeMs, clientMs, stages: results.body.metadata?.stageTimingsMs ?? {} });
    }
  }
  return timings;
}

/**
 * Each type's p50 unfiltered, with a filter passing half the CVs and one in a hundred (their
 * document dates: benchDocumentDate), and with the half filter and every facet counted, timed in
 * turns so that the four see the same machine.
 */
async function filteredSearches(
  client: Awaited<ReturnType<typeof startInstance>>['client'],
  queries: string[],
  rounds: number,
): Promise<NonNullable<ScaleReport['filters']>> {
  const variants = {
    unfiltered: {},
    half: { filters: { documentDate: { gte: benchDocumentDate(0), lte: benchDocumentDate(49) } } },
    hundredth: { filters: { documentDate: { gte: benchDocumentDate(0), lte: benchDocumentDate(0) } } },
    halfWithFacets: {
      filters: { documentDate: { gte: benchDocumentDate(0), lte: benchDocumentDate(49) } },
      facets: [...FACET_FIELDS],
    },
  };
  const timings: Record<string, Timing[]> = { unfiltered: [], half: [], hundredth: [], halfWithFacets: [] };
  for (let round = 0; round < rounds; round++)
    for (const [name, extra] of Object.entries(variants))
      timings[name].push(...(await timeSearches(client, queries, 1, '', SEARCH_TYPES, extra)));
  const p50 = (name: string, type: string) =>
    percentile(
      timings[name].filter((t) => t.type === type).map((t) => t.processingMs),
      50,
    );
  return Object.fromEntries(
    SEARCH_TYPES.map((type) => [
      type,
      {
        unfiltered: p50('unfiltered', type),
        half: p50('half', type),
        hundredth: p50('hundredth', type),
        halfWithFacets: p50('halfWithFacets', type),
      },
    ]),
  );
}

/** A builtin-rerank search's id, completed: the richest result page to read under load. */
async function completedSearch(client: Awaited<ReturnType<typeof startInstance>>['client'], query: string): Promise<string> {
  const created = await client.post('/v1/public/searches/builtin-rerank', { query });
  const status = await client.waitForSearch(created.body.searchId, 60_000, POLL_MS);
  if (status.status !== 'completed') throw new Error(`the search to load ended ${status.status}: ${status.error}`);
  return created.body.searchId as string;
}

/** HNSW against exact search over the documents' vectors, for the queries' vectors. */
async function hnswRecall(texts: string[], queries: string[]): Promise<ScaleReport['hnsw']> {
  const embedder = new SentenceEmbedder(await loadWordVectors(EMBEDDINGS_CACHE));
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'cs-bench-hnsw-'));
  const index = await EmbeddedVectorIndex.open(dir, embedder.dimensions, 0);
  try {
    let n = 0;
    for (const text of texts) {
      const vector = embedder.embedDocument(text);
      if (vector) await index.upsert('bench', `d${n++}`, [{ chunkIndex: -1, vector }]);
    }
    let found10 = 0;
    let found100 = 0;
    let exactMs = 0;
    let hnswMs = 0;
    const vectors = queries.map((q) => embedder.embedQuery(q)).filter((v): v is Float32Array => v !== null);
    for (const vector of vectors) {
      let t = performance.now();
      const exact = index.searchExact('bench', vector, 100).map((h) => h.documentId);
      exactMs += performance.now() - t;
      t = performance.now();
      const approximate = new Set((await index.search('bench', vector, 100)).map((h) => h.documentId));
      hnswMs += performance.now() - t;
      const top10 = new Set([...approximate].slice(0, 10));
      found10 += exact.slice(0, 10).filter((id) => top10.has(id)).length / Math.min(10, exact.length);
      found100 += exact.filter((id) => approximate.has(id)).length / exact.length;
    }
    const q = Math.max(1, vectors.length);
    return { documents: n, recallAt10: found10 / q, recallAt100: found100 / q, exactMs: exactMs / q, hnswMs: hnswMs / q };
  } finally {
    await index.close();
    await fs.rm(dir, { recursive: true, force: true });
  }
}

/** Each search type's percentiles: processingTimeMs, client POST→completed, and each stage's p50. */
function searchSummary(timings: Timing[]): NonNullable<ScaleReport['searches']> {
  return Object.fromEntries(
    [...new Set(timings.map((t) => t.type))].map((type) => {
      const mine = timings.filter((t) => t.type === type);
      const processing = mine.map((t) => t.processingMs);
      const client = mine.map((t) => t.clientMs);
      const stageNames = [...new Set(mine.flatMap((t) => Object.keys(t.stages)))];
      return [
        type,
        {
          p50: percentile(processing, 50),
          p95: percentile(processing, 95),
          clientP50: percentile(client, 50),
          clientP95: percentile(client, 95),
          stagesP50: Object.fromEntries(
            stageNames.map((s) => [
              s,
              percentile(
                mine.map((t) => t.stages[s] ?? 0),
                50,
              ),
            ]),
          ),
        },
      ];
    }),
  );
}

/**
 * What tracing costs searches: the service is restarted on its data twice, without tracing and
 * then exporting every span over OTLP (http/protobuf, the default) to a local receiver, and the
 * same searches timed each time.
 */
async function tracingCost(service: StandaloneService, queries: string[], rounds: number): Promise<NonNullable<ScaleReport['tracing']>> {
  await service.stop('SIGTERM');
  const timed = async (env: Record<string, string>) => {
    const instance = await startInstance(env, service.dataDir);
    try {
      return searchSummary(await timeSearches(instance.client, queries, rounds));
    } finally {
      await instance.service.destroy(); // a given data folder is kept
    }
  };
  const receiver = await OtlpReceiver.start();
  try {
    const off = await timed({ OTEL_TRACES_EXPORTER: 'none' });
    const on = await timed({ OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf' });
    return { off, on, exportRequests: receiver.requests };
  } finally {
    await receiver.close();
  }
}

/**
 * One corpus through one service. `checkpoint` is given what is measured so far after each phase,
 * so that a run stopped part-way (100k CVs take hours) keeps the phases it finished.
 */
async function measure(
  label: string,
  corpus: CorpusItem[],
  texts: string[],
  queries: string[],
  postings: string[],
  rounds: number,
  checkpoint: (partial: Partial<ScaleReport>) => Promise<void>,
): Promise<ScaleReport> {
  const dataRoot = option('data', '');
  const extractionCpuMs = await extractionCpu(corpus);
  const cgroups = [await nextCgroup(label)];
  const starting = performance.now();
  const { service, client, reused } = await startInstance({}, dataRoot ? path.resolve(dataRoot, label) : undefined);
  const startSeconds = (performance.now() - starting) / 1000;
  try {
    const partial: Partial<ScaleReport> = { label, startSeconds, reused, extractionCpuMs };
    let documents: number;
    let seconds = NaN;
    let cpuMsPerCv = { process: NaN, mainThread: NaN };
    if (reused) {
      documents = (await client.get('/v1/public/documents?status=completed&limit=1')).body.pagination.total as number;
      process.stderr.write(`  ${label}: reusing ${documents} completed documents in ${service.dataDir}\n`);
    } else {
      let last = 0;
      const cpuBefore = await cpuOf(service.pid);
      const ingested = await ingest(client, corpus, (done) => {
        if (done - last >= 10_000) process.stderr.write(`  ${label}: ${(last = done)} processed\n`);
      });
      // Equal uploads become one document: count the documents the service holds.
      documents = ingested.externalId.size;
      seconds = ingested.seconds;
      const cpuAfter = await cpuOf(service.pid);
      cpuMsPerCv = {
        process: (1000 * (cpuAfter.process - cpuBefore.process)) / documents,
        mainThread: (1000 * (cpuAfter.mainThread - cpuBefore.mainThread)) / documents,
      };
      process.stderr.write(
        `  ${label}: ${corpus.length} uploads (accepted in ${ingested.uploadSeconds.toFixed(1)} s), ${documents} documents, in ${seconds.toFixed(1)} s ${JSON.stringify(ingested.statuses)}\n`,
      );
    }
    Object.assign(partial, { documents, ingestionSeconds: seconds, cvsPerSecond: documents / seconds, cpuMsPerCv });
    await checkpoint(partial);
    if (phases.has('searches'))
      await checkpoint(Object.assign(partial, { searches: searchSummary(await timeSearches(client, queries, rounds)) }));
    if (phases.has('filters')) await checkpoint(Object.assign(partial, { filters: await filteredSearches(client, queries, rounds) }));
    if (phases.has('match'))
      await checkpoint(Object.assign(partial, { match: searchSummary(await timeMatches(client, postings, rounds)) }));
    if (phases.has('deep'))
      await checkpoint(
        Object.assign(partial, { deep: searchSummary(await timeSearches(client, queries, rounds, '100', ['hybrid', 'builtin-rerank'])) }),
      );
    // Before the load phase, which fills the ended searches' kept answers (READ_CACHE_MB): comparable with earlier runs.
    await checkpoint(Object.assign(partial, await memoryOf(service.pid), { cgroup: await cgroups[0]?.memory() }));
    if (phases.has('restart')) {
      await service.stop('SIGTERM');
      await cgroups[0]?.remove();
      cgroups.push(await nextCgroup(`${label}-restart`));
      const restarting = performance.now();
      await service.boot();
      const seconds = (performance.now() - restarting) / 1000;
      await timeSearches(client, queries, 1);
      partial.restart = { seconds, rssMb: (await memoryOf(service.pid)).rssMb, cgroup: await cgroups[1]?.memory() };
    }
    await checkpoint(Object.assign(partial, { disk: await diskOf(service.dataDir) }));
    if (phases.has('compaction')) {
      const deleting = performance.now();
      const deleted = await deleteTenth(client);
      const deleteSeconds = (performance.now() - deleting) / 1000;
      try {
        const compaction = { ...(await compactStopped(service)), deleted: deleted.size, deleteSeconds };
        await checkpoint(Object.assign(partial, { compaction }));
      } finally {
        // Uploaded again, so that the later phases, and a later run on the same --data, see every CV.
        await ingest(
          client,
          corpus.filter(([id]) => deleted.has(id)),
        );
      }
    }
    if (phases.has('load'))
      await checkpoint(
        Object.assign(partial, {
          load: await loadPhase(client.baseUrl, () => newApiKey(service), await completedSearch(client, queries[0]), LOAD_SECONDS),
        }),
      );
    if (phases.has('tracing') && label !== 'generated')
      await checkpoint(Object.assign(partial, { tracing: await tracingCost(service, queries, rounds) }));
    if (phases.has('hnsw')) await checkpoint(Object.assign(partial, { hnsw: await hnswRecall(texts, queries) }));
    return partial as ScaleReport;
  } catch (error) {
    process.stderr.write(`service log (tail):\n${service.logs.slice(-3000)}\n`);
    throw error;
  } finally {
    await service.destroy();
    delete process.env.STANDALONE_CGROUP_PROCS;
    for (const cgroup of cgroups) await cgroup?.remove();
  }
}

function print(report: ScaleReport): void {
  const f = (x: number, digits = 0) => (Number.isFinite(x) ? x.toFixed(digits) : 'n/a');
  process.stdout.write(`\n## ${report.label}: ${report.documents} CVs\n`);
  process.stdout.write(
    `start: ${f(report.startSeconds, 1)} s until ready${report.reused ? `, with ${report.documents} CVs in its data folder` : ', empty'}\n`,
  );
  process.stdout.write(
    `ingestion: ${f(report.ingestionSeconds, 1)} s, ${f(report.cvsPerSecond, 1)} CVs/s (service CPU ${f(report.cpuMsPerCv.process)} ms a CV, main thread ${f(report.cpuMsPerCv.mainThread)}; text extraction alone ${f(report.extractionCpuMs, 1)} ms a file)\n`,
  );
  const cg = (m: CgroupMemory | undefined) =>
    m ? `cgroup ${f(m.usageMb)} MB (working set ${f(m.workingSetMb)}, page cache ${f(m.cacheMb)}, peak ${f(m.peakMb)})` : 'cgroup n/a';
  process.stdout.write(
    `memory after the searches: RSS ${f(report.rssMb)} MB (peak ${f(report.peakRssMb)}), ${cg(report.cgroup)}; disk: data folder ${f(report.disk.totalMb)} MB, indexes ${f(report.disk.indexesMb)} MB\n`,
  );
  if (report.restart)
    process.stdout.write(
      `restart: ${f(report.restart.seconds, 1)} s until ready; then, after a round of searches, RSS ${f(report.restart.rssMb)} MB, ${cg(report.restart.cgroup)}\n`,
    );
  const c = report.compaction;
  if (c)
    process.stdout.write(
      `compaction: ${c.deleted} CVs deleted (a tenth) in ${f(c.deleteSeconds, 1)} s; the stopped store rewritten without them: keyword index ${f(c.keywordSeconds, 1)} s, vector set ${f(c.vectorSeconds, 1)} s (peak RSS ${f(c.peakRssMb)} MB); indexes ${f(c.indexesMbBefore, 1)} MB before, ${f(c.indexesMbAfter, 1)} MB after\n`,
    );
  process.stdout.write('\n');
  const searchTable = (title: string, searches: NonNullable<ScaleReport['searches']>) => {
    process.stdout.write(
      `${title}| type | processingTimeMs p50 | p95 | client POST→completed p50 | p95 | stages p50 (ms) |\n|---|---|---|---|---|---|\n`,
    );
    for (const [type, s] of Object.entries(searches)) {
      const stages = Object.entries(s.stagesP50)
        .map(([k, v]) => `${k} ${f(v, 1)}`)
        .join(', ');
      process.stdout.write(`| ${type} | ${f(s.p50)} | ${f(s.p95)} | ${f(s.clientP50)} | ${f(s.clientP95)} | ${stages} |\n`);
    }
  };
  if (report.searches) searchTable('', report.searches);
  if (report.filters) {
    const ratio = (filtered: number, unfiltered: number) => `${f(filtered, 1)} (${f(filtered / unfiltered, 2)}x)`;
    process.stdout.write(
      `\nfiltered (a documentDate filter passing half the CVs, and one in a hundred; facets: the half filter with every facet counted): processingTimeMs p50\n\n| type | unfiltered | 50% pass | 1% pass | 50% pass with facets |\n|---|---|---|---|---|\n${Object.entries(
        report.filters,
      )
        .map(
          ([type, r]) =>
            `| ${type} | ${f(r.unfiltered, 1)} | ${ratio(r.half, r.unfiltered)} | ${ratio(r.hundredth, r.unfiltered)} | ${f(r.halfWithFacets, 1)} (${r.halfWithFacets >= r.half ? '+' : ''}${f(r.halfWithFacets - r.half, 1)} ms) |`,
        )
        .join('\n')}\n`,
    );
  }
  if (report.deep) searchTable('\nat depth: top_k 100, rerank_top_n 100\n\n', report.deep);
  if (report.match) searchTable('\nmatch: the dev job postings as jobDescription\n\n', report.match);
  if (report.load) printLoad(report.load);
  if (report.tracing) {
    const { off, on, exportRequests } = report.tracing;
    const cost = (a: number, b: number) => `${f((100 * (b - a)) / a, 0)}%`;
    const row = (type: string) =>
      `| ${type} | ${f(off[type].p50, 1)} | ${f(on[type].p50, 1)} | ${cost(off[type].p50, on[type].p50)} | ${f(off[type].clientP50, 1)} | ${f(on[type].clientP50, 1)} | ${cost(off[type].clientP50, on[type].clientP50)} |`;
    process.stdout.write(
      `\ntracing (restarted on the same data; on: every span exported over OTLP http/protobuf, ${exportRequests} export requests)\n\n| type | processingTimeMs p50 off | on | cost | client POST→completed p50 off | on | cost |\n|---|---|---|---|---|---|---|\n${Object.keys(off).map(row).join('\n')}\n`,
    );
  }
  const h = report.hnsw;
  if (h)
    process.stdout.write(
      `\nHNSW over ${h.documents} document vectors: recall@10 ${f(h.recallAt10, 3)}, recall@100 ${f(h.recallAt100, 3)} against exact; ${f(h.hnswMs, 2)} ms a query (exact ${f(h.exactMs, 2)} ms)\n`,
    );
}

async function main(): Promise<void> {
  const rounds = Number(option('rounds', '3'));
  const queries = readFileSync(option('queries', path.join(EVAL_DIR, 'livecareer/queries.dev.jsonl')), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => (JSON.parse(l) as { text: string }).text);
  const postings = readFileSync(option('postings', path.join(EVAL_DIR, 'livecareer/jd.dev.jsonl')), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => (JSON.parse(l) as { text: string }).text);
  const reports: ScaleReport[] = [];
  // Identical runs differ ~2x between machines of this kind: every figure is read against the machine it came from.
  const cpus = os.cpus();
  const machine = `${cpus.length} × ${cpus[0]?.model.trim() ?? 'unknown CPU'}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}`;
  process.stdout.write(`machine: ${machine}\n`);
  const reportFile = option('report', path.join(process.cwd(), 'tmp', 'bench-report.json'));
  const saveReport = async (report: object) => {
    await fs.mkdir(path.dirname(reportFile), { recursive: true });
    await fs.writeFile(reportFile, JSON.stringify({ machine, ...report }, null, 2));
  };
  const writeReport = async (report: object) => {
    await saveReport(report);
    process.stdout.write(`\nreport: ${reportFile}\n`);
  };

  // Before any service starts, so that nothing else competes for the cores.
  let encoderReport: object | undefined;
  if (phases.has('encoders')) {
    const encoders = await encoderCost(EVAL_DIR);
    // Wall times stretch when other processes share the cores: the load says how far to trust them.
    const [loadAverage] = os.loadavg();
    printEncoderCost(encoders, loadAverage);
    encoderReport = { loadAverage, encoders };
  }
  if (process.argv.includes('--encoders-only')) return writeReport({ encoders: encoderReport });
  // The report file holds every finished phase while the run goes on, marked partial until the end.
  const checkpoint = (partial: Partial<ScaleReport>) =>
    saveReport({ partial: true, encoders: encoderReport, reports: [...reports, partial] });

  const source = option('corpus', path.join(EVAL_DIR, 'livecareer/pdf'));
  const corpus = loadCorpus(source, Number(option('limit', process.argv.includes('--only-scale') ? '0' : '1000000')));
  // The PDFs' own text is what the service indexes; the reference texts stand in for it here.
  const referenceTexts = readFileSync(path.join(EVAL_DIR, 'livecareer/resumes.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => (JSON.parse(l) as { text: string }).text);
  const texts = source.endsWith('.jsonl') ? corpus.map(([, bytes]) => bytes.toString('utf8')) : referenceTexts.slice(0, corpus.length);
  if (corpus.length > 0) {
    reports.push(await measure(path.basename(source), corpus, texts, queries, postings, rounds, checkpoint));
    print(reports[0]);
  }

  const scale = Number(option('scale', '0'));
  if (scale > 0) {
    const generated = [...generateCvs(loadSourceCvs(EVAL_DIR), scale)];
    const items: CorpusItem[] = generated.map((cv) => [cv.id, Buffer.from(cv.text), 'text/plain']);
    reports.push(
      await measure(
        `generated`,
        items,
        generated.map((cv) => cv.text),
        queries,
        postings,
        rounds,
        checkpoint,
      ),
    );
    print(reports[reports.length - 1]);
  }

  await writeReport({ encoders: encoderReport, reports });
}

main().catch((error: unknown) => {
  process.stderr.write(`bench: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
