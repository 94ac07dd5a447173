export { createTestDatabase, findTestServices, missingLine, reachable, runPrefix } from './local-services';
export type { TestServices } from './local-services';
export { dockerAvailable, startContainer } from './containers';
