import type { FileResult } from '../upload/upload-runner';
import { countOutcomes, displayPath, renderUploadSummary } from './upload-format';

const result = (file: string, outcome: FileResult['outcome'], message: string | null = null, fromEarlierRun = false): FileResult => ({
  file: `/home/ann/cvs/${file}`,
  size: 10,
  outcome,
  documentId: outcome === 'not-uploaded' ? null : `id-${file}`,
  message,
  fromEarlierRun,
});

describe('renderUploadSummary', () => {
  const results = [
    result('anna.pdf', 'completed', null, true),
    result('ben.docx', 'completed'),
    { ...result('copy-of-anna.pdf', 'duplicate'), documentId: 'id-anna.pdf' },
    result('known-elsewhere.pdf', 'duplicate'),
    result('scan.pdf', 'invalid', 'No text found: the file holds images only (a scan?); 0 letters of text, 50 needed'),
    result('locked.pdf', 'failed', 'The file is encrypted'),
    result('huge.pdf', 'not-uploaded', 'payload_too_large: files are limited to 10 MB'),
  ];

  it('counts files per result, says how many an earlier run did, and lists every file that is not simply searchable with the API message', () => {
    const out = renderUploadSummary(results, { unsupported: ['/home/ann/cvs/photo.png'], cwd: '/home/ann', width: 100 });
    expect(out).toMatch(/│ completed \(searchable\) +│ +2 │/);
    expect(out).toMatch(/│ duplicate \(already uploaded\) +│ +2 │/);
    expect(out).toMatch(/│ invalid +│ +1 │/);
    expect(out).toMatch(/│ failed +│ +1 │/);
    expect(out).toMatch(/│ not uploaded +│ +1 │/);
    expect(out).toMatch(/│ not a CV \(skipped\) +│ +1 │/);
    expect(out).not.toContain('still processing');
    expect(out).toContain('1 of them done by an earlier run, not uploaded again.');
    expect(out).toMatch(/│ cvs\/copy-of-anna\.pdf +│ duplicate +│ same bytes as cvs\/anna\.pdf +│/);
    expect(out).toMatch(/│ cvs\/known-elsewhere\.pdf +│ duplicate +│ same bytes as document id-known-elsewhere\.pdf +│/);
    expect(out).toMatch(/│ cvs\/locked\.pdf +│ failed +│ The file is encrypted +│/);
    expect(out).toMatch(/│ cvs\/huge\.pdf +│ not uploaded +│ payload_too_large: files are limited to 10 MB +│/);
    expect(out).toMatch(/│ cvs\/photo\.png +│ skipped +│ not a pdf, docx, doc or txt file +│/);
    // A long message wraps within the width rather than losing its end.
    expect(out).toMatch(/│ cvs\/scan\.pdf +│ invalid +│ No text found/);
    expect(out.replace(/[│\s]+/g, ' ')).toContain('0 letters of text, 50 needed');
    expect(Math.max(...out.split('\n').map((l) => l.length))).toBeLessThanOrEqual(100);
    expect(out).not.toMatch(/anna\.pdf +│ completed/);
  });

  it('counts the files an interrupted run did not start', () => {
    const out = renderUploadSummary([result('a.pdf', 'completed')], { unsupported: [], cwd: '/', width: 80, notStarted: 12 });
    expect(out).toMatch(/│ not started \(interrupted\) +│ +12 │/);
  });

  it('is one table when every file became searchable', () => {
    const out = renderUploadSummary([result('a.pdf', 'completed'), result('b.pdf', 'completed')], { unsupported: [], cwd: '/', width: 80 });
    expect(out).toMatch(/│ completed \(searchable\) +│ +2 │/);
    expect(out.split('\n')).toHaveLength(5);
  });
});

describe('countOutcomes', () => {
  it('counts every outcome, zero included', () => {
    expect(countOutcomes([result('a', 'completed'), result('b', 'completed'), result('c', 'processing')])).toEqual({
      completed: 2,
      duplicate: 0,
      invalid: 0,
      failed: 0,
      'not-uploaded': 0,
      processing: 1,
    });
  });
});

describe('displayPath', () => {
  it('shows a path relative to where the command ran, and an absolute one outside it', () => {
    expect(displayPath('/home/ann/cvs/a.pdf', '/home/ann')).toBe('cvs/a.pdf');
    expect(displayPath('/srv/cvs/a.pdf', '/home/ann')).toBe('/srv/cvs/a.pdf');
  });
});
