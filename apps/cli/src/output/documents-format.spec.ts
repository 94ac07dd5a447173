import type { Document, DocumentList } from '@candidate-search/client/node';
import { renderDocument, renderDocumentList } from './documents-format';

const doc = (over: Partial<Document> = {}): Document => ({
  documentId: '7d2a0000-0000-4000-8000-000000000001',
  documentName: 'anna.pdf',
  documentType: 'cv',
  kind: 'cv',
  documentDate: '03-2024',
  status: 'completed',
  message: 'Searchable',
  createdAt: '2026-11-24T19:05:31.123Z',
  updatedAt: '2026-11-24T19:05:33.000Z',
  file: { name: 'anna.pdf', size: 2657, sizeFormatted: '2.6 KB', contentType: 'application/pdf' },
  summary: 'Chartered accountant with nine years of month-end close.',
  contact: {
    firstName: 'Anna',
    lastName: 'Müller',
    email: 'anna@example.com',
    phone: null,
    linkedin: null,
    location: { city: 'Zürich', country: 'Switzerland' },
  },
  profile: {
    domain: 'Accounting and finance',
    specialization: 'Senior Accountant',
    seniorityLevel: 'senior',
    experienceYears: 9,
    technicalStack: ['SAP', 'Excel'],
    skills: ['SAP', 'Excel'],
    degree: 'bachelor',
    languages: ['German', 'English'],
    industries: [],
    recentExpertise: [],
    hasManagement: true,
    location: null,
  },
  error: null,
  extractedText: 'Anna Müller\nSenior Accountant',
  ...over,
});

describe('renderDocumentList', () => {
  it('prints a row per document and where the page stands, with the reason of each document that is not searchable', () => {
    const list: DocumentList = {
      data: [
        doc(),
        doc({ documentId: '7d2a0000-0000-4000-8000-000000000002', documentName: 'scan.pdf', status: 'invalid', message: 'No text found' }),
      ],
      pagination: { limit: 2, offset: 0, total: 5, hasMore: true },
    };
    const out = renderDocumentList(list, 120);
    expect(out).toMatch(/│ 7d2a0000-0000-4000-8000-000000000001 │ anna\.pdf +│ completed │ +2\.6 KB │ 2026-11-24 19:05 +│/);
    expect(out).toContain('Documents 1-2 of 5 (next page: --offset 2).');
    expect(out).toContain('scan.pdf (invalid): No text found');
    expect(out).not.toContain('anna.pdf (completed)');
  });

  it('says so when there are none', () => {
    expect(renderDocumentList({ data: [], pagination: { limit: 20, offset: 0, total: 0, hasMore: false } }, 80)).toBe('No documents.');
  });
});

describe('renderDocument', () => {
  it('shows what the document is and what was read from it, leaving out what the CV does not say', () => {
    const out = renderDocument(doc(), { text: false });
    expect(out).toMatch(/^ID +7d2a0000-0000-4000-8000-000000000001$/m);
    expect(out).toMatch(/^Candidate +Anna Müller$/m);
    expect(out).toMatch(/^Location +Zürich, Switzerland$/m);
    expect(out).toMatch(/^Experience +9 years$/m);
    expect(out).toMatch(/^Skills +SAP, Excel$/m);
    expect(out).not.toMatch(/^(Phone|LinkedIn|Industries|Error)/m);
    expect(out).not.toContain('Anna Müller\nSenior Accountant');
    expect(renderDocument(doc(), { text: true })).toMatch(/\n\nAnna Müller\nSenior Accountant$/);
  });

  it('shows why a failed document failed', () => {
    const out = renderDocument(
      doc({ status: 'failed', error: { message: 'The file is encrypted', retryable: false }, contact: null, profile: null }),
      { text: false },
    );
    expect(out).toMatch(/^Error +The file is encrypted$/m);
  });
});
