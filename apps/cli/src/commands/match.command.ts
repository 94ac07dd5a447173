import { open } from 'node:fs/promises';
import * as path from 'node:path';
import {
  MAX_UPLOAD_BYTES,
  type CandidateMatch,
  type JobCriteria,
  type SearchFilters,
  type SearchResults,
} from '@candidate-search/client/node';
import type { CliContext } from '../cli-context';
import { CliError, ExitCode } from '../exit-codes';
import { filterNames } from '../search/filter-flags';
import { rankingText, waitingLine } from './search.command';

export interface MatchCommandOptions {
  topK?: number;
  /** Results shown (and fetched). */
  limit: number;
  timeoutSeconds: number;
  /** The posting's requirements as filters (the API's default, false, when undefined). */
  strict?: boolean;
  /** Conditions every result meets (from the filter flags); none when undefined. */
  filters?: SearchFilters;
}

/** A posting longer than the API reads is refused there; here it is refused before it is sent. */
const MAX_POSTING_CHARS = 20_000;
/** What a file starts with when it is no text: a PDF, a ZIP (DOCX), an OLE2 compound file (DOC). */
const BINARY_START = [Buffer.from('%PDF'), Buffer.from('PK\u0003\u0004'), Buffer.from([0xd0, 0xcf, 0x11, 0xe0])];

/** Bytes read of a posting piped in at most: what 20,000 characters take in UTF-8, and one more to tell a longer one. */
const MAX_POSTING_BYTES = MAX_POSTING_CHARS * 4 + 1;

/** What is matched: a posting's text, or its file (a PDF, DOCX or DOC), uploaded as a job posting. */
export type PostingSource = { text: string } | { file: Uint8Array; fileName: string };

/** Up to `max` bytes of a stream. */
async function readUpTo(stream: AsyncIterable<Buffer | string>, max: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    chunks.push(bytes);
    size += bytes.length;
    if (size >= max) break;
  }
  return Buffer.concat(chunks).subarray(0, max);
}

/** The posting from a file (its text, or a document file to upload), or its text from stdin for `-`. */
async function readPosting(ctx: CliContext, source: string): Promise<PostingSource> {
  let bytes: Buffer;
  if (source === '-') bytes = await readUpTo(ctx.io.stdin, MAX_POSTING_BYTES);
  else {
    const file = await open(path.resolve(ctx.io.cwd, source)).catch((error: unknown) => {
      const reason = (error as NodeJS.ErrnoException).code ?? String(error);
      throw new CliError(`cannot read ${source}: ${reason}`, ExitCode.usage);
    });
    try {
      bytes = await readUpTo(file.createReadStream({ autoClose: false }), MAX_UPLOAD_BYTES + 1);
    } finally {
      await file.close();
    }
  }
  if (BINARY_START.some((start) => bytes.subarray(0, start.length).equals(start))) {
    if (source === '-')
      throw new CliError(
        'stdin is not text: pipe the posting’s text, or give its file',
        ExitCode.usage,
        'candidate-search match posting.pdf',
      );
    if (bytes.length > MAX_UPLOAD_BYTES) throw new CliError(`${source} is over the API's ${MAX_UPLOAD_BYTES} bytes`, ExitCode.usage);
    return { file: bytes, fileName: path.basename(source) };
  }
  if (bytes.includes(0)) throw new CliError(`${source} is neither text nor a PDF, DOCX or DOC file`, ExitCode.usage);
  const text = bytes.toString('utf8');
  if (!text.trim()) throw new CliError(`${source} holds no text`, ExitCode.usage);
  if (text.length > MAX_POSTING_CHARS || bytes.length >= MAX_POSTING_BYTES)
    throw new CliError(`${source} holds more than ${MAX_POSTING_CHARS} characters, the most a posting may have`, ExitCode.usage);
  return { text };
}

