interface Waiting {
  start: () => void;
}

/**
 * Runs at most `slots` tasks at once, taking turns between keys (companies): when a slot frees,
 * the next key in turn that has work waiting starts its oldest task. One company's queue of
 * heavy files then holds up another company's CV by one task at most, instead of by the whole
 * queue, and a company alone still uses every slot.
 */
export class FairScheduler {
  private readonly queues = new Map<string, Waiting[]>();
  /** Keys with work waiting, in turn order; a key goes to the back when it starts a task. */
  private readonly turns: string[] = [];
  private running = 0;

  constructor(private readonly slots: number) {
    if (slots < 1) throw new Error('a scheduler needs at least one slot');
  }

  /** Tasks waiting for a slot, all keys together. */
  get waiting(): number {
    let count = 0;
    for (const queue of this.queues.values()) count += queue.length;
    return count;
  }

  run<T>(key: string, task: () => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const start = () => {
        this.running++;
        Promise.resolve()
          .then(task)
          .then(resolve, reject)
          .finally(() => {
            this.running--;
            this.dispatch();
          });
      };
      const queue = this.queues.get(key);
      if (queue) queue.push({ start });
      else {
        this.queues.set(key, [{ start }]);
        this.turns.push(key);
      }
      this.dispatch();
    });
  }

  private dispatch(): void {
    while (this.running < this.slots && this.turns.length > 0) {
      const key = this.turns.shift() as string;
      const queue = this.queues.get(key) as Waiting[];
      const next = queue.shift() as Waiting;
      if (queue.length > 0) this.turns.push(key);
      else this.queues.delete(key);
      next.start();
    }
  }
}
