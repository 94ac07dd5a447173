import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { describeWith, testEnvironment } from '@cs/test-services';
import {
  KEYWORD_QUERY_LIMITS,
  KeywordQueryError,
  conditionJudge,
  conditionsOf,
  parseKeywordQuery,
  parseQuery,
  type KeywordQuery,
} from './index';

/** A small skills vocabulary: the real one is libs/search-filters' `skillKey`, which imports this lib. */
const vocabulary = {
  skillKey: (name: string) => ({ k8s: 'kubernetes', kubernetes: 'kubernetes', java: 'java' })[name.toLowerCase()] ?? null,
};
const parse = (query: string): KeywordQuery => parseKeywordQuery(query, vocabulary);

/** The error a malformed query raises, as position and problem. */
function failure(query: string): { position: number; problem: string } {
  try {
    parse(query);
  } catch (error) {
    if (error instanceof KeywordQueryError) return { position: error.position, problem: error.problem };
    throw error;
  }
  throw new Error(`${query} parsed`);
}

const plainKeywords = (query: string) => {
  const { raw, parts } = parseQuery(query);
  return { raw, parts, required: [], excluded: [], positiveText: query };
};

describe('parseKeywordQuery without operators', () => {
  it.each([
    'general ledger, account reconciliation, accounts payable, QuickBooks',
    'staff accountant QuickBooks reconciliations accounts payable experience',
    'general ledger, QuickBooks, "month end close"',
    'senior "general ledger" accountant; payroll | audit\nbudgets',
    'the, and, of',
    'C++, C#, .NET, Node.js, CI/CD, month-end, e-commerce, 3-5 years, R&D',
    '"QuickBooks", "  spaced  phrase  ", "a""b"',
    'foo:bar, C#: http://example.com/path, titles:manager',
    'java or kotlin, java and spring',
    '  ,, leading and trailing separators ,;|  ',
  ])('parses %j exactly as parseQuery does', (query) => {
    expect(parse(query)).toEqual(plainKeywords(query));
  });

  it('parses random queries of words, separators and quotes exactly as parseQuery does', () => {
    const pieces = [
      'java',
      'C++',
      'month-end',
      'the',
      'of',
      'Node.js',
      'a/p',
      'k8s',
      'machine',
      'learning',
      '5+',
      'x-ray',
      'R&D',
      'é',
      '😀',
    ];
    const between = [' ', ', ', ';', ' | ', '\n', '  ', ',,'];
    let seed = 7;
    const next = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    for (let i = 0; i < 500; i++) {
      const words = Array.from({ length: 1 + next(8) }, () => pieces[next(pieces.length)]);
      let query = '';
      let quoted = false;
      for (const word of words) {
        if (next(5) === 0) {
          query += '"';
          quoted = !quoted;
        }
        query += word + between[next(between.length)];
      }
      if (quoted) query += 'x"';
      expect(parse(query)).toEqual(plainKeywords(query));
    }
  });
});

describeWith(['eval'])('parseKeywordQuery on the shared evaluation queries', () => {
  let queries: { style: string; text: string }[] = [];
  beforeAll(() => {
    queries = readFileSync(path.join(testEnvironment().evalDir!, 'livecareer/queries.dev.jsonl'), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { style: string; text: string });
  });

  it('parses every keyword and mixed query exactly as parseQuery does', () => {
    const keywordQueries = queries.filter((q) => q.style === 'kw' || q.style === 'mixed');
    expect(keywordQueries.length).toBeGreaterThanOrEqual(18);
    for (const { text } of keywordQueries) expect(parse(text)).toEqual(plainKeywords(text));
  });
});

