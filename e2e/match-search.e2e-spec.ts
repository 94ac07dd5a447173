import { ApiClient } from './support/api-client';
import { TEXT, createCompany } from './support/fixtures';
import { MODES, describeMode, type ServiceUnderTest } from './support/service-under-test';

jest.setTimeout(600_000);

/** Accountants who meet a staff-accountant posting more or less, and others who do not. */
const CVS: Record<string, string> = {
  full: `Dana Reyes
Staff Accountant
Austin, TX

Experience
Staff Accountant, Company Name, 03/2018 to Present
Prepared journal entries and owned the general ledger through the month-end close.
Account reconciliations for bank and balance sheet accounts; accounts payable support.

Education
Bachelor of Science : Accounting, 2017`,
  partial: `Sam Ortiz
Accounts Payable Clerk
Denver, CO

Experience
Accounts Payable Clerk, Company Name, 01/2024 to Present
Entered vendor invoices into accounts payable and matched purchase orders.`,
  nurse: `Grace Kim
Registered Nurse

Experience
Registered Nurse, Company Name, 2015 to Present
Intensive care unit, patient assessment, medication administration.`,
  chef: `Tom Hale
Head Chef

Menu planning, kitchen staff, food safety and cost control for a busy restaurant.`,
};

const POSTING = `Staff Accountant
Location: Austin, TX

Our accounting team needs a Staff Accountant for the month-end close.

Requirements
- Bachelor's degree in accounting
- 3+ years of general ledger accounting
- Journal entries and account reconciliations
- Accounts payable

Nice to have
- CPA
`;

interface Assessment {
  criterion: { kind: string; name: string; required: boolean; weight: number };
  status: string;
  evidence: { text: string; start: number; end: number }[];
}

