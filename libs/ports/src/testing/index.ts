export { describeVectorIndexContract } from './vector-index.contract';
export { describeKeywordIndexContract } from './keyword-index.contract';
