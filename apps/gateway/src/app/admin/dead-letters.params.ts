import { Injectable, type PipeTransform } from '@nestjs/common';
import { z } from 'zod';
import { JOB_KINDS, invalid, type JobKind } from '@cs/contracts';
import { MAX_DEAD_LETTER_PAGE, type DeadLetter } from '@cs/ports';

const queueError = `queue must be one of ${JOB_KINDS.join(', ')}`;
const queue = z.enum(JOB_KINDS as [JobKind, ...JobKind[]], { error: queueError });
const limitError = `limit must be an integer between 1 and ${MAX_DEAD_LETTER_PAGE}`;

/** A letter's id or a page cursor: a job id (embedded) or a stream sequence (NATS), never long. */
const handle = (field: string) =>
  z.string().regex(/^[\x21-\x7e]{1,200}$/, { error: `${field} must be 1 to 200 printable ASCII characters` });

/** `GET /admin/v1/dead-letters?queue&limit&after`. */
export const deadLettersQuery = z
  .object({
    queue: queue.optional(),
    limit: z
      .string()
      .regex(/^\d{1,4}$/, { error: limitError })
      .transform(Number)
      .pipe(z.number().min(1, { error: limitError }).max(MAX_DEAD_LETTER_PAGE, { error: limitError }))
      .optional()
      .transform((v) => v ?? 20),
    after: handle('after').optional(),
  })
  .strict();

/** Validates the `:queue` path parameter with a 400 that names the queues. */
@Injectable()
export class QueueParam implements PipeTransform<string, JobKind> {
  transform(value: string): JobKind {
    const parsed = queue.safeParse(value);
    if (!parsed.success) throw invalid(queueError);
    return parsed.data;
  }
}

/** Validates the `:id` path parameter of a dead letter. */
@Injectable()
export class DeadLetterIdParam implements PipeTransform<string, string> {
  transform(value: string): string {
    const parsed = handle('id').safeParse(value);
    if (!parsed.success) throw invalid(parsed.error.issues[0].message);
    return parsed.data;
  }
}

export const deadLetterView = (letter: DeadLetter) => ({
  queue: letter.kind,
  id: letter.id,
  jobId: letter.jobId,
  reason: letter.reason,
  deliveries: letter.deliveries,
  deadAt: letter.deadAt.toISOString(),
  payload: letter.payload,
});
