import * as path from 'node:path';
import type { FileResult, Outcome } from '../upload/upload-runner';
import { flexibleWidth, renderTable, truncate } from './table';

export const OUTCOMES: readonly Outcome[] = ['completed', 'duplicate', 'invalid', 'failed', 'not-uploaded', 'processing'];

/** Files per outcome, every outcome present (0 when none). */
export function countOutcomes(results: readonly FileResult[]): Record<Outcome, number> {
  const counts = Object.fromEntries(OUTCOMES.map((o) => [o, 0])) as Record<Outcome, number>;
  for (const r of results) counts[r.outcome]++;
  return counts;
}

/** A path as the user would type it from where they ran the command. */
export const displayPath = (file: string, cwd: string): string => {
  const relative = path.relative(cwd, file);
  return relative && !relative.startsWith('..') && !path.isAbsolute(relative) ? relative : file;
};

const LABELS: Record<Outcome, string> = {
  completed: 'completed (searchable)',
  duplicate: 'duplicate (already uploaded)',
  invalid: 'invalid',
  failed: 'failed',
  'not-uploaded': 'not uploaded',
  processing: 'still processing',
};

/**
 * The end of an upload: files per outcome, then a row for each file that did not simply become
 * searchable (duplicates, invalid and failed documents, refused uploads, files that are not CVs),
 * with the API's message.
 */
export function renderUploadSummary(
  results: readonly FileResult[],
  options: { unsupported: readonly string[]; cwd: string; width: number; notStarted?: number },
): string {
  const counts = countOutcomes(results);
  const earlier = results.filter((r) => r.fromEarlierRun).length;
  const rows = OUTCOMES.filter((o) => counts[o] > 0 || o === 'completed').map((o) => [LABELS[o], String(counts[o])]);
  if (options.unsupported.length) rows.push(['not a CV (skipped)', String(options.unsupported.length)]);
  if (options.notStarted) rows.push(['not started (interrupted)', String(options.notStarted)]);
  const totals = renderTable({ head: ['Result', 'Files'], rows, alignRight: [1] });
  const lines = [totals];
  if (earlier) lines.push(`${earlier} of them done by an earlier run, not uploaded again.`);

  // A duplicate of a file of this run is named by that file, which says more than its document id.
  const original = new Map(results.filter((r) => r.outcome !== 'duplicate' && r.documentId).map((r) => [r.documentId, r.file]));
  const problems = [
    ...results
      .filter((r) => r.outcome !== 'completed')
      .map((r) => {
        const same = r.outcome === 'duplicate' ? original.get(r.documentId) : undefined;
        const detail = same ? `same bytes as ${displayPath(same, options.cwd)}` : detailOf(r);
        return [displayPath(r.file, options.cwd), r.outcome === 'not-uploaded' ? 'not uploaded' : r.outcome, detail];
      }),
    ...options.unsupported.map((file) => [displayPath(file, options.cwd), 'skipped', 'not a pdf, docx, doc or txt file']),
  ];
  if (problems.length) {
    const fileWidth = Math.min(40, Math.max(4, ...problems.map((p) => p[0].length)));
    const messageWidth = flexibleWidth(options.width, [fileWidth, 12], 1, 20);
    lines.push(
      renderTable({
        head: ['File', 'Result', 'Details'],
        rows: problems.map(([file, outcome, detail]) => [truncate(file, fileWidth), outcome, detail]),
        colWidths: [fileWidth + 2, 14, messageWidth + 2],
        wrap: true,
      }),
    );
  }
  return lines.join('\n');
}

function detailOf(r: FileResult): string {
  switch (r.outcome) {
    case 'duplicate':
      return `same bytes as document ${r.documentId ?? ''}`.trim();
    case 'processing':
      return `document ${r.documentId ?? ''} is not searchable yet`;
    case 'completed':
    case 'invalid':
    case 'failed':
    case 'not-uploaded':
      return r.message ?? '';
  }
}
