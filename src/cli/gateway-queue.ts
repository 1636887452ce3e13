/**
 * The gateway's record work (planning an observed call, counting its tokens, redacting and writing its record)
 * must not delay a call in flight: jobs run only while no call is in flight, or once they have waited `maxWaitMs`
 * (a gateway that is never idle still records), a turn of the event loop at a time.
 */
export class IdleQueue {
  private readonly jobs: { run: () => void; at: number }[] = [];
  private timer: NodeJS.Timeout | undefined;
  inflight = 0;

  constructor(
    private readonly maxWaitMs = 2000,
    private readonly pollMs = 20,
    private readonly budgetMs = 2,
  ) {}

  begin(): void {
    this.inflight++;
  }

  end(): void {
    this.inflight = Math.max(0, this.inflight - 1);
    this.kick();
  }

  push(run: () => void): void {
    this.jobs.push({ run, at: Date.now() });
    this.kick();
  }

  /** Nothing in flight and nothing left to record. */
  get quiet(): boolean {
    return this.inflight === 0 && this.jobs.length === 0;
  }

  private kick(): void {
    if (this.timer || this.jobs.length === 0) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.step();
    }, this.inflight ? this.pollMs : 0);
  }

  /**
   * The ready jobs in order, until one turn has spent `budgetMs`: a heavy job (a record built here) runs alone in
   * its turn, cheap ones (a job handed to the record worker) go together rather than one per timer.
   */
  private step(): void {
    const t0 = performance.now();
    for (let job = this.jobs[0]; job && (this.inflight === 0 || Date.now() - job.at >= this.maxWaitMs); job = this.jobs[0]) {
      this.jobs.shift();
      job.run();
      if (performance.now() - t0 >= this.budgetMs) break;
    }
    this.kick();
  }
}
