import { readFileSync } from 'node:fs';
import { docTableBomb, docxBomb, pdfFlateBomb, pdfNestingBomb, pdfPageBomb } from '@cs/document-parsing/testing';
import { ApiClient } from '../support/api-client';
import { TEXT, TEXT_CVS, adminCli } from '../support/fixtures';
import { StandaloneService } from '../support/standalone-service';

// Hostile files cannot take ingestion down. The standalone service as `npm start`
// runs it (one process, its parse workers), company A uploading bombs, company B a CV.
jest.setTimeout(240_000);

const PEAK_RSS_LIMIT_MB = 1200;
const BOMB_INVALID_WITHIN_MS = 10_000;
const CV_SEARCHABLE_WITHIN_MS = 5_000;

const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
const PDF = 'application/pdf';
const DOC = 'application/msword';

interface Bomb {
  name: string;
  contentType: string;
  make: (variant: number) => Buffer;
  message: RegExp;
}

const BOMBS: Bomb[] = [
  { name: 'docx-1.5GB', contentType: DOCX, make: (v) => docxBomb(v), message: /expands to more than 32 MB when unpacked/ },
  { name: 'pdf-1GB-stream', contentType: PDF, make: (v) => pdfFlateBomb(v), message: /stream in the PDF decodes to more than 64 MB/ },
  { name: 'pdf-30000-pages', contentType: PDF, make: (v) => pdfPageBomb(v), message: /has 30000 pages/ },
  { name: 'pdf-nested-100k', contentType: PDF, make: (v) => pdfNestingBomb(v), message: /nests its objects more than 256 levels/ },
  { name: 'doc-2GB-table', contentType: DOC, make: (v) => docTableBomb(v), message: /sector chain in the file loops or runs past the end/ },
];

/** The service's resident memory, sampled every 100 ms from /proc (parse workers are threads of the same process). */
class RssSampler {
  peakMb = 0;
  private readonly timer: NodeJS.Timeout;

  constructor(pid: number) {
    this.timer = setInterval(() => {
      try {
        const kb = Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
        this.peakMb = Math.max(this.peakMb, kb / 1024);
      } catch {
        // the process is gone: the test fails on its own
      }
    }, 100);
  }

  stop(): void {
    clearInterval(this.timer);
  }
}

/** Uploads and polls every 100 ms until the document leaves uploading/pending; the status and ms from upload. */
async function uploadAndWait(
  client: ApiClient,
  file: Buffer,
  contentType: string,
  documentName: string,
  timeoutMs = 60_000,
): Promise<{ status: string; message: string; ms: number }> {
  const started = performance.now();
  const upload = await client.upload(file, contentType, { documentName, documentDate: '01-2024' });
  if (upload.status !== 201) throw new Error(`upload of ${documentName}: ${upload.status} ${JSON.stringify(upload.body)}`);
  const id = upload.body.documentId as string;
  while (performance.now() - started < timeoutMs) {
    const { body } = await client.get(`/v1/public/documents/${id}`);
    if (!['uploading', 'pending'].includes(body.status))
      return { status: body.status, message: body.message ?? '', ms: performance.now() - started };
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${documentName} still processing after ${timeoutMs} ms`);
}

const report = (line: string) => process.stdout.write(`bombs: ${line}\n`);

describe('bombs cannot take ingestion down (standalone)', () => {
  let service: StandaloneService;
  let hostile: ApiClient;
  let ordinary: ApiClient;
  let rss: RssSampler;

  const company = (name: string): ApiClient => {
    const env = { ADMIN_URL: service.baseUrl, DATA_DIR: service.dataDir };
    const created = JSON.parse(adminCli(['companies', 'create', '--name', name], env).stdout) as { companyId: string; apiKey: string };
    for (const category of ['upload-burst', 'upload-sustained', 'read']) {
      expect(adminCli(['limits', 'set', '--company', created.companyId, '--category', category, '--limit', '10000'], env).status).toBe(0);
    }
    return new ApiClient(service.baseUrl, created.apiKey);
  };

  beforeAll(async () => {
    service = await StandaloneService.start();
    hostile = company('hostile');
    ordinary = company('ordinary');
    rss = new RssSampler(service.pid!);
    // The first CV loads what ingestion needs once; the timings below are of a warm service.
    const warm = await uploadAndWait(ordinary, Buffer.from(TEXT_CVS.accountant), TEXT, 'warm-up');
    expect(warm.status).toBe('completed');
    report(`an ordinary CV alone, on a fresh service: completed in ${Math.round(warm.ms)} ms; service RSS ${Math.round(rss.peakMb)} MB`);
  });

  afterAll(async () => {
    rss?.stop();
    if (rss) report(`peak service RSS over the suite: ${Math.round(rss.peakMb)} MB (limit ${PEAK_RSS_LIMIT_MB} MB)`);
    await service?.destroy();
  });

  it.each(BOMBS.map((bomb) => [bomb.name, bomb] as const))('ends the %s bomb invalid within 10 s, naming its bound', async (_, bomb) => {
    const file = bomb.make(0);
    const outcome = await uploadAndWait(hostile, file, bomb.contentType, `${bomb.name}-alone`);
    report(
      `${bomb.name} (${(file.length / 1024 / 1024).toFixed(2)} MB) alone: ${outcome.status} in ${Math.round(outcome.ms)} ms ("${outcome.message}"); peak RSS so far ${Math.round(rss.peakMb)} MB`,
    );
    expect(outcome).toMatchObject({ status: 'invalid', message: expect.stringMatching(bomb.message) });
    expect(outcome.ms).toBeLessThan(BOMB_INVALID_WITHIN_MS);
    expect(rss.peakMb).toBeLessThan(PEAK_RSS_LIMIT_MB);
  });

  it("ends all the bombs at once invalid within 10 s, while another company's CV is searchable within 5 s", async () => {
    const bombs = BOMBS.map((bomb) => uploadAndWait(hostile, bomb.make(1), bomb.contentType, `${bomb.name}-together`));
    // Just behind the bombs, as a CV uploaded while they are being read.
    await new Promise((r) => setTimeout(r, 200));
    const cv = await uploadAndWait(ordinary, Buffer.from(TEXT_CVS.developer), TEXT, 'developer-cv');
    const outcomes = await Promise.all(bombs);
    BOMBS.forEach((bomb, i) => report(`${bomb.name} together: ${outcomes[i].status} in ${Math.round(outcomes[i].ms)} ms`));
    report(`company B's CV uploaded among them: ${cv.status} in ${Math.round(cv.ms)} ms; peak RSS so far ${Math.round(rss.peakMb)} MB`);
    BOMBS.forEach((bomb, i) => {
      expect({ bomb: bomb.name, status: outcomes[i].status, message: outcomes[i].message }).toEqual({
        bomb: bomb.name,
        status: 'invalid',
        message: expect.stringMatching(bomb.message),
      });
      expect({ bomb: bomb.name, withinLimit: outcomes[i].ms < BOMB_INVALID_WITHIN_MS }).toEqual({ bomb: bomb.name, withinLimit: true });
    });
    expect(cv.status).toBe('completed');
    expect(cv.ms).toBeLessThan(CV_SEARCHABLE_WITHIN_MS);
    expect(rss.peakMb).toBeLessThan(PEAK_RSS_LIMIT_MB);
  });
});
