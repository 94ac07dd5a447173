export { understandCv } from './understand-cv';
export type { CvUnderstanding } from './understand-cv';
export { ContactInfo, DEGREES, ProfileInfo } from './types';
export type { Degree } from './types';
export { splitSections, headingKind } from './sections';
export type { Section, SectionKind } from './sections';
export { findDateRanges, yearsCovered } from './dates';
