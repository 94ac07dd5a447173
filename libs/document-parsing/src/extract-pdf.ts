import { checkPdfLimits } from './pdf-limits';
import { MAX_PDF_PAGES, MAX_TEXT_CHARS, ParseLimitError, limitMessages } from './parse-limits';

/**
 * The text of a PDF, page by page, as unpdf's extractText gives it (items joined, a newline
 * after an item that ends a line, pages apart by a blank line), but one page at a time, freed
 * after reading, under MAX_PDF_PAGES and MAX_TEXT_CHARS: unpdf reads every page at once, which
 * for a 30,000-page file is 30,000 pages in memory. The streams are checked before pdf.js
 * parses anything (checkPdfLimits).
 */
export async function extractPdf(bytes: Buffer): Promise<string> {
  checkPdfLimits(bytes);
  const { getDocumentProxy } = await import('unpdf');
  const pdf = await getDocumentProxy(new Uint8Array(bytes));
  try {
    if (pdf.numPages > MAX_PDF_PAGES) throw new ParseLimitError('pdf-pages', limitMessages.pdfPages(pdf.numPages));
    const pages: string[] = [];
    let characters = 0;
    for (let number = 1; number <= pdf.numPages; number++) {
      const page = await pdf.getPage(number);
      const content = await page.getTextContent();
      const text = content.items.map((item) => ('str' in item ? item.str + (item.hasEOL ? '\n' : '') : '')).join('');
      page.cleanup();
      characters += text.length;
      if (characters > MAX_TEXT_CHARS) throw new ParseLimitError('text-length', limitMessages.textLength());
      pages.push(text);
    }
    return pages.join('\n\n');
  } finally {
    await pdf.destroy();
  }
}
