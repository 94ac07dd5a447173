import Table from 'cli-table3';

/** Width a table may take when the output is not a terminal (a file, a pipe, a test). */
export const DEFAULT_WIDTH = 120;

/** A stream the CLI writes to: a terminal has isTTY and columns, a pipe or file neither. */
export type OutputStream = NodeJS.WritableStream & { isTTY?: boolean; columns?: number };

/** The terminal's width, or DEFAULT_WIDTH when stdout is not one. */
export const terminalWidth = (stream: OutputStream = process.stdout): number =>
  stream.isTTY && stream.columns && stream.columns > 0 ? stream.columns : DEFAULT_WIDTH;

/** Cuts text to `width` characters, ending in an ellipsis when cut. */
export function truncate(text: string, width: number): string {
  if (width <= 0) return '';
  return text.length <= width ? text : `${text.slice(0, Math.max(0, width - 1))}…`;
}

/** A score as the tables print it: three decimals (scores are in 0..1). */
export const formatScore = (score: number | undefined): string => (score === undefined ? '' : score.toFixed(3));

export interface TableOptions {
  head: string[];
  rows: string[][];
  /** Right-aligned columns, by index. */
  alignRight?: number[];
  /** One row per line, without rules between rows. */
  compact?: boolean;
  /** Column widths including padding; cells longer than their column are cut with an ellipsis, or wrapped with `wrap`. */
  colWidths?: (number | null)[];
  /** Wrap long cells at word boundaries instead of cutting them. */
  wrap?: boolean;
}

/** A table with box-drawing borders and no colours, so that it reads the same in a terminal, a file and a test. */
export function renderTable(options: TableOptions): string {
  const table = new Table({
    head: options.head,
    style: { head: [], border: [], compact: options.compact ?? true },
    colAligns: options.head.map((_, i) => (options.alignRight?.includes(i) ? 'right' : 'left')),
    ...(options.colWidths ? { colWidths: options.colWidths } : {}),
    ...(options.wrap ? { wordWrap: true, wrapOnWordBoundary: true } : {}),
  });
  table.push(...options.rows);
  return table.toString();
}

/** Label and value lines, as `documents get` shows one document. */
export function renderFields(fields: readonly (readonly [string, string])[]): string {
  const width = Math.max(...fields.map(([label]) => label.length));
  return fields
    .map(([label, value]) => {
      const [first = '', ...rest] = value.split('\n');
      return [`${label.padEnd(width)}  ${first}`, ...rest.map((line) => `${' '.repeat(width)}  ${line}`)].join('\n');
    })
    .join('\n');
}

/**
 * Splits the width left over by fixed columns among flexible ones: each table column costs its
 * content plus two of padding plus one border, and the table one more border.
 */
export function flexibleWidth(total: number, fixedContentWidths: number[], flexibleColumns: number, minimum = 8): number {
  const columns = fixedContentWidths.length + flexibleColumns;
  const fixed = fixedContentWidths.reduce((sum, w) => sum + w + 2, 0) + columns + 1;
  return Math.max(minimum, Math.floor((total - fixed) / flexibleColumns) - 2);
}
