import { analyze, parseKeywordQuery, parseQuery, partMatcher, sameWordForms } from './index';

const vocabulary = { skillKey: () => null };
const matched = (query: string, text: string) => partMatcher(parseQuery(query))(text).matched.map(({ spans: _spans, ...m }) => m);

describe('sameWordForms', () => {
  it.each([
    ['accountant', 'accountants'],
    ['manage', 'managed'],
    ['managing', 'manage'],
    ['managing', 'manages'],
    ['running', 'run'],
    ['planned', 'plan'],
    ['studies', 'studied'],
    ['studying', 'study'],
    ['tying', 'tie'],
    ['boxes', 'box'],
    ['salesmen', 'salesman'],
  ])('%s and %s are forms of one word', (a, b) => {
    expect(sameWordForms(a, b)).toBe(true);
    expect(sameWordForms(b, a)).toBe(true);
  });

  it.each([
    ['accountant', 'accounts'],
    ['accountant', 'accounting'],
    ['manager', 'manage'],
    ['management', 'manage'],
    ['organization', 'organize'],
  ])('%s and %s are not, though they share a stem', (a, b) => {
    expect(analyze(a)[0].term).toBe(analyze(b)[0].term);
    expect(sameWordForms(a, b)).toBe(false);
  });
});

describe('partMatcher', () => {
  it('says where the CV holds each part: every word, or the phrase as a whole', () => {
    const text = 'Led general ledger close; the ledger was general.';
    const [words] = partMatcher(parseQuery('general ledger'))(text).matched;
    expect(words.spans.map((s) => text.slice(s.start, s.end))).toEqual(['general', 'ledger']);
    const [phrase] = partMatcher(parseQuery('"general ledger"'))(text).matched;
    expect(phrase.spans.map((s) => text.slice(s.start, s.end))).toEqual(['general ledger']);
  });

  it('matches a word as written, case aside, and says so with the CV’s own spelling', () => {
    expect(matched('accountant, QuickBooks', 'Staff ACCOUNTANT using quickbooks.')).toEqual([
      { term: 'accountant', as: 'exact', text: 'ACCOUNTANT' },
      { term: 'QuickBooks', as: 'exact', text: 'quickbooks' },
    ]);
  });

  it('matches an inflection of the same word, never another word of the same stem', () => {
    expect(matched('accountant', 'Senior Accountants team.')).toEqual([{ term: 'accountant', as: 'inflection', text: 'Accountants' }]);
    expect(matched('accountant', 'Accounts, accounting and account reviews.')).toEqual([]);
    expect(matched('managing', 'Managed a team; will manage more.')).toEqual([{ term: 'managing', as: 'inflection', text: 'Managed' }]);
  });

  it('prefers the closest form the CV holds', () => {
    expect(matched('accountant', 'Accountants and one accountant.')).toEqual([{ term: 'accountant', as: 'exact', text: 'accountant' }]);
  });

  it('matches a skill synonym of the vocabulary, both ways and for several-word spellings', () => {
    expect(matched('k8s', 'Ran Kubernetes clusters.')).toEqual([{ term: 'k8s', as: 'synonym', text: 'Kubernetes' }]);
    expect(matched('Kubernetes', 'Ran k8s clusters.')).toEqual([{ term: 'Kubernetes', as: 'synonym', text: 'k8s' }]);
    expect(matched('ML', 'Built machine  learning models.')).toEqual([{ term: 'ML', as: 'synonym', text: 'machine  learning' }]);
    expect(matched('machine learning', 'Built ML models.')).toEqual([{ term: 'machine learning', as: 'synonym', text: 'ML' }]);
    expect(matched('machine learning', 'Machine learning models.')).toEqual([
      { term: 'machine learning', as: 'exact', text: 'Machine learning' },
    ]);
    expect(matched('accounts payable', 'A/P invoices.')).toEqual([{ term: 'accounts payable', as: 'synonym', text: 'A/P' }]);
  });

  it('needs every word of a part, and says the loosest way one is held', () => {
    expect(matched('account reconciliation', 'Reconciliations of accounts.')).toEqual([
      { term: 'account reconciliation', as: 'inflection', text: 'accounts Reconciliations' },
    ]);
    expect(matched('account reconciliation', 'Reconciliations of accountants.')).toEqual([]);
  });

  it('matches a quoted phrase only side by side, in order, each word held', () => {
    expect(matched('"general ledger"', 'Kept the general ledgers.')).toEqual([
      { term: 'general ledger', as: 'inflection', text: 'general ledgers' },
    ]);
    expect(matched('"general ledger"', 'Kept the ledger, in general.')).toEqual([]);
    expect(matched('"accountant reports"', 'Accounts reports, accountant reports.')).toEqual([
      { term: 'accountant reports', as: 'exact', text: 'accountant reports' },
    ]);
    expect(matched('"accountant reports"', 'Accounts reports only.')).toEqual([]);
  });

  it('never lists an excluded term, which is no scored part', () => {
    const query = parseKeywordQuery('nurse -ICU', vocabulary);
    expect(partMatcher(query)('Nurse in the ICU.').matched.map((m) => m.term)).toEqual(['nurse']);
  });

  it('marks for highlights only the occurrences that hold a query word', () => {
    const text = 'Accounts and accountants; the accountant.';
    const { marks } = partMatcher(parseQuery('accountant'))(text);
    expect(marks.map((m) => text.slice(m.start, m.end))).toEqual(['accountants', 'accountant']);
  });
});
