/** The file could not be read at all (corrupt, encrypted, truncated). */
export class UnreadableFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UnreadableFileError';
  }
}