for (const mode of MODES)
  describeMode(mode)(`match searches (${mode.name} mode)`, () => {
    let service: ServiceUnderTest;
    let client: ApiClient;
    const ids: Record<string, string> = {};

    beforeAll(async () => {
      service = await mode.start();
      client = new ApiClient(service.baseUrl, (await createCompany(service, 'match', 100_000)).apiKey);
      for (const [name, text] of Object.entries(CVS))
        ids[name] = (await client.upload(Buffer.from(text), TEXT, { documentName: name, documentDate: '03-2025' })).body.documentId;
      const done = await client.waitForDocuments(Object.values(ids));
      expect([...done.values()].every((d) => d.status === 'completed')).toBe(true);
    });
    afterAll(() => service?.destroy());

    const match = async (body: Record<string, unknown>) => {
      const created = await client.post('/v1/public/searches/match', body);
      expect(created.status).toBe(202);
      const status = await client.waitForSearch(created.body.searchId);
      expect(status).toMatchObject({ status: 'completed' });
      const results = await client.get(`/v1/public/searches/${created.body.searchId}/results?include=extractedText`);
      return { created: created.body, status, results: results.body };
    };
    const namesOf = (results: Record<string, any>) => (results.results as { documentName: string }[]).map((r) => r.documentName);
    const criterion = (result: { match: { criteria: Assessment[] } }, kind: string, name?: string) =>
      result.match.criteria.find((c) => c.criterion.kind === kind && (name === undefined || c.criterion.name === name))!;

    it('reads the posting into criteria at once, ranks the CV that meets them first, and shows each criterion met or missing with evidence', async () => {
      const { created, status, results } = await match({ jobDescription: POSTING, top_k: 10 });
      expect(created).toMatchObject({ searchType: 'match', query: '', strict: false });
      expect(created.criteria).toMatchObject({
        title: 'Staff Accountant',
        experienceYears: { min: 3 },
        degree: { min: 'bachelor' },
        location: { place: 'Austin, Texas, United States', radiusKm: 50 },
      });
      expect(created.criteria.skills.required.map((s: { name: string }) => s.name)).toEqual(
        expect.arrayContaining(['General Ledger', 'Accounts Payable', 'journal entries']),
      );
      expect(status.criteria).toEqual(created.criteria);
      expect(results.criteria).toEqual(created.criteria);
      expect(namesOf(results)[0]).toBe('full');
      expect(results.metadata).toMatchObject({ strict: false, reranker: { provider: 'builtin' }, topK: 10 });

      const [best] = results.results;
      expect(best.match.score).toBeGreaterThan(results.results[1].match.score);
      expect(best.scores.criteria).toBe(best.match.score);
      const ledger = criterion(best, 'skill', 'General Ledger');
      expect(ledger.status).toBe('met');
      for (const e of ledger.evidence) expect(best.extractedText.slice(e.start, e.end)).toBe(e.text);
      expect(ledger.evidence[0].text).toMatch(/general ledger/);
      expect(criterion(best, 'location').status).toBe('met');
      expect(criterion(best, 'degree').status).toBe('met');
      expect(criterion(best, 'experienceYears').evidence[0].text).toMatch(/03\/2018 to Present/);

      const partial = results.results.find((r: { documentName: string }) => r.documentName === 'partial');
      expect(criterion(partial, 'skill', 'General Ledger').status).toBe('missing');
      expect(criterion(partial, 'location').status).toBe('missing');
      expect(criterion(partial, 'experienceYears').status).toBe('missing');
      expect(criterion(partial, 'degree').status).toBe('unknown');
    });

    it('runs criteria sent back edited, and strict makes the requirements filters', async () => {
      const first = await match({ jobDescription: POSTING });
      const criteria = { ...first.created.criteria, location: null, experienceYears: null, degree: null };
      criteria.skills = { required: [{ name: 'accounts payable', weight: 1 }], preferred: [] };
      const loose = await match({ criteria });
      expect(loose.created.criteria).toEqual(criteria);
      expect(namesOf(loose.results).slice(0, 2).sort()).toEqual(['full', 'partial']);
      const strict = await match({ criteria, strict: true, filters: { excludeDocumentIds: [ids.full] } });
      expect(strict.created.strict).toBe(true);
      expect(namesOf(strict.results)).toEqual(['partial']);
    });

    it('counts what each requirement keeps out and names the near misses, strict or not, within the client’s own filters', async () => {
      const read = (await match({ jobDescription: POSTING, top_k: 1 })).created.criteria;
      const skill = (name: string) => ({ kind: 'skill', name, required: true, weight: 1 });
      const criteria = {
        ...read,
        location: null,
        experienceYears: null,
        degree: null,
        languages: [],
        skills: {
          required: [
            { name: 'General Ledger', weight: 1 },
            { name: 'Accounts Payable', weight: 1 },
          ],
          preferred: [],
        },
      };
      for (const strict of [false, true]) {
        const { results } = await match({ criteria, strict });
        // partial names accounts payable but no general ledger; the nurse and the chef neither.
        expect(results.candidatesMeetingAll).toBe(1);
        expect(results.relaxations).toEqual([
          { criterion: skill('General Ledger'), additionalCandidates: 1 },
          { criterion: skill('Accounts Payable'), additionalCandidates: 0 },
        ]);
        expect(
          results.nearMisses.map((n: { documentName: string; missing: { name: string } }) => [n.documentName, n.missing.name]),
        ).toEqual([['partial', 'General Ledger']]);
        expect(results.nearMisses[0]).toMatchObject({ documentId: ids.partial, match: { criteria: expect.any(Array) } });
      }
      const without = await match({ criteria, strict: true, filters: { excludeDocumentIds: [ids.partial] } });
      expect(without.results).toMatchObject({ candidatesMeetingAll: 1, nearMisses: [] });
      expect(without.results.relaxations.map((r: { additionalCandidates: number }) => r.additionalCandidates)).toEqual([0, 0]);
    });

    it('reads an uploaded job posting (kind job), never returns it as a candidate, and answers a clear error for any other document', async () => {
      const uploaded = await client.upload(Buffer.from(POSTING), TEXT, {
        documentName: 'staff accountant posting',
        documentDate: '11-2026',
        kind: 'job',
      });
      expect(uploaded).toMatchObject({ status: 201, body: { kind: 'job' } });
      const postingId: string = uploaded.body.documentId;
      const [read] = (await client.waitForDocuments([postingId])).values();
      expect(read).toMatchObject({
        kind: 'job',
        status: 'completed',
        profile: null,
        extractedText: expect.stringContaining('Staff Accountant'),
      });

      const byDocument = await match({ jobDescriptionDocumentId: postingId, top_k: 10 });
      const byText = await match({ jobDescription: POSTING, top_k: 10 });
      expect(byDocument.created).toMatchObject({ jobDescriptionDocumentId: postingId, criteria: byText.created.criteria });
      expect(byDocument.results.jobDescriptionDocumentId).toBe(postingId);
      expect(namesOf(byDocument.results)).toEqual(namesOf(byText.results));
      expect(namesOf(byDocument.results)).not.toContain('staff accountant posting');
      const hybrid = await client.post('/v1/public/searches/hybrid', {
        query: 'staff accountant general ledger month-end close',
        top_k: 50,
      });
      await client.waitForSearch(hybrid.body.searchId);
      const hybridResults = await client.get(`/v1/public/searches/${hybrid.body.searchId}/results`);
      expect(hybridResults.body.results.map((r: { documentId: string }) => r.documentId)).not.toContain(postingId);

      const jobs = await client.get('/v1/public/documents?kind=job');
      expect(jobs.body.data.map((d: { documentId: string }) => d.documentId)).toEqual([postingId]);
      const cvs = await client.get('/v1/public/documents?kind=cv&limit=100');
      expect(cvs.body.data.map((d: { kind: string }) => d.kind)).toEqual(Object.keys(CVS).map(() => 'cv'));

      const similarToPosting = await client.post('/v1/public/searches/similar', { documentId: postingId });
      expect(similarToPosting).toMatchObject({
        status: 400,
        body: { message: expect.stringMatching(/is a job posting; a similar search starts from a CV/) },
      });
      const asCv = await client.post('/v1/public/searches/match', { jobDescriptionDocumentId: ids.full });
      expect(asCv).toMatchObject({
        status: 400,
        body: { message: expect.stringMatching(/is a CV; upload the job posting with kind "job"/) },
      });
      const unknown = await client.post('/v1/public/searches/match', { jobDescriptionDocumentId: '00000000-0000-4000-8000-000000000000' });
      expect(unknown).toMatchObject({ status: 404, body: { error: 'not_found' } });
      const both = await client.post('/v1/public/searches/match', { jobDescriptionDocumentId: postingId, jobDescription: POSTING });
      expect(both).toMatchObject({ status: 400, body: { message: expect.stringMatching(/takes one of jobDescription/) } });
      const badKind = await client.upload(Buffer.from(POSTING), TEXT, { documentName: 'x', documentDate: '11-2026', kind: 'posting' });
      expect(badKind).toMatchObject({ status: 400, body: { message: expect.stringMatching(/kind must be one of cv, job/) } });
    });

    it('answers 400 for a body without one posting, criteria it cannot run, or a strict requirement the filters cannot apply', async () => {
      for (const body of [
        {},
        { jobDescription: POSTING, criteria: { title: 'x' } },
        { jobDescription: '   ' },
        { jobDescription: 'x'.repeat(20_001) },
        { criteria: { title: 'Accountant' } },
        { jobDescription: POSTING, query: 'accountant' },
        { jobDescription: POSTING, strict: 'yes' },
      ]) {
        const answer = await client.post('/v1/public/searches/match', body);
        expect({ status: answer.status, error: answer.body.error }).toEqual({ status: 400, error: 'invalid_request' });
      }
      const nothing = await client.post('/v1/public/searches/match', { jobDescription: '12345 67890' });
      expect(nothing).toMatchObject({ status: 400, body: { message: expect.stringMatching(/no job title and no skill/) } });
      const unknownPlace = await client.post('/v1/public/searches/match', {
        criteria: {
          ...(await match({ jobDescription: POSTING, top_k: 1 })).created.criteria,
          location: { place: 'Nowhereville', radiusKm: 5 },
        },
      });
      expect(unknownPlace).toMatchObject({
        status: 400,
        body: { message: expect.stringMatching(/criteria\.location\.place.*Nowhereville/) },
      });
    });
  });