/** The criteria in a line each: the title, the skills, and the rest the posting asks for. */
export function criteriaLines(criteria: JobCriteria): string[] {
  const names = (list: JobCriteria['skills']['required']) => list.map((s) => s.name).join(', ') || 'none';
  const asked = [
    criteria.experienceYears && `${criteria.experienceYears.min}+ years`,
    criteria.seniority,
    criteria.degree && `${criteria.degree.min} or above`,
    criteria.location && ('remote' in criteria.location ? 'remote' : `${criteria.location.place} within ${criteria.location.radiusKm} km`),
    ...criteria.languages,
  ].filter((a): a is string => Boolean(a));
  return [
    `Title: ${criteria.title ?? 'none read'}`,
    `Required skills: ${names(criteria.skills.required)}`,
    `Preferred skills: ${names(criteria.skills.preferred)}`,
    ...(asked.length ? [`Also asked: ${asked.join('; ')}`] : []),
  ];
}

/** A result's criteria in one line: what it meets, partly meets, misses and does not say. */
export function matchLine(rank: number, name: string, match: CandidateMatch): string {
  const by = (status: string) => match.criteria.filter((c) => c.status === status).map((c) => c.criterion.name);
  const met = by('met');
  const parts = [`met ${met.length} of ${match.criteria.length}`];
  for (const [status, label] of [
    ['partly', 'partly'],
    ['missing', 'missing'],
    ['unknown', 'not said'],
  ] as const) {
    const names = by(status);
    if (names.length) parts.push(`${label}: ${names.join(', ')}`);
  }
  return `${rank}. ${name}: ${parts.join('; ')}`;
}

/** `match <posting>`: the company's CVs ranked against a job posting, with the criteria read from it and those each CV meets. */
export async function runMatch(ctx: CliContext, source: string, options: MatchCommandOptions): Promise<ExitCode> {
  const posting = await readPosting(ctx, source);
  const { client } = await ctx.connect();
  const { filters } = options;
  const clear = waitingLine(ctx, 'file' in posting ? `Uploading ${posting.fileName} as a job posting, then matching…` : 'Matching…');
  const { search, page } = await client
    .match('file' in posting ? posting : posting.text, {
      topK: options.topK,
      strict: options.strict,
      filters,
      limit: options.limit,
      timeoutMs: options.timeoutSeconds * 1000,
    })
    .finally(clear);
  ctx.out.result(page, () => {
    const criteria = page.criteria;
    const ranking = rankingText(ctx, page, {
      head: `match search${options.strict ? ' (strict)' : ''}${filters ? ` filtered by ${filterNames(filters)}` : ''}: ${page.totalResults} results in ${search.processingTimeMs} ms (search ${search.searchId})`,
      lines: [
        ...(search.jobDescriptionDocumentId ? [`Posting: ${source} (job posting document ${search.jobDescriptionDocumentId})`] : []),
        ...(criteria ? criteriaLines(criteria) : []),
      ],
      none: `No CV matched${options.strict ? ' every requirement' : ''}${filters ? ' within the filters' : ''}.`,
      limit: options.limit,
    });
    return [ranking, matchLines(page, options.limit), requirementLines(page)]
      .filter((block) => block.length > 0)
      .map((block) => (typeof block === 'string' ? block : block.join('\n')))
      .join('\n\n');
  });
  return ExitCode.ok;
}

/** How many CVs meet every requirement, what loosening each would add, and the near misses. */
export function requirementLines(page: Pick<SearchResults, 'candidatesMeetingAll' | 'relaxations' | 'nearMisses'>): string[] {
  if (page.candidatesMeetingAll === undefined) return [];
  const loosened = (page.relaxations ?? []).filter((r) => r.additionalCandidates > 0);
  const near = page.nearMisses ?? [];
  return [
    page.candidatesMeetingAll === 1 ? '1 CV meets every requirement.' : `${page.candidatesMeetingAll} CVs meet every requirement.`,
    ...(loosened.length ? [`Loosening one adds: ${loosened.map((r) => `${r.criterion.name} +${r.additionalCandidates}`).join(', ')}`] : []),
    ...(near.length ? [`Near misses: ${near.map((n) => `${n.documentName} (missing ${n.missing.name})`).join(', ')}`] : []),
  ];
}

function matchLines(page: SearchResults, limit: number): string[] {
  return page.results.slice(0, limit).flatMap((r) => (r.match ? [matchLine(r.rank, r.documentName ?? r.documentId, r.match)] : []));
}
