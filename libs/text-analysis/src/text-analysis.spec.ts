import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { describeWith, testEnvironment } from '@cs/test-services';
import { SYNONYM_RULES, analyze, findHighlights, findTerms, onePassTokenPattern, parseQuery, termsOf, tokenize } from './index';

describe('tokenize', () => {
  it('keeps technical names whole', () => {
    const words = tokenize('Skills: C++, C#, .NET, Node.js, ASP.NET and CI/CD pipelines.').map((t) => t.text);
    expect(words).toEqual(['skills', 'c++', 'c#', '.net', 'node.js', 'asp.net', 'and', 'ci/cd', 'pipelines']);
  });

  it('splits ordinary slashes and never glues a full stop to a word', () => {
    expect(tokenize('Sales/Marketing lead. Managed 5 people.').map((t) => t.text)).toEqual([
      'sales',
      'marketing',
      'lead',
      'managed',
      '5',
      'people',
    ]);
  });

  it('gives the same tokens from one pattern, for engines that tokenize by a pattern', () => {
    const pattern = new RegExp(onePassTokenPattern(), 'gu');
    const text =
      'C++, C#, .NET, Node.js/React, CI/CD, x/ci/cd, .ci/cd, ci/cd.x, ci/cd++ .net/c#, .NETCore, .5, TCP/IP.v4, c+.net, ab/.ci/cd, Sales/Marketing.';
    expect([...text.matchAll(pattern)].map((m) => m[0].toLowerCase())).toEqual(tokenize(text).map((t) => t.text));
  });

  it('reports offsets into the original text', () => {
    const text = 'Senior Node.js developer';
    for (const token of tokenize(text)) expect(text.slice(token.start, token.end).toLowerCase()).toBe(token.text);
  });
});

describe('analyze', () => {
  it('drops stop words and stems plain words only', () => {
    expect(analyze('The accounts were reconciled with Node.js').map((t) => t.term)).toEqual(['account', 'reconcil', 'node.js']);
  });
});

describe('SYNONYM_RULES', () => {
  it('lists the synonyms analyze applies, leaving out variants an earlier one always matches first', () => {
    expect(SYNONYM_RULES.oneWord).toContainEqual({ words: ['a/p'], canonical: ['accounts', 'payable'] });
    expect(SYNONYM_RULES.severalWords).toContainEqual({ words: ['heating', 'ventilation', 'air', 'conditioning'], canonical: ['hvac'] });
    // 'google cloud' comes first and always matches where 'google cloud platform' would.
    expect(SYNONYM_RULES.severalWords.map((r) => r.words.join(' '))).not.toContain('google cloud platform');
    expect(analyze('Google Cloud Platform').map((t) => t.term)).toEqual(['googl', 'cloud', 'gcp', 'platform']);
  });
});

describe('termsOf', () => {
  it('gives the terms analyze gives, reading a text once while it is recent', () => {
    const text = 'Senior C# developer: ASP.NET, k8s and CI/CD pipelines.';
    const terms = termsOf(text);
    expect(terms).toEqual(analyze(text).map((t) => t.term));
    expect(termsOf(text)).toBe(terms);
    expect(Object.isFrozen(terms)).toBe(true);
    for (let i = 0; i < 40; i++) termsOf(`nurse ${i}`);
    expect(termsOf(text)).not.toBe(terms);
    expect(termsOf(text)).toEqual(terms);
  });
});

describe('parseQuery', () => {
  it('splits on commas into keywords; only quoted text is a phrase', () => {
    const query = parseQuery('general ledger, QuickBooks, "month end close"');
    expect(query.parts.map((p) => [p.text, p.phrase])).toEqual([
      ['month end close', true],
      ['general ledger', false],
      ['QuickBooks', false],
    ]);
  });

  it('drops parts made only of stop words', () => {
    expect(parseQuery('the, and, of').parts).toHaveLength(0);
  });
});

describe('findHighlights', () => {
  it('returns the passage with the most distinct terms and marks them', () => {
    const text = 'Cook at a diner. '.repeat(30) + 'Reconciled the general ledger and accounts payable monthly. ' + 'Filler. '.repeat(30);
    const [best] = findHighlights(text, ['ledger', 'payabl', 'reconcil']);
    expect(best.text).toContain('general ledger');
    const marked = best.matches.map((m) => best.text.slice(m.start, m.end).toLowerCase());
    expect(marked).toEqual(['reconciled', 'ledger', 'payable']);
    expect(text.slice(best.start, best.end)).toBe(best.text);
  });
});

describe('skill synonyms', () => {
  const terms = (text: string) => analyze(text).map((t) => t.term);

  it('maps a one-word variant to its canonical term, at index and query time alike', () => {
    expect(terms('Deployed on k8s')).toEqual(terms('Deployed on Kubernetes'));
  });

  it('adds the canonical term after a several-word variant and keeps its words', () => {
    const analysed = analyze('Worked with the United States Department of Agriculture on soil');
    expect(analysed.map((t) => t.term)).toEqual(['work', 'unit', 'state', 'depart', 'agricultur', 'usda', 'soil']);
    const usda = analysed.find((t) => t.term === terms('usda')[0]);
    expect(usda).toMatchObject({ start: 16, end: 'Worked with the United States Department of Agriculture'.length });
  });
});

describeWith(['eval'])('findTerms', () => {
  let cvs: string[] = [];
  // Read in beforeAll: a skipped describe's body still runs, to collect its cases.
  beforeAll(() => {
    cvs = readFileSync(path.join(testEnvironment().evalDir!, 'livecareer/resumes.jsonl'), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => (JSON.parse(line) as { text: string }).text);
  });
  const termsOf = (query: string) => [...new Set(analyze(query).map((t) => t.term))];

  it('finds exactly what analysing the whole text finds, on real CVs', () => {
    const queries = [
      'accounts payable reconciliations, company, closing',
      'C++, Node.js, ASP.NET',
      'k8s, USDA',
      'dying skies happily managed',
      'sales/marketing ci/cd',
    ];
    for (const query of queries) {
      const terms = termsOf(query);
      for (const text of cvs.slice(0, 200)) {
        expect(findTerms(text, terms)).toEqual(analyze(text).filter((t) => terms.includes(t.term)));
      }
    }
  });

  it('finds the terms that several-word variants add, where whole analysis finds them', () => {
    const terms = termsOf('SEO, SEM, CRM, machine learning, HIPAA, FAA, EMR, RN, MSSQL, QA, KPI, SLA, CPA');
    let added = 0;
    for (const text of cvs.slice(0, 1200)) {
      const expected = analyze(text).filter((t) => terms.includes(t.term));
      expect(findTerms(text, terms)).toEqual(expected);
      added += expected.filter((t) => t.text === t.term && t.end - t.start > t.term.length).length;
    }
    expect(added).toBeGreaterThan(200);
  });

  it('lets a longer variant hold its words, as whole analysis does', () => {
    const text = 'Microsoft SQL Server and then SQL Server again; the Federal  Aviation, Administration';
    const terms = termsOf('mssql faa');
    expect(findTerms(text, terms)).toEqual(analyze(text).filter((t) => terms.includes(t.term)));
    expect(findTerms(text, terms).map((t) => [t.term, t.start])).toEqual([
      ['mssql', 0],
      ['mssql', 30],
      ['faa', 52],
    ]);
  });
});
