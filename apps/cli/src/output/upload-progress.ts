import { MultiBar, type SingleBar } from 'cli-progress';
import type { UploadEvent } from '../upload/upload-runner';
import type { Output } from './output';
import { displayPath } from './upload-format';

/** Bytes as people read them: 512 B, 12.3 KB, 4.5 MB. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** A duration in seconds as 42s, 3m05s or 1h02m. */
export function formatDuration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
}

export interface UploadTotals {
  /** Files to upload in this run. */
  files: number;
  bytes: number;
  /** Every file of the command, those an earlier run did included: the second bar's total. */
  allFiles: number;
}

/**
 * The text right of the upload bar: files, bytes, throughput and time left. While a rate limit
 * pauses the uploads, the time left is at least the pause, and the line says so.
 */
export function uploadLine(
  done: { files: number; bytes: number },
  totals: UploadTotals,
  elapsedSeconds: number,
  pausedSeconds = 0,
): string {
  const rate = elapsedSeconds > 0 ? done.files / elapsedSeconds : 0;
  const left = totals.files - done.files;
  const eta = left === 0 ? 'done' : rate > 0 ? `ETA ${formatDuration(Math.ceil(Math.max(left / rate, pausedSeconds)))}` : 'ETA --';
  const parts = [
    `${done.files}/${totals.files} files`,
    `${formatBytes(done.bytes)}/${formatBytes(totals.bytes)}`,
    `${rate.toFixed(1)} CVs/s`,
    eta,
  ];
  if (pausedSeconds > 0 && left > 0) parts.push(`rate limited: resuming in ${Math.ceil(pausedSeconds)}s`);
  return parts.join(' | ');
}

/**
 * What `upload` shows while it runs. On a terminal, two bars on stderr: files uploaded (with
 * bytes, CVs a second and time left) and documents searchable. Elsewhere, a plain line a file on
 * stdout when it is done, or nothing with --json.
 */
export class UploadProgress {
  private readonly bars: { multi: MultiBar; upload: SingleBar; index: SingleBar } | null;
  private readonly started = Date.now();
  private uploaded = { files: 0, bytes: 0 };
  /** When the last upload finished: the rate shown then is the uploads', not diluted by the wait for processing. */
  private uploadsEndedAt: number | null = null;
  private settled = 0;
  private readonly settledBy = new Map<string, number>();
  /** Until when uploads sit out a rate limit (epoch ms). */
  private pausedUntil = 0;
  private readonly ticker: NodeJS.Timeout | null;

  constructor(
    private readonly out: Output,
    private readonly totals: UploadTotals,
    private readonly options: { wait: boolean; cwd: string },
  ) {
    if (out.interactive) {
      const multi = new MultiBar({
        stream: out.stderr,
        format: '{label} [{bar}] {text}',
        barsize: 24,
        hideCursor: true,
        clearOnComplete: false,
        barCompleteChar: '█',
        barIncompleteChar: '░',
        fps: 8,
      });
      // With nothing to upload the bar is full rather than empty forever.
      const upload = multi.create(Math.max(1, totals.files), totals.files === 0 ? 1 : 0, { label: 'Uploading', text: this.uploadText() });
      const index = multi.create(Math.max(1, totals.allFiles), 0, { label: 'Processed', text: this.indexText() });
      this.bars = { multi, upload, index };
      // Throughput and time left move while no file finishes.
      this.ticker = setInterval(() => {
        this.bars?.upload.update({ text: this.uploadText() });
      }, 1000);
    } else {
      this.bars = null;
      this.ticker = null;
    }
  }

  private uploadText(): string {
    if (this.totals.files === 0) return 'nothing to upload: an earlier run did every file';
    const until = this.uploadsEndedAt ?? Date.now();
    return uploadLine(this.uploaded, this.totals, (until - this.started) / 1000, Math.max(0, (this.pausedUntil - Date.now()) / 1000));
  }

  private indexText(): string {
    const by = [...this.settledBy].map(([outcome, n]) => `${n} ${outcome}`).join(', ');
    return `${this.settled}/${this.totals.allFiles} files${by ? ` (${by})` : ''}`;
  }

  private plain(file: string, outcome: string, message: string | null) {
    this.out.line(`${outcome.padEnd(12)} ${displayPath(file, this.options.cwd)}${message ? `: ${message}` : ''}`);
  }

  /** One event of the run. */
  onEvent(event: UploadEvent): void {
    switch (event.type) {
      case 'uploaded':
        this.uploaded = { files: this.uploaded.files + 1, bytes: this.uploaded.bytes + event.file.size };
        if (this.uploaded.files >= this.totals.files) this.uploadsEndedAt ??= Date.now();
        this.bars?.upload.update(this.uploaded.files, { text: this.uploadText() });
        // Without waiting, a document still processing has no other event; every other outcome is settled, and printed then.
        if (!this.bars && !this.options.wait && event.result.outcome === 'processing') this.plain(event.result.file, 'uploaded', null);
        return;
      case 'settled':
        this.settled++;
        this.settledBy.set(event.result.outcome, (this.settledBy.get(event.result.outcome) ?? 0) + 1);
        this.bars?.index.update(this.settled, { text: this.indexText() });
        if (!this.bars)
          this.plain(
            event.result.file,
            event.result.outcome === 'not-uploaded' ? 'not uploaded' : event.result.outcome,
            event.result.message,
          );
        return;
      case 'rate-limited': {
        // Several uploads in flight meet the same limit: one line for the pause they share.
        const news = event.untilMs > this.pausedUntil + 1000;
        this.pausedUntil = Math.max(this.pausedUntil, event.untilMs);
        this.bars?.upload.update({ text: this.uploadText() });
        if (!this.bars && news && !this.out.json)
          this.out.note(`rate limited: waiting ${Math.ceil((event.untilMs - Date.now()) / 1000)}s before the next upload`);
        return;
      }
    }
  }

  /** Leaves the bars on screen as they last were (the final table follows them). */
  stop(): void {
    if (this.ticker) clearInterval(this.ticker);
    if (!this.bars) return;
    this.bars.upload.update({ text: this.uploadText() });
    this.bars.index.update({ text: this.indexText() });
    this.bars.multi.stop();
  }
}
