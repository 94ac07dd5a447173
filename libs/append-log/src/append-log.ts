import { promises as fs } from 'node:fs';
import * as path from 'node:path';

/**
 * A durable JSON-lines log: the embedded indexes write each change here before they answer,
 * and rebuild their memory from it at start. A torn last line (a crash mid-write) is skipped.
 */
export class AppendLog<R> {
  private handle: fs.FileHandle | null = null;
  private tail: Promise<unknown> = Promise.resolve();
  private lines = 0;

  private constructor(private readonly file: string) {}

  /** Opens the log, feeding every stored record to `replay` in order. */
  static async open<R>(file: string, replay: (record: R) => void): Promise<AppendLog<R>> {
    await fs.mkdir(path.dirname(file), { recursive: true });
    const log = new AppendLog<R>(file);
    let content = '';
    try {
      content = await fs.readFile(file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
    for (const line of content.split('\n')) {
      if (!line) continue;
      let record: R;
      try {
        record = JSON.parse(line) as R;
      } catch {
        continue;
      }
      replay(record);
      log.lines++;
    }
    log.handle = await fs.open(file, 'a');
    return log;
  }

  /** Number of records in the file, live or superseded. */
  get size(): number {
    return this.lines;
  }

  /** Appends one record and flushes it to disk; appends are written in call order. */
  append(record: R): Promise<void> {
    const write = this.tail.then(async () => {
      if (!this.handle) throw new Error(`log ${this.file} is closed`);
      await this.handle.appendFile(`${JSON.stringify(record)}\n`);
      await this.handle.datasync();
      this.lines++;
    });
    this.tail = write.catch(() => undefined);
    return write;
  }

  /** Replaces the whole log with `records` (compaction), atomically. */
  async rewrite(records: Iterable<R>): Promise<void> {
    await this.tail;
    const tmp = `${this.file}.compact`;
    const out = await fs.open(tmp, 'w');
    let count = 0;
    let buffer = '';
    for (const record of records) {
      buffer += `${JSON.stringify(record)}\n`;
      count++;
      if (buffer.length > 1 << 20) {
        await out.appendFile(buffer);
        buffer = '';
      }
    }
    await out.appendFile(buffer);
    await out.datasync();
    await out.close();
    await this.handle?.close();
    await fs.rename(tmp, this.file);
    this.handle = await fs.open(this.file, 'a');
    this.lines = count;
  }

  async close(): Promise<void> {
    await this.tail;
    await this.handle?.close();
    this.handle = null;
  }
}
