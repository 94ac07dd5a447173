import { z } from 'zod';

/**
 * A JSON column read back against the schema of what was written to it, once, where its row is
 * read: the value, typed, or an error naming the row and every field that does not fit.
 *
 * The value itself is kept, not zod's copy of it, which lists keys in the schema's order:
 * answers built from it keep the key order jsonb returns, and so their bytes and ETags. That
 * is sound because the schema's output is its input (the signature refuses a transform or a
 * default) and its objects are strict (nothing to strip).
 */
export function readStored<T>(schema: z.ZodType<T, T>, value: unknown, what: string): T {
  if (fits(schema, value)) return value;
  const { error } = schema.safeParse(value);
  throw new Error(`${what} does not read as what is stored there: ${error ? z.prettifyError(error) : 'no detail'}`);
}

function fits<T>(schema: z.ZodType<T, T>, value: unknown): value is T {
  return schema.safeParse(value).success;
}
