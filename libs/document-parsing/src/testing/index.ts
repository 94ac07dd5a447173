/** Test documents, `@cs/document-parsing/testing`: hostile files for the parse bounds, and fixture CVs in every accepted format. */
export { docLoopBomb, docTableBomb, docxBomb, docxOfManyParts, docxWithBreaks, pdfFlateBomb, pdfNestingBomb, pdfPageBomb } from './bombs';
export {
  FIXTURE_CVS,
  FIXTURE_FORMATS,
  FIXTURE_TYPES,
  SAMPLE_CVS,
  docCv,
  docxCv,
  fixtureCvFile,
  pdfCv,
  sampleCvFiles,
  textlessPdf,
  txtCv,
} from './fixture-cvs';
export type { FixtureCv, FixtureFormat } from './fixture-cvs';
