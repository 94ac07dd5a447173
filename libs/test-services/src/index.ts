export { createTestDatabase, reachable, runPrefix } from './local-services';
export { startContainer } from './containers';
export { OpenApiCheck } from './openapi-check';
export { describeWith, missingNeeds, testEnvironment } from './environment';
export type { TestEnvironment, TestNeed } from './environment';
export { eventually, waitFor } from './polling';
export type { PollOptions } from './polling';
