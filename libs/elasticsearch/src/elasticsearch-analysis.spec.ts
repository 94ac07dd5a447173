import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { describeWith, testEnvironment } from '@cs/test-services';
import { analyze } from '@cs/text-analysis';
import { newStemmer } from 'snowball-stemmers';
import { ANALYSIS } from './elasticsearch-analysis';
import { AnalysisInterpreter } from './testing/analysis-interpreter';
// eslint-disable-next-line @typescript-eslint/no-require-imports
const winkPorter2: (word: string) => string = require('wink-porter2-stemmer');

const elasticsearch = new AnalysisInterpreter(ANALYSIS);
const embedded = (text: string) => analyze(text).map((t) => t.term);
const snowball = newStemmer('english');

/**
 * The deliberate differences, each a term of the same place: where the embedded stemmer
 * (wink-porter2-stemmer) and Elasticsearch's (Lucene's Snowball English) stem a word apart. Both
 * implement Porter2; wink's suffix rules want a letter before the suffix (sses stays sses) and
 * differ on a few short words (aed gives ae, not a). Any other difference is an error.
 */
function differences(text: string): { stemmedApart: [word: string, embedded: string, elasticsearch: string][]; other: boolean } {
  const ours = analyze(text);
  const theirs = elasticsearch.terms('cs_text', text);
  if (ours.length !== theirs.length) return { stemmedApart: [], other: true };
  const stemmedApart: [string, string, string][] = [];
  let other = false;
  ours.forEach((t, i) => {
    if (t.term === theirs[i]) return;
    if (winkPorter2(t.text) === t.term && snowball.stem(t.text) === theirs[i]) stemmedApart.push([t.text, t.term, theirs[i]]);
    else other = true;
  });
  return { stemmedApart, other };
}

/** Texts that exercise each part of the analysis: technical names, slashes, dots, stop words, both kinds of synonym. */
const SAMPLES = [
  'Skills: C++, C#, .NET, Node.js, ASP.NET and CI/CD pipelines.',
  'Sales/Marketing lead. Managed 5 people. Versions 2.0 and .5, the .NETCore port, .net/c# and x/ci/cd.',
  'Senior C# developer: ASP.NET, k8s, JS, ReactJS, react.js, NodeJS, Postgres and psql on AWS.',
  'Worked with the United States Department of Agriculture and the U.S. Department of Agriculture (USDA).',
  'Microsoft SQL Server and then SQL Server again; the Federal  Aviation, Administration.',
  'Google Cloud Platform, machine learning, natural language processing, site reliability engineering.',
  'Heating, ventilation and air conditioning (HVAC); A/P, A/R, G/L and P&L; KPIs and SLAs; key performance indicators.',
  'Registered nurse (RN) with electronic medical records; licensed practical nurse; certified public accountant.',
  'Quality assurance, user experience, search engine optimisation, customer relationship management.',
  'TCP/IP, PL/SQL, I/O, UI/UX, B2B/B2C, R&D; a/b testing; ci/cd.x; C++/Java; c+.net; Node.js/React.',
  'Café owner in Zürich — naïve résumé: é ß ж _ 2019-2021, $50,000, 24/7 and 100% on-time.',
  'The candidates who are looking for experience should not be hired; they were, however, generous and happily dying skies.',
];

describe('Elasticsearch analysis generated from text-analysis', () => {
  it('yields the embedded analyzer’s terms, token by token, on texts that exercise every part', () => {
    for (const text of SAMPLES) expect([text, elasticsearch.terms('cs_text', text)]).toEqual([text, embedded(text)]);
  });

  it('stems with Porter2, keeps technical names and numbers as written, and applies both kinds of synonym', () => {
    expect(elasticsearch.terms('cs_text', 'Generously managed k8s clusters, ASP.NET and machine learning for SQL Servers')).toEqual([
      'generous',
      'manag',
      'kubernet',
      'cluster',
      'asp.net',
      'machin',
      'learn',
      'ml',
      'sql',
      'server',
      'mssql',
    ]);
  });

  it('differs where the two Porter2 implementations do, and where lowercasing a text and each character differ', () => {
    expect(differences('AED certified; SSES; assessed')).toEqual({
      stemmedApart: [
        ['aed', 'ae', 'a'],
        ['sses', 'sses', 'ss'],
      ],
      other: false,
    });
    // JavaScript lowercases İ to i and a combining dot (no letter: the word splits, and i is a stop
    // word) and a final Σ to ς; Elasticsearch lowercases each character alone. Neither is in the CVs.
    expect([embedded('İstanbul ΟΔΟΣ'), elasticsearch.terms('cs_text', 'İstanbul ΟΔΟΣ')]).toEqual([
      ['stanbul', 'οδος'],
      ['istanbul', 'οδοσ'],
    ]);
  });

  it('writes several-word rules without stop words, which a synonym rule may not hold', () => {
    expect(ANALYSIS.filter.cs_skill_phrases.synonyms).toContain(
      'heating ventilation air conditioning => heating ventilation air conditioning hvac',
    );
    // A rule holding a stop word is refused, as Lucene's parser refuses it.
    const withStopWord = {
      ...ANALYSIS,
      filter: { ...ANALYSIS.filter, cs_skill_phrases: { type: 'synonym_graph', synonyms: ['profit and loss => p l'] } },
    };
    expect(() => new AnalysisInterpreter(withStopWord).terms('cs_text', 'x')).toThrow(/position increment != 1/);
  });
});

describeWith(['eval'])('Elasticsearch analysis against the embedded analyzer, on livecareer CVs', () => {
  let cvs: string[] = [];
  // Read in beforeAll: a skipped describe's body still runs, to collect its cases.
  beforeAll(() => {
    cvs = readFileSync(path.join(testEnvironment().evalDir!, 'livecareer/resumes.jsonl'), 'utf8')
      .split('\n')
      .filter(Boolean)
      .filter((_, i) => i % 12 === 0)
      .map((line) => (JSON.parse(line) as { text: string }).text);
  });

  it('gives the same term sequence for each of 207 CVs (every 12th), but for words the two Porter2 implementations stem apart', () => {
    let terms = 0;
    const stemmedApart: string[] = [];
    const differing: string[] = [];
    for (const text of cvs) {
      terms += embedded(text).length;
      const found = differences(text);
      stemmedApart.push(...found.stemmedApart.map(([word, ours, theirs]) => `${word} (${ours}/${theirs})`));
      if (found.other) differing.push(text.slice(0, 60));
    }
    process.stdout.write(
      `analysis parity: ${cvs.length} CVs, ${terms} terms, ${differing.length} CVs differ otherwise, ${stemmedApart.length} terms stemmed apart: ${[...new Set(stemmedApart)].join(', ') || 'none'}\n`,
    );
    expect(cvs).toHaveLength(207);
    expect(differing).toEqual([]);
  });
});
