/**
 * Whether a zlib call stopped at its `maxOutputLength`. Told by the error's code, not its class:
 * zlib's RangeError may come from another realm (a test runner's VM context) than the caller's.
 */
export function isOverCap(error: unknown): boolean {
  return (error as NodeJS.ErrnoException | null)?.code === 'ERR_BUFFER_TOO_LARGE';
}
