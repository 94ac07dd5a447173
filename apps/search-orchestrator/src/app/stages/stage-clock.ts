import type { SearchStage } from '@cs/search-domain';

/** Milliseconds (one decimal) spent in each stage, echoed in the results' `stageTimingsMs`. */
export class StageClock<S extends SearchStage> {
  private last = performance.now();
  private readonly stages: Partial<Record<S, number>> = {};

  /** Ends stage `stage`: the time since the last lap is added to it. */
  lap(stage: S): void {
    const now = performance.now();
    this.stages[stage] = Math.round(((this.stages[stage] ?? 0) + now - this.last) * 10) / 10;
    this.last = now;
  }

  /** Every stage's time, in the order the stages first ended; call once every stage has lapped. */
  timings(): Record<S, number> {
    return this.stages as Record<S, number>;
  }
}
