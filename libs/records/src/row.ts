/** snake_case row to camelCase record; the column lists of each repository keep them in step. */
// eslint-disable-next-line @typescript-eslint/no-unnecessary-type-parameters -- the repository names its row shape; its column list keeps them in step
export function camelize<T>(row: Record<string, unknown>): T {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(row)) out[key.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase())] = value;
  return out as T;
}
