/**
 * `npm run eval`: relevance through the real pipeline. Starts a fresh standalone instance, uploads
 * the livecareer PDFs (or a JSONL of texts as text files), runs every dev query through all four
 * search types over the API, and prints nDCG@10 (graded and grade-2), R@100 and MRR per type and
 * per query style, plus a JSON report.
 *
 *   npm run eval -- [--queries FILE] [--qrels FILE] [--corpus DIR_OF_PDFS | FILE.jsonl] [--limit N] [--report FILE]
 */
import { promises as fs, readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { ApiClient } from '../e2e/support/api-client';
import { EVAL_DIR, StandaloneService } from '../e2e/support/standalone-service';
import { ndcgAt, parseQrels, recallAt, reciprocalRank } from './metrics';

const TYPES = ['dense', 'sparse', 'hybrid', 'builtin-rerank'] as const;
type SearchType = (typeof TYPES)[number];

interface Query {
  id: string;
  style: string;
  text: string;
}

function option(name: string, fallback: string): string {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 && process.argv[at + 1] ? process.argv[at + 1] : fallback;
}

/** Corpus items: [external id, bytes, content type]. */
function loadCorpus(source: string, limit: number): Array<[string, Buffer, string]> {
  if (source.endsWith('.jsonl')) {
    return readFileSync(source, 'utf8')
      .split('\n')
      .filter(Boolean)
      .slice(0, limit)
      .map((line) => {
        const { id, text } = JSON.parse(line) as { id: string; text: string };
        return [String(id), Buffer.from(text), 'text/plain'];
      });
  }
  const items: Array<[string, Buffer, string]> = [];
  for (const category of readdirSync(source).sort()) {
    for (const file of readdirSync(path.join(source, category)).sort()) {
      items.push([path.basename(file, '.pdf'), readFileSync(path.join(source, category, file)), 'application/pdf']);
    }
  }
  return items.slice(0, limit);
}

async function pool<T>(items: T[], concurrency: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (next < items.length) await work(items[next++]);
  }));
}

async function main(): Promise<void> {
  const queriesFile = option('queries', path.join(EVAL_DIR, 'livecareer/queries.dev.jsonl'));
  const qrels = parseQrels(readFileSync(option('qrels', path.join(EVAL_DIR, 'livecareer/qrels.dev.trec')), 'utf8'));
  const corpus = loadCorpus(option('corpus', path.join(EVAL_DIR, 'livecareer/pdf')), Number(option('limit', '1000000')));
  const queries = readFileSync(queriesFile, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Query);

  const service = await StandaloneService.start({ INGESTION_CONCURRENCY: '2', SEARCH_CONCURRENCY: '2' });
  try {
    const admin = new ApiClient(service.baseUrl, undefined);
    const auth = { authorization: `Bearer ${service.adminToken}` };
    const company = (await admin.request('POST', '/admin/v1/companies', { json: { name: 'eval' }, headers: auth })).body;
    for (const category of ['upload-burst', 'upload-sustained', 'search', 'read']) {
      await admin.request('PUT', `/admin/v1/companies/${company.companyId}/limits/${category}`, { json: { limit: 1_000_000 }, headers: auth });
    }
    const client = new ApiClient(service.baseUrl, company.apiKey);

    const started = Date.now();
    const externalId = new Map<string, string>();
    await pool(corpus, 8, async ([id, bytes, type]) => {
      const answer = await client.upload(bytes, type, { documentName: id, documentDate: '01-2024', fileName: `${id}` });
      externalId.set(answer.body.documentId, id);
    });
    const documents = await client.waitForDocuments([...externalId.keys()], 3_600_000);
    const seconds = (Date.now() - started) / 1000;
    const statuses = [...documents.values()].reduce<Record<string, number>>((acc, d) => ({ ...acc, [d.status]: (acc[d.status] ?? 0) + 1 }), {});
    process.stdout.write(`ingested ${corpus.length} CVs in ${seconds.toFixed(1)} s (${(corpus.length / seconds).toFixed(1)} CVs/s): ${JSON.stringify(statuses)}\n`);

    const rows: Array<{ query: string; style: string; type: SearchType; ndcg10: number; ndcg10g2: number; r100: number; mrr: number; ms: number }> = [];
    for (const query of queries) {
      const judged = qrels.get(query.id) ?? new Map<string, number>();
      for (const type of TYPES) {
        const created = await client.post(`/v1/public/searches/${type}`, { query: query.text, top_k: 100, rerank_top_n: 100 });
        const status = await client.waitForSearch(created.body.searchId, 60_000);
        const ranking = status.status === 'completed'
          ? ((await client.get(`/v1/public/searches/${created.body.searchId}/results`)).body.results as Array<{ documentId: string }>).map((r) => externalId.get(r.documentId) ?? '')
          : [];
        rows.push({ query: query.id, style: query.style, type, ndcg10: ndcgAt(ranking, judged, 10), ndcg10g2: ndcgAt(ranking, judged, 10, 2), r100: recallAt(ranking, judged, 100), mrr: reciprocalRank(ranking, judged), ms: status.processingTimeMs ?? 0 });
      }
    }

    const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);
    const summarize = (subset: typeof rows) => ({
      queries: subset.length,
      ndcg10: mean(subset.map((r) => r.ndcg10)),
      ndcg10Grade2: mean(subset.map((r) => r.ndcg10g2)),
      recall100: mean(subset.map((r) => r.r100)),
      mrr: mean(subset.map((r) => r.mrr)),
    });
    const styles = [...new Set(queries.map((q) => q.style))];
    const report: Record<string, unknown> = { corpus: corpus.length, ingestionCvsPerSecond: corpus.length / seconds, byType: {}, byTypeAndStyle: {} };
    const line = (label: string, s: ReturnType<typeof summarize>) =>
      `${label.padEnd(30)} ${String(s.queries).padStart(4)}  ${s.ndcg10.toFixed(3)}    ${s.ndcg10Grade2.toFixed(3)}      ${s.recall100.toFixed(3)}  ${s.mrr.toFixed(3)}\n`;
    process.stdout.write(`\n${'type / style'.padEnd(30)} ${'n'.padStart(4)}  nDCG@10  nDCG@10(g2)  R@100  MRR\n`);
    for (const type of TYPES) {
      const s = summarize(rows.filter((r) => r.type === type));
      (report.byType as Record<string, unknown>)[type] = s;
      process.stdout.write(line(type, s));
      for (const style of styles) {
        const ss = summarize(rows.filter((r) => r.type === type && r.style === style));
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

main().catch((error: unknown) => {
  process.stderr.write(`eval: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
