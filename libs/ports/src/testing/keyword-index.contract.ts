import { FACET_FIELDS, NO_ATTRIBUTES, countFacets, skillKey, type SearchAttributes } from '@cs/search-filters';
import { parseKeywordQuery, parseQuery } from '@cs/text-analysis';
import { describeWith, type TestNeed } from '@cs/test-services';
import type { KeywordIndex } from '../keyword-index.port';
import { FILTER_CASES, FILTER_CVS, PHRASE_HOLDERS } from './filter-cases';
import { CONDITION_CASES, CONDITION_CVS } from './keyword-condition-cases';

const CVS: Record<string, string> = {
  accountant: 'Staff accountant. Reconciled the general ledger monthly; handled accounts payable in QuickBooks.',
  developer: 'Software developer building Node.js and C++ services; general knowledge of accounting systems.',
  chef: 'Head chef running a busy kitchen, menu planning and food safety.',
};

/**
 * The behaviour every KeywordIndex adapter must show; `open` returns a fresh, empty index. Where
 * a need is missing (a server, Docker), the cases are declared skipped.
 */
export function describeKeywordIndexContract(
  name: string,
  open: () => Promise<KeywordIndex>,
  reopen?: () => Promise<KeywordIndex>,
  needs: TestNeed[] = [],
): void {
  describeWith(needs)(`KeywordIndex contract: ${name}`, () => {
    let index: KeywordIndex | null = null;
    beforeEach(async () => {
      index = await open();
      for (const [id, text] of Object.entries(CVS)) await index.upsert('c1', id, text);
    });
    afterEach(() => index?.close());

    it('ranks the CV holding more query terms first, with a score within its maximum', async () => {
      const hits = await index!.search('c1', parseQuery('general ledger, accounts payable, QuickBooks'), 10);
      expect(hits[0].documentId).toBe('accountant');
      expect(hits[0].matchedTerms).toEqual(['general ledger', 'accounts payable', 'QuickBooks']);
      expect(hits[0].score).toBeGreaterThan(0);
      expect(hits[0].score).toBeLessThanOrEqual(hits[0].maxScore);
      expect(hits.map((h) => h.documentId)).not.toContain('chef');
    });

    it('matches technical names as written', async () => {
      const hits = await index!.search('c1', parseQuery('C++, Node.js'), 10);
      expect(hits.map((h) => h.documentId)).toEqual(['developer']);
    });

    it('matches word forms through stemming', async () => {
      const hits = await index!.search('c1', parseQuery('reconciling'), 10);
      expect(hits.map((h) => h.documentId)).toEqual(['accountant']);
    });

    it('isolates companies', async () => {
      expect(await index!.search('c2', parseQuery('chef'), 10)).toEqual([]);
      await index!.upsert('c2', 'other-chef', CVS.chef);
      expect((await index!.search('c2', parseQuery('chef'), 10)).map((h) => h.documentId)).toEqual(['other-chef']);
      expect(await index!.count('c1')).toBe(3);
    });

    it('forgets deleted CVs', async () => {
      expect(await index!.delete('c1', 'chef')).toBe(1);
      expect(await index!.delete('c1', 'chef')).toBe(0);
      expect(await index!.search('c1', parseQuery('kitchen'), 10)).toEqual([]);
    });

    it('reads a CV’s distinctive terms: words other CVs hold too, rarest and most repeated first, no numbers', async () => {
      await index!.upsert(
        'c1',
        'devops',
        'DevOps engineer: Kubernetes clusters, Kubernetes operators, Terraform, 2019 to 2024. General ledger once.',
      );
      await index!.upsert('c1', 'platform', 'Platform engineer running Kubernetes and Terraform, since 2019.');
      const terms = await index!.distinctiveTerms('c1', 'devops', 25);
      // Kubernetes twice in it and in two of four CVs; ledger once in two; engineer once in two.
      expect(terms.slice(0, 1)).toEqual(['kubernet']);
      expect(terms).toEqual(expect.arrayContaining(['terraform', 'ledger', 'engin']));
      expect(terms).not.toContain('2019');
      // Words no other CV holds find nothing like it: the operators, the clusters.
      expect(terms).not.toContain('oper');
      expect(await index!.distinctiveTerms('c1', 'devops', 1)).toEqual(['kubernet']);
      expect(await index!.distinctiveTerms('c1', 'missing', 25)).toEqual([]);
      expect(await index!.distinctiveTerms('c2', 'devops', 25)).toEqual([]);
    });

    describe('filters, applied before the top K', () => {
      beforeEach(async () => {
        for (const cv of FILTER_CVS) await index!.upsert('f1', cv.id, cv.text, cv.attributes);
      });
      const found = async (filter: Parameters<KeywordIndex['search']>[3], topK = 100) =>
        (await index!.search('f1', parseQuery('engineer'), topK, filter)).map((h) => h.documentId).sort();

      it.each(FILTER_CASES)('returns exactly the CVs that pass: $name', async ({ filter, expected }) => {
        expect(await found(filter)).toEqual(expected);
      });

      it('fills the top K from the CVs that pass, however many rank above them', async () => {
        for (let i = 0; i < 30; i++) await index!.upsert('f1', `more-${i}`, 'Engineer engineer engineer, engineering all day.');
        expect(await found({ seniority: ['lead'] }, 1)).toEqual(['python-lead-berlin']);
      });

      it('searches as before without a filter, or with an empty one', async () => {
        expect(await found(null)).toHaveLength(FILTER_CVS.length);
        expect(await found({})).toHaveLength(FILTER_CVS.length);
      });

      describe('documentsWithPhrase: the CVs whose text holds a skill matched as text', () => {
        it.each(Object.entries(PHRASE_HOLDERS))('finds exactly the CVs the shared cases give: %s', async (phrase, holders) => {
          expect((await index!.documentsWithPhrase('f1', phrase, 100)).sort()).toEqual([...holders].sort());
        });

        it('reads the phrase as the text is read (case, word forms), its words side by side and in order', async () => {
          expect(await index!.documentsWithPhrase('f1', 'Web Shop', 100)).toEqual(['java-php-roundrock']);
          expect(await index!.documentsWithPhrase('f1', 'shops web', 100)).toEqual([]);
          expect(await index!.documentsWithPhrase('f1', 'java shops', 100)).toEqual([]);
          expect((await index!.documentsWithPhrase('f1', 'Berlin', 100)).sort()).toEqual(['python-lead-berlin']);
        });

        it('returns at most the limit, and only the company’s CVs', async () => {
          expect(await index!.documentsWithPhrase('f1', 'engineer', 2)).toHaveLength(2);
          expect(await index!.documentsWithPhrase('c1', 'web shops', 100)).toEqual([]);
          expect(await index!.documentsWithPhrase('no-such-company', 'web shops', 100)).toEqual([]);
        });
      });

      it('filters on attributes replaced after indexing', async () => {
        expect(await index!.setAttributes('f1', 'no-attributes', { ...FILTER_CVS[0].attributes!, seniority: 'intern' })).toBe(true);
        expect(await index!.setAttributes('f1', 'never-indexed', FILTER_CVS[0].attributes!)).toBe(false);
        expect(await found({ seniority: ['intern'] })).toEqual(['no-attributes']);
      });

      describe('facets: counts over the CVs that pass, as countFacets counts them', () => {
        const countsOf = (ids: string[]) =>
          countFacets(
            FILTER_CVS.filter((cv) => ids.includes(cv.id)).map((cv) => cv.attributes ?? null),
            FACET_FIELDS,
          );

        it('counts every CV of the company without a filter, or with an empty one', async () => {
          const all = countsOf(FILTER_CVS.map((cv) => cv.id));
          expect(all.cvs).toBe(FILTER_CVS.length);
          expect(await index!.facets('f1', null, FACET_FIELDS)).toEqual(all);
          expect(await index!.facets('f1', {}, FACET_FIELDS)).toEqual(all);
        });

        it.each(FILTER_CASES)('counts the CVs that pass: $name', async ({ filter, expected }) => {
          expect(await index!.facets('f1', filter, FACET_FIELDS)).toEqual(countsOf(expected));
        });

        it('counts nothing when no CV can pass, and only the fields asked', async () => {
          expect(await index!.facets('f1', { seniority: [] }, ['seniority', 'skills'])).toEqual({
            cvs: 0,
            fields: { seniority: [], skills: [] },
          });
          expect(Object.keys((await index!.facets('f1', null, ['location'])).fields)).toEqual(['location']);
        });

        it('lists the 20 most frequent skills with ties by name, years banded at their bounds, a country without a region', async () => {
          const many: SearchAttributes[] = Array.from({ length: 27 }, (_, i) => ({
            ...NO_ATTRIBUTES,
            skills: [`skill-${String(26 - i).padStart(2, '0')}`, ...(i % 3 === 0 ? ['shared'] : []), ...(i % 4 === 0 ? ['rare'] : [])],
            experienceYears: [0, 2.5, 3, 5.5, 6, 10.5, 11, 20.5, 21][i % 9],
            location: i % 2 ? { cityPoint: false, lat: 48.85, lon: 2.35, city: null, regionCode: null, countryCode: 'FR' } : null,
          }));
          for (const [i, attributes] of many.entries()) await index!.upsert('f3', `many-${i}`, 'Engineer.', attributes);
          const counts = await index!.facets('f3', null, FACET_FIELDS);
          expect(counts).toEqual(countFacets(many, FACET_FIELDS));
          expect(counts.fields.skills).toHaveLength(20);
        });
      });

      describe('requirementCounts: the CVs meeting every requirement, and those failing one alone', () => {
        const byName = (name: string) => FILTER_CASES.find((c) => c.name === name)!;
        // The counts the shared cases' expected CVs give, independent of any store's filtering.
        const expectedCounts = (base: string[] | null, requirements: string[][]) => {
          const ids = FILTER_CVS.map((cv) => cv.id).filter((id) => !base || base.includes(id));
          const failures = (id: string) => requirements.flatMap((passing, i) => (passing.includes(id) ? [] : [i]));
          return {
            meetingAll: ids.filter((id) => failures(id).length === 0).length,
            failingOnly: requirements.map((_, i) => ids.filter((id) => failures(id).join() === String(i)).length),
          };
        };
        const requirements = ['years range', 'degree at least master', 'seniority', 'a skill matched as text', 'a filter no CV passes'].map(
          byName,
        );

        it.each([null, 'skills none excludes, and keeps CVs that name nothing', 'country'])(
          'counts over the CVs passing the base: %s',
          async (base) => {
            const baseCase = base === null ? null : byName(base);
            expect(
              await index!.requirementCounts(
                'f1',
                baseCase?.filter ?? null,
                requirements.map((r) => r.filter),
              ),
            ).toEqual(
              expectedCounts(
                baseCase?.expected ?? null,
                requirements.map((r) => r.expected),
              ),
            );
          },
        );

        it('counts every passing CV as meeting all of no requirements, and nothing of another company', async () => {
          expect(await index!.requirementCounts('f1', null, [])).toEqual({ meetingAll: FILTER_CVS.length, failingOnly: [] });
          expect(await index!.requirementCounts('f1', { seniority: [] }, [byName('seniority').filter])).toEqual({
            meetingAll: 0,
            failingOnly: [0],
          });
          expect(await index!.requirementCounts('no-such-company', null, [byName('seniority').filter])).toEqual({
            meetingAll: 0,
            failingOnly: [0],
          });
        });
      });
    });

    describe('the keyword query language: conditions applied before the top K', () => {
      beforeEach(async () => {
        for (const cv of CONDITION_CVS) await index!.upsert(cv.companyId, cv.id, cv.text, cv.attributes);
      });
      const found = async (companyId: string, query: string, topK = 100, filter: Parameters<KeywordIndex['search']>[3] = null) =>
        (await index!.search(companyId, parseKeywordQuery(query, { skillKey }), topK, filter)).map((h) => h.documentId).sort();

      it.each(CONDITION_CASES)('returns exactly the CVs that meet them: $name', async ({ companyId, query, expected }) => {
        expect(await found(companyId, query)).toEqual(expected);
      });

      it('fills the top K from the CVs that meet the conditions, however many rank above them', async () => {
        for (let i = 0; i < 30; i++) await index!.upsert('f1', `more-${i}`, 'Engineer engineer engineer, engineering PHP all day.');
        expect(await found('f1', 'engineer -php', 4)).toEqual([
          'java-senior-austin',
          'junior-no-place',
          'no-attributes',
          'python-lead-berlin',
        ]);
      });

      it('applies the conditions and the filter together', async () => {
        expect(await found('f1', 'engineer +java', 100, { seniority: ['senior', 'junior'] })).toEqual([
          'java-senior-austin',
          'junior-no-place',
        ]);
        expect(await found('f1', 'engineer -austin', 100, { seniority: ['senior'] })).toEqual([]);
      });

      it('never lists an excluded term as matched', async () => {
        const hits = await index!.search('f1', parseKeywordQuery('java, engineer -php -python', { skillKey }), 10);
        expect(hits.length).toBeGreaterThan(0);
        for (const hit of hits) expect(hit.matchedTerms.every((t) => t === 'java' || t === 'engineer')).toBe(true);
      });

      it('ranks a query without operators exactly as its plain keywords', async () => {
        const query = 'engineer, java services';
        const before = await index!.search('f1', parseQuery(query), 10);
        expect(await index!.search('f1', parseKeywordQuery(query, { skillKey }), 10)).toEqual(before);
      });
    });

    if (reopen) {
      it('keeps attributes across a reopen', async () => {
        for (const cv of FILTER_CVS) await index!.upsert('f1', cv.id, cv.text, cv.attributes);
        await index!.setAttributes('f1', 'no-attributes', { ...FILTER_CVS[0].attributes!, seniority: 'intern' });
        await index!.close();
        index = await reopen();
        const found = await index.search('f1', parseQuery('engineer'), 100, { seniority: ['intern', 'lead'] });
        expect(found.map((h) => h.documentId).sort()).toEqual(['no-attributes', 'python-lead-berlin']);
      });

      it('keeps everything across a reopen', async () => {
        await index!.delete('c1', 'chef');
        await index!.close();
        index = await reopen();
        expect(await index.count('c1')).toBe(2);
        expect((await index.search('c1', parseQuery('QuickBooks'), 10)).map((h) => h.documentId)).toEqual(['accountant']);
      });
    }
  });
}
