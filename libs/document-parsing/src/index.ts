export { ACCEPTED_TYPES, MAX_FILE_BYTES, bytesMatchType, isAcceptedType, mimeOf } from './file-types';
export type { AcceptedType } from './file-types';
export { UnreadableFileError, cleanText, extractText, insufficientTextReason } from './extract-text';
export { ParseLimitError } from './parse-limits';
export type { ParseLimit } from './parse-limits';
export { FairScheduler } from './fair-scheduler';
export { TextExtractor } from './text-extractor';
