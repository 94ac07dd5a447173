export { CohereRerankerClient, ExternalRerankerError, parseResults } from './cohere-reranker.client';
export type { CohereRerankerOptions, ExternalRerankResult } from './cohere-reranker.client';
