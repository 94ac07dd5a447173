/**
 * `npm run eval -- --folds`: whether the builtin ranking's tuned choices hold on queries they
 * were not chosen on. Each choice (RankingTuning) is measured on and off through the running
 * service, over the shared sets (dev, semantic dev, and the job postings cut to a query's 500
 * characters), every type, top_k 100. Then leave-one-category-out: for each of the 12 categories,
 * its queries are scored with the option chosen (by mean nDCG@10) on the other 11 categories'
 * queries, and the mean over those folds is set beside the in-sample figure. A choice that the
 * folds always make the same way scores as in-sample; one that flips with the category left out
 * scores lower, which is what fitting the dev queries looks like.
 *
 *   EVAL_DIR=<evaluation set> npm run eval -- --folds [--data DIR] [--components a,b] [--tuning JSON] [--report FILE]
 *
 * `--data` keeps each index's data and each configuration's per-query figures (default
 * tmp/eval-folds), so a second run measures only what is new. `--tuning` is the base the
 * components are switched off from (default: as shipped).
 */
import { createHash } from 'node:crypto';
import { existsSync, promises as fs, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { EVAL_DIR } from '../e2e/support/standalone-service';
import { rankingTuningSchema, type RankingTuning } from '@cs/ranking';
import { QUERY_SEARCH_TYPES as SEARCH_TYPES, type QuerySearchType as SearchType } from '@cs/search-domain';
import { ingest, loadCorpus, option, pool, startInstance } from './harness';
import { ndcgAt, parseQrels, recallAt, reciprocalRank, type Qrels } from './metrics';

const SETS = ['dev', 'semantic', 'jd'] as const;
type SetName = (typeof SETS)[number];

interface EvalQuery {
  id: string;
  set: SetName;
  category: string;
  text: string;
}

interface Row {
  query: string;
  type: SearchType;
  ndcg10: number;
  ndcg10g2: number;
  r100: number;
  mrr: number;
}

/** A tuned choice, the tuning that takes it back, and the other values it was chosen among. */
interface Component {
  key: string;
  label: string;
  off: Partial<RankingTuning>;
  others?: Partial<RankingTuning>[];
  /** The types it can move. */
  types: readonly SearchType[];
  /** The set it was added for; null for a capability no query of these sets calls on, which need only not fall. */
  target: SetName | null;
}

const RERANKED: readonly SearchType[] = ['hybrid', 'builtin-rerank'];
const WITH_DENSE: readonly SearchType[] = ['dense', 'hybrid', 'builtin-rerank'];

export const COMPONENTS: readonly Component[] = [
  { key: 'typos', label: 'typo repair', off: { typoRepair: false }, types: WITH_DENSE, target: 'semantic' },
  {
    key: 'dense-feedback',
    label: 'dense pseudo-relevance feedback (weight 2)',
    off: { denseFeedbackWeight: 0 },
    others: [{ denseFeedbackWeight: 1 }, { denseFeedbackWeight: 3 }],
    types: WITH_DENSE,
    target: 'semantic',
  },
  {
    key: 'dense-headline',
    label: 'headline in the CV vector (0.25)',
    off: { denseHeadlineWeight: 0 },
    others: [{ denseHeadlineWeight: 0.5 }],
    types: WITH_DENSE,
    target: 'dev',
  },
  // Of these queries only two (`servsafe`) and three postings hold a word the vectors lack.
  { key: 'induction', label: '"a la carte" induction', off: { inducedWords: 0 }, types: WITH_DENSE, target: null },
  {
    key: 'reranker-weights',
    label: "reranker's tuned weights (against equal ones)",
    off: { rerankerWeights: { semantic: 0.2, keyword: 0.2, coverage: 0.2, headline: 0.2, firstStage: 0.2 } },
    // The weights before the headline was lowered for the semantic queries.
    others: [{ rerankerWeights: { semantic: 0.3, keyword: 0.35, coverage: 0.1, headline: 0.15, firstStage: 0.3 } }],
    types: RERANKED,
    target: 'semantic',
  },
  {
    key: 'reranker-feedback',
    label: "reranker's feedback on the first 20",
    off: { rerankerFeedback: false },
    types: RERANKED,
    target: 'dev',
  },
  { key: 'reranker-neighbours', label: "reranker's neighbours", off: { rerankerNeighbours: false }, types: RERANKED, target: 'dev' },
];

/**
 * What a set's mean nDCG@10 moves by without meaning anything: one query of twelve moving by 0.06.
 * A choice holds when its fold mean falls by no more than this on any set, and rises by more on the set it targets.
 */
const NOISE = 0.005;

/** The longest query the API takes. */
const QUERY_CHARS = 500;

function loadSets(): { queries: EvalQuery[]; qrels: Qrels } {
  const dir = path.join(EVAL_DIR, 'livecareer');
  const files: Record<SetName, [string, string]> = {
    dev: ['queries.dev.jsonl', 'qrels.dev.trec'],
    semantic: ['queries.semantic.dev.jsonl', 'qrels.semantic.dev.trec'],
    jd: ['jd.dev.jsonl', 'qrels.jd.dev.trec'],
  };
  const absent = Object.values(files)
    .flat()
    .map((f) => path.join(dir, f))
    .filter((f) => !existsSync(f));
  if (absent.length) {
    process.stderr.write(`eval --folds: no ${absent.join(', ')}: set EVAL_DIR to the evaluation set's folder (see docs/relevance.md).\n`);
    process.exit(1);
  }
  const queries: EvalQuery[] = [];
  const qrels: Qrels = new Map();
  for (const set of SETS) {
    const [queryFile, qrelsFile] = files[set].map((f) => path.join(dir, f));
    for (const line of readFileSync(queryFile, 'utf8').split('\n').filter(Boolean)) {
      const q = JSON.parse(line) as { id: string; category: string; text: string };
      queries.push({ id: q.id, set, category: q.category, text: set === 'jd' ? cutAtWord(q.text, QUERY_CHARS) : q.text });
    }
    for (const [id, judged] of parseQrels(readFileSync(qrelsFile, 'utf8'))) qrels.set(id, judged);
  }
  return { queries, qrels };
}

/** The text's first `max` characters, ending at a word. */
function cutAtWord(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= max) return flat;
  const cut = flat.slice(0, max + 1);
  return cut.slice(0, cut.lastIndexOf(' ')).trim();
}

