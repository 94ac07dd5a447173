import { createReadStream, promises as fs } from 'node:fs';
import { createInterface } from 'node:readline';
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

  /**
   * Opens the log, feeding every stored record to `replay` in order. The file is read line by
   * line: a 100k-CV index's log is larger than the heap (and than the longest string V8 allows).
   */
  static async open<R>(file: string, replay: (record: R) => void): Promise<AppendLog<R>> {
    await fs.mkdir(path.dirname(file), { recursive: true });
    const log = new AppendLog<R>(file);
    const size = await fs.stat(file).then(
      (s) => s.size,
      (error: NodeJS.ErrnoException) => {
        if (error.code === 'ENOENT') return 0;
        throw error;
      },
    );
    if (size > 0) {
      for await (const line of createInterface({ input: createReadStream(file, { encoding: 'utf8' }), crlfDelay: Infinity })) {
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
    }
    log.handle = await fs.open(file, 'a+');
    // A torn last line must not swallow the next record: it is closed off, and skipped when read.
    if (size > 0) {
      const last = Buffer.alloc(1);
      await log.handle.read(last, 0, 1, size - 1);
      if (last[0] !== 0x0a) await log.handle.appendFile('\n');
    }
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
