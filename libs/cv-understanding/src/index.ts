export { UNDERSTANDING_VERSION, understandCv } from './understand-cv';
export type { CvUnderstanding } from './understand-cv';
export { ContactInfo, DEGREES, GeoPlace, ProfileInfo } from './types';
export type { Degree } from './types';
export { splitSections, headingKind } from './sections';
export type { Section, SectionKind } from './sections';
export { findDateRanges, yearsCovered } from './dates';
export { DOMAIN_NAMES } from './lexicons';
export { languageName } from './languages';