/** JSON with every object's keys sorted, at every depth. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => a.localeCompare(b));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
}

const mean = (xs: readonly number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);

/** Per-query figures of one configuration: measured through a service on its index, or read from an earlier run. */
async function measure(tuning: Partial<RankingTuning>, dataRoot: string, queries: readonly EvalQuery[], qrels: Qrels): Promise<Row[]> {
  // Keyed by every choice as it resolves, so that a default changed in the code is not read as the old one.
  const key = canonical(rankingTuningSchema.parse(tuning));
  const cacheFile = path.join(dataRoot, 'figures', `${createHash('sha256').update(key).digest('hex').slice(0, 16)}.json`);
  if (existsSync(cacheFile)) return (JSON.parse(readFileSync(cacheFile, 'utf8')) as { rows: Row[] }).rows;
  // CVs' vectors depend on the headline weight alone: one index per weight.
  const indexDir = path.join(dataRoot, `index-headline-${tuning.denseHeadlineWeight ?? 'shipped'}`);
  const { service, client, reused } = await startInstance({ RANKING_TUNING: JSON.stringify(tuning) }, indexDir);
  try {
    if (!reused) {
      const corpus = loadCorpus(path.join(EVAL_DIR, 'livecareer/pdf'), Infinity);
      const { seconds, statuses } = await ingest(client, corpus);
      process.stdout.write(`  ingested ${corpus.length} CVs in ${seconds.toFixed(0)} s: ${JSON.stringify(statuses)}\n`);
    }
    const rows: Row[] = [];
    const work = queries.flatMap((query) => SEARCH_TYPES.map((type) => ({ query, type })));
    await pool(work, 2, async ({ query, type }) => {
      const created = await client.request('POST', `/v1/public/searches/${type}`, {
        json: { query: query.text, top_k: 100, rerank_top_n: 100 },
        headers: { prefer: 'wait=60' },
      });
      if (created.body.status !== 'completed') throw new Error(`${type} "${query.id}" ended ${String(created.body.status)}`);
      const results = (await client.get(`/v1/public/searches/${created.body.searchId}/results?limit=100`)).body.results as {
        documentName: string;
      }[];
      const ranking = results.map((r) => r.documentName);
      const judged = qrels.get(query.id) ?? new Map<string, number>();
      rows.push({
        query: query.id,
        type,
        ndcg10: ndcgAt(ranking, judged, 10),
        ndcg10g2: ndcgAt(ranking, judged, 10, 2),
        r100: recallAt(ranking, judged, 100),
        mrr: reciprocalRank(ranking, judged),
      });
    });
    await fs.mkdir(path.dirname(cacheFile), { recursive: true });
    await fs.writeFile(cacheFile, JSON.stringify({ tuning, rows }));
    return rows;
  } catch (error) {
    process.stderr.write(`service log (tail):\n${service.logs.slice(-3000)}\n`);
    throw error;
  } finally {
    await service.destroy();
  }
}

