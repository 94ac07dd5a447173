/**
 * `npm run eval`: relevance through the real pipeline. Starts a fresh standalone instance, uploads
 * the livecareer PDFs (or a JSONL of texts as text files), runs every dev query through all four
 * search types over the API, and prints nDCG@10 (graded and grade-2), R@100 and MRR per type and
 * per query style, plus a JSON report.
 *
 *   EVAL_DIR=<evaluation set> npm run eval -- [--queries FILE] [--qrels FILE] [--postings FILE] [--posting-qrels FILE] [--postings-only]
 *     [--corpus DIR_OF_PDFS | FILE.jsonl] [--limit N] [--data DIR] [--tuning JSON] [--report FILE]
 *
 * `--data DIR` keeps the instance's data in DIR: a later run with the same DIR measures the CVs
 * there without ingesting them again.
 *
 * Then each job posting of `--postings` (the dev postings by default) runs through `match`, and
 * through `hybrid` with the posting cut to the 500 characters a query holds (the baseline), judged
 * by `--posting-qrels`.
 *
 * With `--folds`, each tuned choice of the ranking measured on and off under leave-one-category-out (eval-folds.ts).
 */
import { existsSync, promises as fs, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { EVAL_DIR } from '../e2e/support/standalone-service';
import { QUERY_SEARCH_TYPES as SEARCH_TYPES } from '@cs/search-domain';
import { ingest, ingestedIds, loadCorpus, option, startInstance, type EvalInstance } from './harness';
import { runFolds } from './eval-folds';
import { ndcgAt, parseQrels, recallAt, reciprocalRank } from './metrics';

interface Query {
  id: string;
  style: string;
  text: string;
}

interface Posting {
  id: string;
  category: string;
  text: string;
}

/** The rows of a ranking judged against its qrels. */
interface Row {
  query: string;
  style: string;
  type: string;
  ndcg10: number;
  ndcg10g2: number;
  r100: number;
  mrr: number;
  ms: number;
}

/** A search run to its end and judged: its ranking's figures (all 0 when it failed or was refused). */
async function judged(
  client: EvalInstance['client'],
  externalId: ReadonlyMap<string, string>,
  path: string,
  body: Record<string, unknown>,
  judgements: Map<string, number>,
): Promise<Omit<Row, 'query' | 'style' | 'type'>> {
  const created = await client.post(path, body);
  if (created.status !== 202 && created.status !== 200) {
    process.stderr.write(`  ${path}: ${created.status} ${JSON.stringify(created.body)}\n`);
    return { ndcg10: 0, ndcg10g2: 0, r100: 0, mrr: 0, ms: 0 };
  }
  const status = await client.waitForSearch(created.body.searchId, 60_000);
  const ranking =
    status.status === 'completed'
      ? ((await client.get(`/v1/public/searches/${created.body.searchId}/results`)).body.results as { documentId: string }[]).map(
          (r) => externalId.get(r.documentId) ?? '',
        )
      : [];
  return {
    ndcg10: ndcgAt(ranking, judgements, 10),
    ndcg10g2: ndcgAt(ranking, judgements, 10, 2),
    r100: recallAt(ranking, judgements, 100),
    mrr: reciprocalRank(ranking, judgements),
    ms: status.processingTimeMs ?? 0,
  };
}

async function main(): Promise<void> {
  const queriesFile = option('queries', path.join(EVAL_DIR, 'livecareer/queries.dev.jsonl'));
  const qrelsFile = option('qrels', path.join(EVAL_DIR, 'livecareer/qrels.dev.trec'));
  const corpusSource = option('corpus', path.join(EVAL_DIR, 'livecareer/pdf'));
  const absent = [queriesFile, qrelsFile, corpusSource].filter((file) => !existsSync(file));
  if (absent.length) {
    process.stderr.write(
      `eval: no ${absent.map((file) => path.resolve(file)).join(', ')}: set EVAL_DIR to the evaluation set's folder (livecareer/pdf, livecareer/queries.dev.jsonl, livecareer/qrels.dev.trec; see docs/relevance.md), or name the files with --queries, --qrels and --corpus.\n`,
    );
    process.exit(1);
  }
  const qrels = parseQrels(readFileSync(qrelsFile, 'utf8'));
  const corpus = loadCorpus(corpusSource, Number(option('limit', '1000000')));
  const queries = readFileSync(queriesFile, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Query);

  const dataDir = option('data', '');
  // `--tuning JSON`: ranking choices other than the shipped ones (RANKING_TUNING), for trying one.
  const tuning = option('tuning', '');
  const { service, client, reused } = await startInstance(
    tuning ? { RANKING_TUNING: tuning } : {},
    dataDir ? path.resolve(dataDir) : undefined,
  );
  try {
    let externalId: Map<string, string>;
    let seconds = NaN;
    if (reused) {
      externalId = await ingestedIds(client);
      process.stdout.write(`reusing the ${externalId.size} CVs in ${service.dataDir}\n`);
    } else {
      const ingested = await ingest(client, corpus);
      ({ externalId, seconds } = ingested);
      process.stdout.write(
        `ingested ${corpus.length} CVs in ${seconds.toFixed(1)} s (${(corpus.length / seconds).toFixed(1)} CVs/s): ${JSON.stringify(ingested.statuses)}\n`,
      );
    }

    const rows: Row[] = [];
    for (const query of process.argv.includes('--postings-only') ? [] : queries) {
      const judgements = qrels.get(query.id) ?? new Map<string, number>();
      for (const type of SEARCH_TYPES) {
        const body = { query: query.text, top_k: 100, rerank_top_n: 100 };
        rows.push({
          query: query.id,
          style: query.style,
          type,
          ...(await judged(client, externalId, `/v1/public/searches/${type}`, body, judgements)),
        });
      }
    }
    const postingsFile = option('postings', path.join(EVAL_DIR, 'livecareer/jd.dev.jsonl'));
    const postingQrels = parseQrels(readFileSync(option('posting-qrels', path.join(EVAL_DIR, 'livecareer/qrels.jd.dev.trec')), 'utf8'));
    const postings = readFileSync(postingsFile, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Posting);
    for (const posting of postings) {
      const judgements = postingQrels.get(posting.id) ?? new Map<string, number>();
      const row = { query: posting.id, style: 'posting' };
      const match = { jobDescription: posting.text, top_k: 100 };
      rows.push({ ...row, type: 'match', ...(await judged(client, externalId, '/v1/public/searches/match', match, judgements)) });
      // What a query holds of it: its first 500 characters, without the characters the keyword query language reads as operators.
      const cut = { query: posting.text.slice(0, 500).replace(/[-+()":*!^~[\]{}|&]/g, ' '), top_k: 100, rerank_top_n: 100 };
      rows.push({ ...row, type: 'hybrid-500', ...(await judged(client, externalId, '/v1/public/searches/hybrid', cut, judgements)) });
    }

    const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);
    const summarize = (subset: typeof rows) => ({
      queries: subset.length,
      ndcg10: mean(subset.map((r) => r.ndcg10)),
      ndcg10Grade2: mean(subset.map((r) => r.ndcg10g2)),
      recall100: mean(subset.map((r) => r.r100)),
      mrr: mean(subset.map((r) => r.mrr)),
    });
    const styles = [...new Set(rows.map((r) => r.style))];
    const report: Record<string, unknown> = {
      corpus: corpus.length,
      ingestionCvsPerSecond: corpus.length / seconds,
      byType: {},
      byTypeAndStyle: {},
    };
    const line = (label: string, s: ReturnType<typeof summarize>) =>
      `${label.padEnd(30)} ${String(s.queries).padStart(4)}  ${s.ndcg10.toFixed(3)}    ${s.ndcg10Grade2.toFixed(3)}      ${s.recall100.toFixed(3)}  ${s.mrr.toFixed(3)}\n`;
    process.stdout.write(`\n${'type / style'.padEnd(30)} ${'n'.padStart(4)}  nDCG@10  nDCG@10(g2)  R@100  MRR\n`);
    for (const type of [...SEARCH_TYPES, 'match', 'hybrid-500']) {
      const s = summarize(rows.filter((r) => r.type === type));
      (report.byType as Record<string, unknown>)[type] = s;
      process.stdout.write(line(type, s));
      for (const style of styles) {
        const ss = summarize(rows.filter((r) => r.type === type && r.style === style));
        if (ss.queries === 0) continue;
        (report.byTypeAndStyle as Record<string, unknown>)[`${type}/${style}`] = ss;
        process.stdout.write(line(`  ${style}`, ss));
      }
    }
    const reportFile = option('report', path.join(process.cwd(), 'tmp', 'eval-report.json'));
    await fs.mkdir(path.dirname(reportFile), { recursive: true });
    await fs.writeFile(reportFile, JSON.stringify({ ...report, rows }, null, 2));
    process.stdout.write(`\nreport: ${reportFile}\n`);
  } catch (error) {
    process.stderr.write(`service log (tail):\n${service.logs.slice(-3000)}\n`);
    throw error;
  } finally {
    await service.destroy();
  }
}

(process.argv.includes('--folds') ? runFolds() : main()).catch((error: unknown) => {
  process.stderr.write(`eval: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
