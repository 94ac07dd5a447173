/** What the scheduler knows of one key (company) while it has work running or waiting. */
interface KeyState {
  waiting: (() => void)[];
  running: number;
  /** When it last started a task (a counter), 0 for never. */
  lastStart: number;
}

/**
 * Runs at most `slots` tasks at once, taking turns between keys (companies): when a slot frees,
 * the waiting key with the fewest tasks running starts its oldest task, the one that started
 * least recently first among equals. One company's queue of heavy files then holds up another
 * company's CV by one task at most, instead of by the whole queue, and a company alone still
 * uses every slot.
 */
export class FairScheduler {
  private readonly keys = new Map<string, KeyState>();
  private running = 0;
  private starts = 0;

  constructor(private readonly slots: number) {
    if (slots < 1) throw new Error('a scheduler needs at least one slot');
  }

  /** Tasks waiting for a slot, all keys together. */
  get waiting(): number {
    let count = 0;
    for (const state of this.keys.values()) count += state.waiting.length;
    return count;
  }

  run<T>(key: string, task: () => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      let state = this.keys.get(key);
      if (!state) this.keys.set(key, (state = { waiting: [], running: 0, lastStart: 0 }));
      const owner = state;
      owner.waiting.push(() => {
        this.running++;
        owner.running++;
        Promise.resolve()
          .then(task)
          .then(resolve, reject)
          .finally(() => {
            this.running--;
            owner.running--;
            if (owner.running === 0 && owner.waiting.length === 0) this.keys.delete(key);
            this.dispatch();
          });
      });
      this.dispatch();
    });
  }

  private dispatch(): void {
    while (this.running < this.slots) {
      let next: KeyState | undefined;
      for (const state of this.keys.values()) {
        if (state.waiting.length === 0) continue;
        if (!next || state.running < next.running || (state.running === next.running && state.lastStart < next.lastStart)) next = state;
      }
      if (!next) return;
      next.lastStart = ++this.starts;
      (next.waiting.shift() as () => void)();
    }
  }
}