/** Figures of one configuration, looked up by type and query. */
class Figures {
  private readonly byKey: Map<string, Row>;
  constructor(
    readonly name: string,
    rows: readonly Row[],
  ) {
    this.byKey = new Map(rows.map((r) => [`${r.type}|${r.query}`, r]));
  }
  of(type: SearchType, query: string): Row {
    const row = this.byKey.get(`${type}|${query}`);
    if (!row) throw new Error(`${this.name}: no ${type} figures for ${query}`);
    return row;
  }
  /** Mean nDCG@10 over the types, each set weighing the same, on the queries `keep` lets in. */
  objective(types: readonly SearchType[], queries: readonly EvalQuery[], keep: (q: EvalQuery) => boolean): number {
    return mean(
      SETS.map((set) =>
        mean(types.flatMap((type) => queries.filter((q) => q.set === set && keep(q)).map((q) => this.of(type, q.id).ndcg10))),
      ),
    );
  }
}

/** For each category, the option chosen on the other categories' queries (the first, as shipped, on a tie). */
function choicesByFold(options: readonly Figures[], types: readonly SearchType[], queries: readonly EvalQuery[]): Map<string, Figures> {
  const categories = [...new Set(queries.map((q) => q.category))].sort();
  return new Map(
    categories.map((category) => {
      const scored = options.map((o) => o.objective(types, queries, (q) => q.category !== category));
      const best = scored.reduce((at, s, i) => (s > scored[at] + 1e-9 ? i : at), 0);
      return [category, options[best]];
    }),
  );
}

type Metric = 'ndcg10' | 'r100';

/** A set's figure for a type: every query scored by `pick`'s configuration for its category. */
function figure(queries: readonly EvalQuery[], set: SetName, type: SearchType, metric: Metric, pick: (q: EvalQuery) => Figures): number {
  return mean(queries.filter((q) => q.set === set).map((q) => pick(q).of(type, q.id)[metric]));
}

const f3 = (x: number) => x.toFixed(3);

