import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { FIXTURE_CVS, FIXTURE_FORMATS, fixtureCvFile, textlessPdf, type FixtureFormat } from '@cs/document-parsing/testing';
import { ApiClient } from './api-client';
import { EVAL_DIR } from './standalone-service';

export const PDF = 'application/pdf';
export const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
export const DOC = 'application/msword';
export const TEXT = 'text/plain';

export const haveEval = existsSync(path.join(EVAL_DIR, 'livecareer/pdf'));

export interface CorpusFile {
  file: string;
  category: string;
  contentType: string;
  bytes: Buffer;
}

const CATEGORIES = [
  'ACCOUNTANT',
  'CHEF',
  'INFORMATION-TECHNOLOGY',
  'TEACHER',
  'HEALTHCARE',
  'AVIATION',
  'CONSTRUCTION',
  'HR',
  'SALES',
  'FITNESS',
];

/** 40 livecareer PDFs (4 from each of 10 categories) and 10 DOCX CVs, in a fixed order. */
export function evalCorpus(): { pdfs: CorpusFile[]; docx: CorpusFile[]; emptyPdf: Buffer } {
  const pdfs = CATEGORIES.flatMap((category) => {
    const dir = path.join(EVAL_DIR, 'livecareer/pdf', category);
    return readdirSync(dir)
      .sort()
      .slice(0, 4)
      .map((f) => ({ file: `${category}/${f}`, category, contentType: PDF, bytes: readFileSync(path.join(dir, f)) }));
  });
  const docx = Array.from({ length: 10 }, (_, i) => {
    const file = `${i + 1}.docx`;
    return { file, category: 'DOCX', contentType: DOCX, bytes: readFileSync(path.join(EVAL_DIR, 'docx-cvs', file)) };
  });
  const emptyPdf = readFileSync(path.join(EVAL_DIR, 'livecareer/pdf/BUSINESS-DEVELOPMENT/12632728.pdf'));
  return { pdfs, docx, emptyPdf };
}

export interface GeneratedFile extends CorpusFile {
  format: FixtureFormat;
  profession: string;
  /** The CV's text as written, which the file's extracted text must hold word for word. */
  text: string;
}

/**
 * The project's fixture CVs (libs/document-parsing testing), each as PDF, DOCX, DOC and TXT,
 * named `<profession>.<format>` in category `GENERATED-<profession>`, and a PDF with no text.
 * Built in memory, with the same bytes on every call; `variant` gives other bytes of the same text.
 */
export async function generatedCorpus(variant = 0): Promise<{ files: GeneratedFile[]; textlessPdf: Buffer }> {
  const files: GeneratedFile[] = [];
  for (const { profession, text } of FIXTURE_CVS)
    for (const format of FIXTURE_FORMATS) {
      const { bytes, mime } = await fixtureCvFile(text, format, variant);
      files.push({
        file: `${profession}.${format}`,
        category: `GENERATED-${profession}`,
        contentType: mime,
        bytes,
        format,
        profession,
        text,
      });
    }
  return { files, textlessPdf: await textlessPdf(variant) };
}

/** Plain-text CVs written for the tests: enough to search when ../shared is absent. */
export const TEXT_CVS: Record<string, string> = {
  accountant:
    'Senior Accountant\nSummary\nCPA with eight years in month-end close, general ledger reconciliations, accounts payable and accounts receivable. QuickBooks and SAP.\nExperience\nStaff Accountant, 2015 to 2023: prepared journal entries, bank reconciliations and financial statements.',
  developer:
    'Software Engineer\nSummary\nBackend developer building Node.js and TypeScript services on Kubernetes, with PostgreSQL, Redis and CI/CD pipelines.\nExperience\nEngineer, 2018 to 2024: designed REST APIs, wrote C++ and Python tools, mentored two junior engineers.',
  chef: 'Executive Chef\nSummary\nChef running a busy restaurant kitchen: seasonal menu planning, food safety, cost control and training line cooks.\nExperience\nSous Chef, 2012 to 2019: managed inventory, ordering and a team of twelve cooks.',
  teacher:
    'Middle School Teacher\nSummary\nLanguage arts teacher planning lessons and curriculum for middle school students, classroom management and reading intervention.\nExperience\nTeacher, 2010 to 2022: differentiated instruction, parent conferences, state testing.',
};

/** What the admin API needs of a running service: where it is, and its admin token (or the data folder holding it). */
export interface AdminTarget {
  baseUrl: string;
  dataDir?: string;
  adminToken?: string;
}

/**
 * The admin API over HTTP, with the admin token, as the admin CLI calls it. Suites that test
 * something else set up with it: each CLI run is a Node process of its own, a second or more.
 * The admin CLI itself is run where suites check what it prints: `companies create` (api-contract,
 * idempotency, e2e/cli), `keys create` (ended-search-reads), `limits set` and `keys revoke`
 * (rate-limits), `dense` and `reindex` (dense-models), `dead-letters` and `webhooks`.
 */
export async function adminApi<T = Record<string, any>>(target: AdminTarget, method: string, route: string, json?: unknown): Promise<T> {
  const token = target.adminToken ?? readFileSync(path.join(target.dataDir!, 'admin-token'), 'utf8').trim();
  const client = new ApiClient(target.baseUrl, undefined);
  const answer = await client.request<T>(method, `/admin/v1${route}`, { json, headers: { authorization: `Bearer ${token}` } });
  if (answer.status >= 300) throw new Error(`${method} /admin/v1${route} answered ${answer.status}: ${JSON.stringify(answer.body)}`);
  return answer.body;
}

/** The rate-limit categories a company's uploads and searches count against. */
export const LIMIT_CATEGORIES = ['upload-burst', 'upload-sustained', 'read', 'search'] as const;

/** A new company and its first API key; with `limit`, every rate limit of its raised to it. */
export async function createCompany(target: AdminTarget, name: string, limit?: number): Promise<{ companyId: string; apiKey: string }> {
  const company = await adminApi<{ companyId: string; apiKey: string }>(target, 'POST', '/companies', { name });
  if (limit !== undefined)
    for (const category of LIMIT_CATEGORIES) await adminApi(target, 'PUT', `/companies/${company.companyId}/limits/${category}`, { limit });
  return company;
}

/** Runs the admin CLI the way the README says (`npm run -s admin -- ...`). */
export function adminCli(args: string[], env: Record<string, string>): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync('npm', ['run', '-s', 'admin', '--', ...args], {
    cwd: path.resolve(__dirname, '../..'),
    env: { ...process.env, NODE_OPTIONS: '', ...env },
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}
