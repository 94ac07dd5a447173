export { EmbeddedJobQueue } from './embedded-job.queue';
export type { EmbeddedQueueOptions } from './embedded-job.queue';