export async function runFolds(): Promise<void> {
  const { queries, qrels } = loadSets();
  const dataRoot = path.resolve(option('data', path.join('tmp', 'eval-folds')));
  const base = JSON.parse(option('tuning', '{}')) as Partial<RankingTuning>;
  const only = option('components', '');
  const components = COMPONENTS.filter((c) => !only || only.split(',').includes(c.key));
  process.stdout.write(
    `${queries.length} queries (${SETS.map((s) => `${s} ${queries.filter((q) => q.set === s).length}`).join(', ')}), data in ${dataRoot}\n`,
  );

  process.stdout.write('measuring the base configuration\n');
  const shipped = new Figures('base', await measure(base, dataRoot, queries, qrels));
  const offs: Figures[] = [];
  const others: Figures[][] = [];
  for (const component of components) {
    process.stdout.write(`measuring without ${component.label}\n`);
    offs.push(new Figures(`no ${component.key}`, await measure({ ...base, ...component.off }, dataRoot, queries, qrels)));
    const alternatives: Figures[] = [];
    for (const other of component.others ?? []) {
      process.stdout.write(`measuring ${JSON.stringify(other)}\n`);
      alternatives.push(new Figures(JSON.stringify(other), await measure({ ...base, ...other }, dataRoot, queries, qrels)));
    }
    others.push(alternatives);
  }

  const report: Record<string, unknown> = { base, queries: queries.length, components: [] as unknown[] };
  const header = `${'type'.padEnd(16)}${SETS.map((s) => `${s} in-sample  folds`.padStart(26)).join('')}\n`;

  // The ranking as a whole: each category scored with the configuration (base, or one choice taken back) chosen on the others.
  const all = [shipped, ...offs, ...others.flat()];
  const systemChoice = choicesByFold(all, SEARCH_TYPES, queries);
  process.stdout.write(
    `\nThe ranking, nDCG@10 (R@100): in-sample as configured; folds with the configuration chosen without each category\n${header}`,
  );
  const system: Record<string, unknown> = {};
  for (const type of SEARCH_TYPES) {
    const cells = SETS.map((set) => {
      const inSample = figure(queries, set, type, 'ndcg10', () => shipped);
      const folds = figure(queries, set, type, 'ndcg10', (q) => systemChoice.get(q.category)!);
      const r = figure(queries, set, type, 'r100', () => shipped);
      const rFolds = figure(queries, set, type, 'r100', (q) => systemChoice.get(q.category)!);
      system[`${type}/${set}`] = { inSample, folds, r100InSample: r, r100Folds: rFolds };
      return `${f3(inSample)} (${f3(r)})  ${f3(folds)} (${f3(rFolds)})`.padStart(26);
    });
    process.stdout.write(`${type.padEnd(16)}${cells.join('')}\n`);
  }
  const perCategory = [...systemChoice].map(([category, choice]) => ({
    category,
    chosen: choice.name,
    ndcg10: Object.fromEntries(
      SEARCH_TYPES.map((type) => [type, mean(queries.filter((q) => q.category === category).map((q) => choice.of(type, q.id).ndcg10))]),
    ),
  }));
  process.stdout.write(`per category left out: ${perCategory.map((c) => `${c.category} -> ${c.chosen}`).join(', ')}\n`);
  report.system = { figures: system, perCategory };

  process.stdout.write('\nEach choice, nDCG@10 over the types it moves: on (as configured) / off / folds; folds choosing it\n');
  for (const [i, component] of components.entries()) {
    const off = offs[i];
    // Chosen again without each category, among its values: as configured, the others tried, and none.
    const choice = choicesByFold([shipped, ...others[i], off], component.types, queries);
    const kept = [...choice.values()].filter((c) => c !== off).length;
    const bySet = SETS.map((set) => {
      const over = (pick: (q: EvalQuery) => Figures) => mean(component.types.map((type) => figure(queries, set, type, 'ndcg10', pick)));
      return { set, on: over(() => shipped), off: over(() => off), folds: over((q) => choice.get(q.category)!) };
    });
    const target = bySet.find((s) => s.set === component.target);
    const holds = bySet.every((s) => s.folds >= s.off - NOISE) && (!target || target.folds > target.off + NOISE);
    const byType = Object.fromEntries(
      component.types.map((type) => [
        type,
        Object.fromEntries(
          SETS.map((set) => [
            set,
            { on: figure(queries, set, type, 'ndcg10', () => shipped), off: figure(queries, set, type, 'ndcg10', () => off) },
          ]),
        ),
      ]),
    );
    (report.components as unknown[]).push({ ...component, bySet, byType, foldsChoosingIt: kept, holds });
    process.stdout.write(
      `${component.label.padEnd(48)} ${bySet.map((s) => `${s.set} ${f3(s.on)}/${f3(s.off)}/${f3(s.folds)}`).join('  ')}  ${kept}/${choice.size}  ${holds ? 'holds' : 'does not hold'} (targets ${component.target ?? 'none of these sets'})\n`,
    );
  }
  const reportFile = option('report', path.join(process.cwd(), 'tmp', 'eval-folds-report.json'));
  await fs.mkdir(path.dirname(reportFile), { recursive: true });
  await fs.writeFile(reportFile, JSON.stringify(report, null, 2));
  process.stdout.write(`\nreport: ${reportFile}\n`);
}
