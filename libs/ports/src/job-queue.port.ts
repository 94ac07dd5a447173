import { parseJobPayload, type JobKind, type JobPayloads } from '@cs/contracts';

export type { JobKind, JobPayloads } from '@cs/contracts';

export interface Job<P> {
  id: string;
  kind: JobKind;
  payload: P;
  /** 1 on the first delivery. */
  attempt: number;
}

/** What a handler tells the queue: done, try again later, or give up. */
export type JobOutcome = { ack: true } | { ack: false; retry: boolean; reason: string };

export type JobHandler<P> = (job: Job<P>) => Promise<JobOutcome>;

/** Durable at-least-once job delivery; handlers must be idempotent by job id. */
export interface JobQueue {
  publish<K extends JobKind>(kind: K, id: string, payload: JobPayloads[K]): Promise<void>;
  /** Payloads are parsed first (see {@link checkedHandler}): a handler only ever sees a valid one. */
  consume<K extends JobKind>(kind: K, concurrency: number, handler: JobHandler<JobPayloads[K]>): void;
  close(): Promise<void>;
}
export const JOB_QUEUE = Symbol('JobQueue');

/**
 * What every adapter runs in place of a consumer's handler: the payload as delivered (unknown
 * bytes, decoded) is parsed against its kind's schema, and one that fails is given up at once
 * (`retry: false`, so the adapter dead-letters it with the reason) without reaching the handler.
 */
export function checkedHandler<K extends JobKind>(kind: K, handler: JobHandler<JobPayloads[K]>): JobHandler<unknown> {
  return async (job) => {
    const parsed = parseJobPayload(kind, job.payload);
    if (!parsed.ok) return { ack: false, retry: false, reason: parsed.reason };
    return handler({ ...job, payload: parsed.payload });
  };
}