describe('parseKeywordQuery grammar', () => {
  it('requires + clauses and excludes - clauses, and scores the words of every clause but the excluded ones', () => {
    const query = parse('java developer, +spring -php "rest api"');
    expect(query.parts).toEqual([
      { text: 'rest api', terms: ['rest', 'api'], phrase: true },
      { text: 'java developer', terms: ['java', 'develop'], phrase: false },
      { text: 'spring', terms: ['spring'], phrase: false },
    ]);
    expect(query.required).toEqual([{ kind: 'text', text: 'spring', terms: ['spring'] }]);
    expect(query.excluded).toEqual([{ kind: 'text', text: 'php', terms: ['php'] }]);
    expect(query.positiveText).toBe('java developer spring rest api');
  });

  it('reads + and - only where a word begins: inside words they are the word’s', () => {
    const query = parse('C++, month-end, e-commerce -ICU');
    expect(query.parts.map((p) => p.text)).toEqual(['C++', 'month-end', 'e-commerce']);
    expect(query.excluded).toEqual([{ kind: 'text', text: 'ICU', terms: ['icu'] }]);
  });

  it('groups alternatives with OR: at least one of them, each scored', () => {
    const query = parse('+(java OR kotlin) -php');
    expect(query.required).toEqual([
      {
        kind: 'any',
        of: [
          { kind: 'text', text: 'java', terms: ['java'] },
          { kind: 'text', text: 'kotlin', terms: ['kotlin'] },
        ],
      },
    ]);
    expect(query.parts.map((p) => p.text)).toEqual(['java', 'kotlin']);
    expect(query.positiveText).toBe('java kotlin');
  });

  it('reads words side by side in parentheses as all of them, OR binding looser', () => {
    expect(parse('+(product manager OR "product owner") x').required).toEqual([
      {
        kind: 'any',
        of: [
          {
            kind: 'all',
            of: [
              { kind: 'text', text: 'product', terms: ['product'] },
              { kind: 'text', text: 'manager', terms: ['manag'] },
            ],
          },
          { kind: 'text', text: 'product owner', terms: ['product', 'owner'] },
        ],
      },
    ]);
  });

  it('scores an OR without a prefix as its words, with no condition', () => {
    const query = parse('senior java OR kotlin developer');
    expect(query.parts.map((p) => p.text)).toEqual(['senior java', 'kotlin developer']);
    expect(query.required).toEqual([]);
  });

  it('makes a field term a condition even without +, and - excludes it', () => {
    const query = parse('title:"account manager" skill:K8s -title:intern accountant');
    expect(query.required).toEqual([
      { kind: 'title', text: 'account manager', terms: ['account', 'manag'] },
      { kind: 'skill', text: 'K8s', skill: 'kubernetes' },
    ]);
    expect(query.excluded).toEqual([{ kind: 'title', text: 'intern', terms: ['intern'] }]);
    expect(query.parts.map((p) => [p.text, p.phrase])).toEqual([
      ['account manager', true],
      ['K8s', false],
      ['accountant', false],
    ]);
  });

  it('reads a word with several terms as those terms side by side', () => {
    expect(parse('+a/p clerk').required).toEqual([{ kind: 'text', text: 'a/p', terms: ['account', 'payabl'] }]);
  });

  it('keeps an unknown field as a word, as URLs and C#: are written', () => {
    expect(parse('foo:bar +C#: http://x.org').parts.map((p) => p.text)).toEqual(['foo:bar', 'C#:', 'http://x.org']);
  });

  it('gives the dense leg the query itself when it has no operator', () => {
    expect(parse('"general ledger", QuickBooks').positiveText).toBe('"general ledger", QuickBooks');
  });
});

describe('parseKeywordQuery errors name the character and what was expected', () => {
  it.each([
    ['+(java OR kotlin', 2, "this '(' is never closed"],
    ['java)', 5, "this ')' closes no '('"],
    ['"general ledger', 1, 'this quote is never closed'],
    ['java OR', 6, 'OR needs a word, a "phrase", a field or a group after it'],
    ['OR java', 1, 'OR needs'],
    ['java, OR kotlin', 7, 'OR needs'],
    ['java -', 6, "right after '-', found the end of the query"],
    ['java - php', 6, "right after '-', found a space"],
    ['+java OR kotlin', 7, 'OR cannot join a clause with'],
    ['title:', 7, 'right after title:'],
    ['title: manager', 7, 'right after title:'],
    ['+skill:cobolx', 2, 'skill:cobolx names no skill'],
    ['+the java', 2, '"the" holds no searchable word'],
    ['(java, kotlin)', 6, 'a separator inside parentheses'],
    ['(+java)', 2, 'applies to a whole clause'],
    ['()', 2, 'expected a word, a "phrase", a field or a group after \'(\''],
    ['java (kotlin -php)', 14, "expected OR or ')'"],
    ['😀 java)', 7, "this ')' closes no '('"],
    ['-php', 1, 'nothing to search for'],
    ['-php -"visual basic"', 1, 'nothing to search for'],
  ])('%j: character %d', (query, position, problem) => {
    const error = failure(query);
    expect(error.position).toBe(position);
    expect(error.problem).toContain(problem);
  });

  it('says the character and the problem in its message', () => {
    expect(() => parse('java OR')).toThrow(
      'at character 6: OR needs a word, a "phrase", a field or a group after it, found the end of the query',
    );
  });
});

