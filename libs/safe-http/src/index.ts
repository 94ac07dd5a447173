// Outbound HTTP to URLs users give (upload-from-url) or register (webhooks), kept off our own network.
export { FetchRefused, isPublicAddress, parseFetchUrl, safeFetch } from './safe-fetch';
export type { FetchedFile, SafeFetchOptions } from './safe-fetch';
export { checkPublicUrl, safePost } from './safe-post';
export type { SafePostOptions } from './safe-post';
