import { distinctiveTerms } from './distinctive-terms';

describe('distinctiveTerms', () => {
  const stats = (term: string, termFrequency: number, documentFrequency: number) => ({ term, termFrequency, documentFrequency });

  it('ranks by frequency in the CV over frequency in the company', () => {
    const terms = [stats('kubernet', 3, 5), stats('develop', 3, 90), stats('terraform', 1, 4), stats('manag', 4, 95)];
    expect(distinctiveTerms(terms, 100)).toEqual(['kubernet', 'terraform', 'develop', 'manag']);
  });

  it('leaves out words no other CV holds, numbers and single letters', () => {
    const terms = [
      stats('jane.doe@example.com', 1, 1),
      stats('2019', 4, 30),
      stats('555-0100', 1, 2),
      stats('x', 2, 10),
      stats('java', 1, 10),
    ];
    expect(distinctiveTerms(terms, 100)).toEqual(['java']);
  });

  it('keeps at most the limit, ties broken by term', () => {
    const terms = ['b', 'a', 'c'].map((t) => stats(`${t}${t}`, 1, 10));
    expect(distinctiveTerms(terms, 100, 2)).toEqual(['aa', 'bb']);
    expect(distinctiveTerms(terms, 100, 0)).toEqual([]);
  });
});