describe('parseKeywordQuery on hostile queries', () => {
  it('stops at the ninth nested parenthesis of 500', () => {
    expect(failure('('.repeat(500))).toEqual({ position: 9, problem: 'parentheses nested more than 8 deep' });
  });

  it('accepts eight levels of parentheses', () => {
    expect(parse(`+${'('.repeat(8)}java${')'.repeat(8)} x`).required).toEqual([{ kind: 'text', text: 'java', terms: ['java'] }]);
  });

  it('refuses more than 64 clauses, at the first one past the limit', () => {
    const ors = Array.from({ length: 251 }, (_, i) => `w${i}`).join(' OR ');
    const error = failure(ors);
    expect(error.problem).toContain(`more than ${KEYWORD_QUERY_LIMITS.clauses} clauses`);
    expect(error.position).toBe(ors.indexOf('w64 ') + 1);
    const sixtyFour = Array.from({ length: 64 }, (_, i) => `w${i}`).join(' OR ');
    expect(parse(sixtyFour).parts).toHaveLength(64);
  });

  it('refuses 250 ORs alone, a quote alone and signs alone', () => {
    expect(failure(Array(250).fill('OR').join(' ')).position).toBe(1);
    expect(failure('"').position).toBe(1);
    expect(failure('+-+-')).toEqual({ position: 1, problem: expect.stringContaining("right after '+', found '-'") });
    expect(failure('-').position).toBe(1);
  });

  it('parses a 500-character query of every operator in a few milliseconds', () => {
    const query = '+(java OR "rest api" OR title:lead) -php sql, '
      .repeat(12)
      .slice(0, 500)
      .replace(/[^,]*$/, '');
    expect(query.length).toBeGreaterThan(450);
    const started = performance.now();
    for (let i = 0; i < 100; i++) parse(query);
    expect((performance.now() - started) / 100).toBeLessThan(20);
  });
});

describe('conditionJudge', () => {
  const meets = (query: string, text: string, skills: string[] = []) => conditionJudge(parse(query))(text, skills);
  const CV = 'Senior Accountant\nKept the general ledger; accounts payable and receivable. Ledger general.';

  it('judges words anywhere, phrases in order and side by side, across stop words', () => {
    expect(meets('x +ledger', CV)).toBe(true);
    expect(meets('x +"general ledger"', CV)).toBe(true);
    expect(meets('x +"ledger of general"', CV)).toBe(true);
    expect(meets('x +"payable general"', CV)).toBe(false);
    expect(meets('x -"accounts receivable"', CV)).toBe(true);
    expect(meets('x +(cobol OR "accounts payable")', CV)).toBe(true);
    expect(meets('x +(cobol OR (senior fortran))', CV)).toBe(false);
  });

  it('judges title: on the headline alone, and a synonym as the index reads it', () => {
    expect(meets('x +title:"senior accountant"', CV)).toBe(true);
    expect(meets('x +title:ledger', CV)).toBe(false);
    expect(meets('x +k8s', 'Ran Kubernetes clusters.')).toBe(true);
  });

  it('judges skill: on the skills it is given', () => {
    expect(meets('x +skill:K8s', CV, ['kubernetes'])).toBe(true);
    expect(meets('x -skill:k8s', CV, ['kubernetes'])).toBe(false);
    expect(meets('x -skill:k8s', CV)).toBe(true);
  });

  it('says whether a query has conditions and whether they read skills', () => {
    expect(conditionsOf(parse('java, spring'))).toEqual({ any: false, readSkills: false });
    expect(conditionsOf(parse('java -php'))).toEqual({ any: true, readSkills: false });
    expect(conditionsOf(parse('java +(php OR skill:k8s)'))).toEqual({ any: true, readSkills: true });
  });
});
