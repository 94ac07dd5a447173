/** Hostile documents for the parse bounds' specs and the hostile-input suites: `@cs/document-parsing/testing`. */
export { docLoopBomb, docTableBomb, docxBomb, docxOfManyParts, docxWithBreaks, pdfFlateBomb, pdfNestingBomb, pdfPageBomb } from './bombs';
