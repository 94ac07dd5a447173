/** Test documents, `@cs/document-parsing/testing`: hostile files for the parse bounds, and fixture CVs in every accepted format. */
export { docLoopBomb, docTableBomb, docxBomb, docxOfManyParts, docxWithBreaks, pdfFlateBomb, pdfNestingBomb, pdfPageBomb } from './bombs';
export { FIXTURE_CVS, FIXTURE_FORMATS, FIXTURE_TYPES, docCv, docxCv, fixtureCvFile, pdfCv, textlessPdf, txtCv } from './fixture-cvs';
export type { FixtureCv, FixtureFormat } from './fixture-cvs';
