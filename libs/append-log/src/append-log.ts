import { constants } from 'node:buffer';
import { createReadStream, promises as fs } from 'node:fs';
import { createInterface } from 'node:readline';
import * as path from 'node:path';
import { crc32 } from 'node:zlib';
import { decodeSnapshot, encodeSnapshot, padTo8 } from './snapshot-codec';

/** What a snapshot's first line says: the log it covers and the body that follows. */
interface SnapshotHeader {
  format: 1;
  /** The owner's layout of its memory: a snapshot of another layout is ignored. */
  layout: number;
  /** The log's first `logBytes` bytes (`lines` records) are what the body holds. */
  logBytes: number;
  lines: number;
  /** Checksum of the log's last bytes before `logBytes`: that the log is still the one covered. */
  logTailCrc32: number;
  bodyBytes: number;
  crc32: number;
}

/** How much of the log's end a snapshot's header vouches for. */
const LOG_TAIL_BYTES = 4096;

async function logTailCrc32(file: string, logBytes: number): Promise<number> {
  const handle = await fs.open(file, 'r');
  try {
    const length = Math.min(LOG_TAIL_BYTES, logBytes);
    const tail = Buffer.alloc(length);
    await handle.read(tail, 0, length, logBytes - length);
    return crc32(tail);
  } finally {
    await handle.close();
  }
}

const SNAPSHOT_FORMAT = 1;

/** What an owner that keeps snapshots gives: the layout of its memory, and how to take it back. */
export interface SnapshotOwner<S> {
  /** Raised by the owner whenever the layout changes. */
  layout: number;
  /** Takes the memory back; it must change nothing when it throws. */
  restore: (memory: S) => void;
}

/**
 * A durable JSON-lines log: the embedded indexes write each change here before they answer,
 * and rebuild their memory from it at start. A torn last line (a crash mid-write) is skipped.
 *
 * An owner may also save a snapshot of its memory beside the log (at close): the next open then
 * restores it and replays only the records appended after it, instead of the whole log. The log
 * stays the truth: a snapshot that is missing, damaged, of another layout or from another log is
 * ignored.
 */
export class AppendLog<R> {
  private handle: fs.FileHandle | null = null;
  private tail: Promise<unknown> = Promise.resolve();
  private lines = 0;

  private constructor(
    private readonly file: string,
    private readonly layout?: number,
  ) {}

  /**
   * Opens the log, feeding every stored record to `replay` in order. The file is read line by
   * line: a 100k-CV index's log is larger than the heap (and than the longest string V8 allows).
   */
  static async open<R, S = unknown>(file: string, replay: (record: R) => void, snapshots?: SnapshotOwner<S>): Promise<AppendLog<R>> {
    await fs.mkdir(path.dirname(file), { recursive: true });
    const log = new AppendLog<R>(file, snapshots?.layout);
    const size = await fs.stat(file).then(
      (s) => s.size,
      (error: unknown) => {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 0;
        throw error;
      },
    );
    let from = 0;
    const snapshot = snapshots && size > 0 ? await readSnapshot(log.snapshotFile, file, size, snapshots.layout) : null;
    if (snapshots && snapshot) {
      try {
        snapshots.restore(decodeSnapshot<S>(snapshot.body));
        from = snapshot.header.logBytes;
        log.lines = snapshot.header.lines;
      } catch {
        // `restore` changes nothing when it throws: the whole log replays instead.
      }
    }
    if (size > from) {
      for await (const line of createInterface({ input: createReadStream(file, { encoding: 'utf8', start: from }), crlfDelay: Infinity })) {
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

  private get snapshotFile(): string {
    return `${this.file}.snapshot`;
  }

  /**
   * Saves `memory` (plain data: objects, arrays, strings, numbers, typed arrays) as the owner's
   * state after every record appended so far. Call it when no change is in flight (at close):
   * the state must already hold each appended record.
   */
  async saveSnapshot(memory: unknown): Promise<void> {
    await this.tail;
    if (!this.handle) throw new Error(`log ${this.file} is closed`);
    if (this.layout === undefined) throw new Error(`log ${this.file} was opened without a snapshot owner`);
    const logBytes = (await this.handle.stat()).size;
    const chunks = encodeSnapshot(memory);
    const header: SnapshotHeader = {
      format: SNAPSHOT_FORMAT,
      layout: this.layout,
      logBytes,
      lines: this.lines,
      logTailCrc32: await logTailCrc32(this.file, logBytes),
      bodyBytes: chunks.reduce((n, c) => n + c.byteLength, 0),
      crc32: chunks.reduce((crc, c) => crc32(c, crc), 0),
    };
    // The body starts 8-byte aligned, as the codec's sections count on.
    const line = JSON.stringify(header);
    const headerLine = `${line}${' '.repeat(padTo8(line.length + 1))}\n`;
    const tmp = `${this.snapshotFile}.tmp`;
    const out = await fs.open(tmp, 'w');
    try {
      await out.writeFile(headerLine);
      for (const chunk of chunks) await out.writeFile(chunk);
      await out.datasync();
    } finally {
      await out.close();
    }
    await fs.rename(tmp, this.snapshotFile);
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
    try {
      // A snapshot describes the old file's bytes: it goes before the new file takes the name.
      await fs.rm(this.snapshotFile, { force: true });
      await fs.rename(tmp, this.file);
      this.lines = count;
    } finally {
      // The log stays writable whether or not the new file took the name.
      this.handle = await fs.open(this.file, 'a');
    }
  }

  async close(): Promise<void> {
    await this.tail;
    await this.handle?.close();
    this.handle = null;
  }
}

/**
 * The snapshot beside a log of `logSize` bytes, or null when there is none it can use. A snapshot
 * only saves time: one that cannot be read, whatever the reason, leaves the log to replay.
 */
async function readSnapshot(
  file: string,
  logFile: string,
  logSize: number,
  layout: number,
): Promise<{ header: SnapshotHeader; body: Buffer } | null> {
  const bytes = await readWhole(file).catch(() => null);
  if (!bytes) return null;
  const end = bytes.indexOf(0x0a);
  if (end < 0) return null;
  let header: SnapshotHeader;
  try {
    header = JSON.parse(bytes.subarray(0, end).toString('utf8')) as SnapshotHeader;
  } catch {
    return null;
  }
  const body = bytes.subarray(end + 1);
  const usable =
    header.format === SNAPSHOT_FORMAT &&
    header.layout === layout &&
    header.logBytes <= logSize &&
    body.byteLength === header.bodyBytes &&
    crc32(body) === header.crc32;
  return usable && header.logTailCrc32 === (await logTailCrc32(logFile, header.logBytes)) ? { header, body } : null;
}

/** The file's bytes in one buffer of their own: `fs.readFile` stops at 2 GB, a Buffer at 4. */
async function readWhole(file: string): Promise<Buffer | null> {
  const handle = await fs.open(file, 'r');
  try {
    const { size } = await handle.stat();
    if (size > constants.MAX_LENGTH) return null;
    const bytes = Buffer.allocUnsafeSlow(size);
    for (let at = 0; at < size;) {
      const { bytesRead } = await handle.read(bytes, at, Math.min(size - at, 1 << 30), at);
      if (bytesRead === 0) return null; // shrank while read
      at += bytesRead;
    }
    return bytes;
  } finally {
    await handle.close();
  }
}
