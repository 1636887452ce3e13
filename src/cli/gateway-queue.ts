/**
 * The gateway's record work (planning an observed call, counting its tokens, redacting and writing its record)
 * must not delay a call in flight: jobs run one per turn of the event loop, only while no call is in flight, or
 * once the oldest has waited `maxWaitMs` (a gateway that is never idle still records).
 */
export class IdleQueue {
  private readonly jobs: { run: () => void; at: number }[] = [];
  private timer: NodeJS.Timeout | undefined;
  inflight = 0;

  constructor(
    private readonly maxWaitMs = 2000,
    private readonly pollMs = 20,
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

  private step(): void {
    const job = this.jobs[0];
    if (job && (this.inflight === 0 || Date.now() - job.at >= this.maxWaitMs)) {
      this.jobs.shift();
      job.run();
    }
    this.kick();
  }
}
