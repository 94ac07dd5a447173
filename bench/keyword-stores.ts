/**
 * The embedded keyword index measured in-process (libs/embedded-bm25), one store per run so that
 * the memory figures of stores compared stay apart. Over the livecareer texts it prints nDCG@10 and R@100 on the dev and
 * semantic dev queries; with `--scale N`, over N generated CVs (bench/cv-generator.ts), times and
 * memory only. Both print the build time, search p50/p95 (the queries of both files, after a
 * round that warms up), the RSS after the build, and the time to reopen and answer a first search.
 * With `--serve`, the store in `--data` (built by an earlier run given that folder) is opened and
 * searched without building: the memory of a restarted service, without the build's garbage or
 * the CV texts the build holds.
 *
 *   node --expose-gc -r @swc-node/register bench/keyword-stores.ts --store embedded [--scale N] [--rounds R] [--data DIR [--serve]]
 */
import { promises as fs, readFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { EmbeddedBm25Index } from '@cs/embedded-bm25';
import type { KeywordIndex } from '@cs/ports';
import { parseQuery } from '@cs/text-analysis';
import { EVAL_DIR } from '../e2e/support/standalone-service';
import { generateCvs, loadSourceCvs } from './cv-generator';
import { option } from './harness';
import { ndcgAt, parseQrels, recallAt } from './metrics';

const COMPANY = 'bench';
/** Writes in flight at once while building, as ingestion's workers keep several going. */
const CONCURRENT_WRITES = 32;
const QUERY_SETS = [
  { name: 'dev', queries: 'livecareer/queries.dev.jsonl', qrels: 'livecareer/qrels.dev.trec' },
  { name: 'semantic dev', queries: 'livecareer/queries.semantic.dev.jsonl', qrels: 'livecareer/qrels.semantic.dev.trec' },
];

const STORES: Record<string, (dataDir: string) => Promise<KeywordIndex>> = {
  embedded: (dataDir) => EmbeddedBm25Index.open(dataDir),
};

const readJsonl = <T>(file: string): T[] =>
  readFileSync(path.join(EVAL_DIR, file), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as T);

const percentile = (sorted: readonly number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];

/** The RSS in MiB after a collection (when `--expose-gc` allows one). */
function rssMiB(): number {
  (globalThis as { gc?: () => void }).gc?.();
  return process.memoryUsage().rss / 2 ** 20;
}

async function timed<T>(work: () => Promise<T>): Promise<[T, number]> {
  const start = performance.now();
  const result = await work();
  return [result, performance.now() - start];
}

async function main(): Promise<void> {
  const storeName = option('store', 'embedded');
  const open = STORES[storeName];
  if (!open) throw new Error(`--store is one of ${Object.keys(STORES).join(', ')}`);
  const scale = Number(option('scale', '0'));
  const rounds = Number(option('rounds', '3'));
  const dataDir = option('data', '') || (await fs.mkdtemp(path.join(os.tmpdir(), `keyword-stores-${storeName}-`)));

  const serve = process.argv.includes('--serve');
  if (serve && !option('data', '')) throw new Error('--serve opens the store an earlier run built in --data');
  const cvs = serve
    ? []
    : scale > 0
      ? [...generateCvs(loadSourceCvs(EVAL_DIR), scale)]
      : readJsonl<{ id: string; text: string }>('livecareer/resumes.jsonl').filter((cv) => cv.text.trim());
  const sets = QUERY_SETS.map((set) => ({
    ...set,
    queries: readJsonl<{ id: string; text: string }>(set.queries),
    qrels: parseQrels(readFileSync(path.join(EVAL_DIR, set.qrels), 'utf8')),
  }));
  const baseRss = rssMiB();

  let index = await open(dataDir);
  const [, buildMs] = await timed(async () => {
    if (serve) return;
    let next = 0;
    const writer = async () => {
      while (next < cvs.length) {
        const cv = cvs[next++];
        await index.upsert(COMPANY, cv.id, cv.text);
      }
    };
    await Promise.all(Array.from({ length: CONCURRENT_WRITES }, writer));
  });
  // The first search: a store that indexes lazily does that work then.
  const [, firstSearchMs] = await timed(() => index.search(COMPANY, parseQuery('manager'), 100));
  const builtRss = rssMiB();
  const out = (line: string) => process.stdout.write(`${line}\n`);
  const built = serve
    ? `the CVs already in ${dataDir}`
    : `${cvs.length} CVs (${scale > 0 ? 'generated' : 'livecareer resumes.jsonl'}) in ${dataDir}`;
  out(`${storeName}: ${built}`);
  out(`build ${(buildMs / 1000).toFixed(1)} s, then first search ${(firstSearchMs / 1000).toFixed(2)} s`);
  out(`RSS after build ${builtRss.toFixed(0)} MiB (${baseRss.toFixed(0)} MiB before opening the store)`);

  const report: Record<string, unknown> = { store: storeName, cvs: cvs.length, scale, buildMs, firstSearchMs, baseRss, builtRss };
  if (scale === 0) {
    for (const set of sets) {
      let ndcg = 0;
      let recall = 0;
      for (const query of set.queries) {
        const judged = set.qrels.get(query.id) ?? new Map<string, number>();
        const ranking = (await index.search(COMPANY, parseQuery(query.text), 100)).map((hit) => hit.documentId);
        ndcg += ndcgAt(ranking, judged, 10);
        recall += recallAt(ranking, judged, 100);
      }
      const [n, r] = [ndcg / set.queries.length, recall / set.queries.length];
      out(`${set.name.padEnd(13)} ${String(set.queries.length).padStart(3)} queries  nDCG@10 ${n.toFixed(3)}  R@100 ${r.toFixed(3)}`);
      report[set.name] = { queries: set.queries.length, ndcg10: n, recall100: r };
    }
  }

  const queries = sets.flatMap((set) => set.queries.map((q) => parseQuery(q.text)));
  const times: number[] = [];
  for (let round = 0; round <= rounds; round++) {
    for (const query of queries) {
      const [, ms] = await timed(() => index.search(COMPANY, query, 100));
      if (round > 0) times.push(ms);
    }
  }
  times.sort((a, b) => a - b);
  const [p50, p95] = [percentile(times, 0.5), percentile(times, 0.95)];
  const searchedRss = rssMiB();
  out(
    `search top 100: p50 ${p50.toFixed(1)} ms, p95 ${p95.toFixed(1)} ms (${times.length} searches); RSS after ${searchedRss.toFixed(0)} MiB`,
  );

  await index.close();
  const [reopened, reopenMs] = await timed(() => open(dataDir));
  index = reopened;
  const [, reopenSearchMs] = await timed(() => index.search(COMPANY, queries[0], 100));
  const reopenedRss = rssMiB();
  out(
    `reopen ${(reopenMs / 1000).toFixed(2)} s, first search after it ${(reopenSearchMs / 1000).toFixed(2)} s; RSS ${reopenedRss.toFixed(0)} MiB`,
  );
  await index.close();
  Object.assign(report, { p50, p95, searchedRss, reopenMs, reopenSearchMs, reopenedRss });
  out(JSON.stringify(report));
  if (!option('data', '')) await fs.rm(dataDir, { recursive: true, force: true });
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
