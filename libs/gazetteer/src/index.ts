export { resolvePlace, resolveParts, preloadGazetteer, BARE_CITY_MIN_POPULATION } from './resolve-place';
export type { Place } from './resolve-place';
export { distanceKm } from './distance';
