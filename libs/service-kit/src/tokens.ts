/** Injection tokens of things every service shares. */
export const APP_CONFIG = Symbol('AppConfig');
export const SENTENCE_EMBEDDER = Symbol('SentenceEmbedder');
