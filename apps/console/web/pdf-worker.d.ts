/** pdf.js's worker module, run in the page's own thread (pdf-view.ts): its handler is all the page needs of it. */
declare module 'pdfjs-dist/build/pdf.worker.mjs' {
  export const WorkerMessageHandler: unknown;
}
