export { describeVectorIndexContract } from './vector-index.contract';
export { FILTER_CASES, FILTER_CVS, FILTER_EDGE_CASES, PHRASE_HOLDERS } from './filter-cases';
export { describeKeywordIndexContract } from './keyword-index.contract';
export { describeJobQueueContract } from './job-queue.contract';
export type { OpenedQueue } from './job-queue.contract';
export { describeBlobStoreContract } from './blob-store.contract';
export { describeDenseEncoderContract } from './dense-encoder.contract';
export { describeVectorSpacesContract } from './vector-spaces.contract';
export { CONDITION_CASES, CONDITION_CVS } from './keyword-condition-cases';
