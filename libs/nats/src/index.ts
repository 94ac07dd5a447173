export { NatsJobQueue, deleteTopology, ensureTopology, natsNames } from './nats-job.queue';
export type { NatsQueueOptions } from './nats-job.queue';
