import { readFileSync } from 'node:fs';

/** Resident memory of a process in bytes, from `/proc/<pid>/status` (VmRSS); null once it is gone. */
export function readRss(pid: number): number | null {
  try {
    const match = /^VmRSS:\s+(\d+)\s+kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) * 1024 : null;
  } catch {
    return null;
  }
}

/** Whether a process still runs (signal 0 checks without sending anything). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return readRss(pid) !== null || process.platform !== 'linux';
  } catch {
    return false;
  }
}

export const mb = (bytes: number) => `${(bytes / (1024 * 1024)).toFixed(1)} MB`;

/**
 * Samples a process's RSS every `intervalMs` (100 ms by default) and keeps the peak, so a short
 * spike between two reads of a test's own is not missed.
 */
export class RssSampler {
  private timer: NodeJS.Timeout | null = null;
  peak = 0;
  first = 0;
  last = 0;
  samples = 0;

  constructor(
    private readonly pid: number,
    private readonly intervalMs = 100,
  ) {}

  start(): this {
    this.sample();
    this.first = this.last;
    this.timer = setInterval(() => this.sample(), this.intervalMs);
    this.timer.unref();
    return this;
  }

  /** Starts a new peak from now (keeps sampling). */
  reset(): void {
    this.sample();
    this.first = this.last;
    this.peak = this.last;
  }

  stop(): { first: number; peak: number; last: number; samples: number } {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.sample();
    return { first: this.first, peak: this.peak, last: this.last, samples: this.samples };
  }

  private sample(): void {
    const rss = readRss(this.pid);
    if (rss === null) return;
    this.samples++;
    this.last = rss;
    if (rss > this.peak) this.peak = rss;
  }
}

/** The highest RSS over `ms` of quiet: a baseline before a load that does not count noise as growth. */
export async function baselineRss(pid: number, ms = 1000): Promise<number> {
  const values: number[] = [];
  const until = Date.now() + ms;
  while (Date.now() < until) {
    const rss = readRss(pid);
    if (rss !== null) values.push(rss);
    await new Promise((r) => setTimeout(r, 100));
  }
  return values.length ? Math.max(...values) : 0;
}
