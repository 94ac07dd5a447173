import { z } from 'zod';

/**
 * Payloads of the queue's jobs, one schema per kind: publishers are typed by them, and every
 * payload is parsed against them when it is consumed (a job may outlive the code that sent it,
 * or come from outside). Unknown fields are dropped, so an older consumer reads a newer payload.
 */
export const jobPayloadSchemas = {
  /** Published when a search is accepted; run by the search orchestrator. */
  search: z.object({
    /** The search to run (also the job's idempotency key). */
    searchId: z.uuid(),
  }),
  /** Published when a CV file is stored; processed by ingestion. */
  ingestion: z.object({
    /** The document to parse and index (also the job's idempotency key). */
    documentId: z.uuid(),
  }),
} as const;

export type JobKind = keyof typeof jobPayloadSchemas;

/** Every job kind, in a stable order (stream subjects, consumers). */
export const JOB_KINDS = Object.keys(jobPayloadSchemas) as JobKind[];

/** The payload each job kind carries. */
export type JobPayloads = { [K in JobKind]: z.infer<(typeof jobPayloadSchemas)[K]> };

/** A consumed payload, parsed: the typed payload, or why it is refused. */
export type ParsedJobPayload<K extends JobKind> = { ok: true; payload: JobPayloads[K] } | { ok: false; reason: string };

/** Parses what a queue delivered for a job of `kind` against that kind's schema. */
export function parseJobPayload<K extends JobKind>(kind: K, raw: unknown): ParsedJobPayload<K> {
  const parsed = jobPayloadSchemas[kind].safeParse(raw);
  if (parsed.success) return { ok: true, payload: parsed.data as JobPayloads[K] };
  const problems = parsed.error.issues.map((issue) => `${issue.path.join('.') || '(payload)'}: ${issue.message}`);
  return { ok: false, reason: `invalid ${kind} job payload: ${problems.join('; ')}` };
}
