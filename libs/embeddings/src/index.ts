export { QuantizedWordVectors, loadWordVectors, quantizeRows } from './glove-cache';
export type { WordVectors } from './glove-cache';
export { BUILTIN_MODEL_VERSION, BuiltinEncoder, builtinVersionOf } from './builtin-encoder';
export { SentenceEmbedder, dot, normalize } from './sentence-embedder';
export { QUERY_FEEDBACK, feedbackQuery } from './query-feedback';
export { chunkText } from './chunker';
export type { Chunk } from './chunker';
export { WordNet } from './wordnet';
export type { PartOfSpeech, Synset } from './wordnet';
