import { inSpan } from '@cs/telemetry';
import type { SearchCommand } from './search-command';

/** A stage of the pipeline as a span of the search's trace: its type, its company, and how many items came out. */
export function inStageSpan<T>(stage: string, command: SearchCommand, counted: (out: T) => number, work: () => Promise<T> | T): Promise<T> {
  return inSpan(`search ${stage}`, { 'cs.search.type': command.type, 'cs.company_id': command.companyId }, async (span) => {
    const out = await work();
    span.setAttribute('cs.results', counted(out));
    return out;
  });
}
