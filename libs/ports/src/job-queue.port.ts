export type JobKind = 'search' | 'ingestion';

export interface Job<P = Record<string, unknown>> {
  id: string;
  kind: JobKind;
  payload: P;
  /** 1 on the first delivery. */
  attempt: number;
}

/** What a handler tells the queue: done, try again later, or give up. */
export type JobOutcome = { ack: true } | { ack: false; retry: boolean; reason: string };

export type JobHandler<P = Record<string, unknown>> = (job: Job<P>) => Promise<JobOutcome>;

/** Durable at-least-once job delivery; handlers must be idempotent by job id. */
export interface JobQueue {
  publish(kind: JobKind, id: string, payload: Record<string, unknown>): Promise<void>;
  consume<P>(kind: JobKind, concurrency: number, handler: JobHandler<P>): void;
  close(): Promise<void>;
}
export const JOB_QUEUE = Symbol('JobQueue');
