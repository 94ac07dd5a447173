/** snake_case row to camelCase record; the column lists of each repository keep them in step. */
export function camelize<T>(row: Record<string, unknown>): T {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(row)) out[key.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase())] = value;
  return out as T;
}
