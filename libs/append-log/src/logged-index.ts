import { AppendLog } from './append-log';

/**
 * When a running index rewrites its log without superseded and deleted records (so that a deleted
 * document's words or vectors leave the disk): the first pass soon after opening, since a process
 * restarted more often than the period would otherwise erase nothing, then periodically; each pass
 * runs only when the log holds such records. Zero turns it off.
 */
export interface ErasingSchedule {
  firstAfterMs: number;
  everyMs: number;
}

const DEFAULT_ERASING: ErasingSchedule = { firstAfterMs: 60_000, everyMs: 600_000 };

/** An embedded index's memory, as the logged lifecycle drives it. */
export interface LoggedMemory<R, S, A> {
  /** Applies one record to memory: a replayed one (`replaying`) or one just logged. */
  apply(record: R, replaying: boolean): A;
  /** Replaces the (empty) memory with a snapshot's; must change nothing when it throws. */
  restore(snapshot: S): void;
  /** The replay is over: what was deferred while it ran (posting lists, graphs) is built now. */
  ready(): void;
  /** How many records a compacted log would hold: one per live document. */
  liveRecords(): number;
  /** Those records, for compaction. */
  records(): Iterable<R>;
  /** Memory as a snapshot to save at close, or null to save none (the log then replays whole). */
  snapshot(): S | null | Promise<S | null>;
  /** After a snapshot is saved: what the memory kept beside the last one may go. */
  saved?(snapshot: S): Promise<void>;
}

/**
 * The lifecycle the embedded indexes share, over an `AppendLog`: open (restore the snapshot saved
 * at the last close, replay the records logged after it, or the whole log without one), write
 * (log a record, then apply it), compact at open once superseded records outnumber the live ones
 * two to one and, while open, on the erasing schedule, and close (save a snapshot, then close the log).
 */
export class LoggedIndex<R, S, A = void> {
  private closed = false;
  /** Writes logged and not yet applied: a snapshot is taken only once they are in memory. */
  private readonly pending = new Set<Promise<unknown>>();
  /** A compaction in progress: writes wait for it, since the rewrite replaces the file they append to. */
  private compacting: Promise<void> | null = null;
  private readonly erasingTimers: NodeJS.Timeout[] = [];

  private constructor(
    private readonly log: AppendLog<R>,
    private readonly memory: LoggedMemory<R, S, A>,
    private readonly name: string,
  ) {}

  /** Opens the log in `file` into `memory`; `layout` is that of memory's snapshots. `name` says what is closed, in errors. */
  static async open<R, S, A = void>(
    file: string,
    layout: number,
    memory: LoggedMemory<R, S, A>,
    name: string,
    erasing: ErasingSchedule = DEFAULT_ERASING,
  ): Promise<LoggedIndex<R, S, A>> {
    const log = await AppendLog.open<R, S>(file, (record) => void memory.apply(record, true), {
      layout,
      restore: (snapshot) => memory.restore(snapshot),
    });
    memory.ready();
    if (log.size > 2 * memory.liveRecords() + 1000) await log.rewrite(memory.records());
    const index = new LoggedIndex(log, memory, name);
    const erase = () => {
      if (!index.closed && log.size > memory.liveRecords()) void index.compact().catch(() => undefined);
    };
    if (erasing.everyMs > 0) {
      index.erasingTimers.push(setTimeout(erase, Math.min(erasing.firstAfterMs, erasing.everyMs)), setInterval(erase, erasing.everyMs));
      for (const timer of index.erasingTimers) timer.unref();
    }
    return index;
  }

  /** Logs the record (durably), then applies it to memory, and gives what applying it gave. */
  async write(record: R): Promise<A> {
    if (this.closed) throw new Error(`${this.name} is closed`);
    // A loop: a compaction asked for as the last one ended must be waited for too.
    while (this.compacting) await this.compacting.catch(() => undefined);
    const written = this.log.append(record).then(() => this.memory.apply(record, false));
    this.pending.add(written);
    try {
      return await written;
    } finally {
      this.pending.delete(written);
    }
  }

  /**
   * Rewrites the log with one record per live document, dropping superseded and deleted ones (and
   * so a deleted document's text or vectors), then saves a snapshot of memory: the rewrite drops
   * the last one, and a start after a crash would otherwise replay the whole log. Writes made
   * meanwhile wait for it.
   */
  compact(): Promise<void> {
    if (this.closed) return Promise.reject(new Error(`${this.name} is closed`));
    this.compacting ??= (async () => {
      await Promise.allSettled([...this.pending]);
      await this.log.rewrite(this.memory.records());
      await this.saveSnapshot();
    })().finally(() => (this.compacting = null));
    return this.compacting;
  }

  /** Call with no write in flight: the snapshot must hold every record logged. */
  private async saveSnapshot(): Promise<void> {
    const snapshot = await this.memory.snapshot();
    if (snapshot !== null) {
      await this.log.saveSnapshot(snapshot);
      await this.memory.saved?.(snapshot);
    }
  }

  /** Saves a snapshot of memory (when it gives one) and closes the log; later writes fail. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const timer of this.erasingTimers) clearTimeout(timer);
    try {
      await this.compacting?.catch(() => undefined);
      await Promise.allSettled([...this.pending]);
      await this.saveSnapshot();
    } finally {
      await this.log.close();
    }
  }
}
