/**
 * How long each stage of one call took, for the log (never for the manifest or the request, which stay
 * deterministic). `now` is injectable; the default is the process's monotonic clock.
 */
export class Stopwatch {
  readonly laps: { stage: string; ms: number }[] = [];
  private last: number;

  constructor(private readonly now: () => number = () => performance.now()) {
    this.last = now();
  }

  /** Close the stage that just ran, and return its value unchanged. */
  lap<T>(stage: string, value: T): T {
    const t = this.now();
    this.laps.push({ stage, ms: t - this.last });
    this.last = t;
    return value;
  }
}
