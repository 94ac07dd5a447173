export {
  HostedEmbeddingsEncoder,
  EmbeddingsApiError,
  MAX_INPUT_CHARS,
  DEFAULT_MAX_RESPONSE_BYTES,
  retryAfterMs,
} from './hosted-embeddings.encoder';
export type { HostedEmbeddingsOptions, EmbeddingsProvider } from './hosted-embeddings.encoder';
