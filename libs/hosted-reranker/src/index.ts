export { HostedRerankerClient, ExternalRerankerError, parseResults } from './hosted-reranker.client';
export type { HostedRerankerOptions, ExternalRerankResult } from './hosted-reranker.client';
