/**
 * One fuzz target: `run(seed, cases)` tries `cases` seeded inputs and returns what broke, each
 * failure with what reproduces it (the seed and the input as hex or argv). A target never throws:
 * an exception is itself a failure it reports.
 */
export interface FuzzResult {
  readonly cases: number;
  readonly failures: readonly string[];
  /** Counts worth reporting (packets executed, faulted, …). */
  readonly stats: Readonly<Record<string, number>>;
}

export interface FuzzTarget {
  readonly name: string;
  readonly run: (seed: number, cases: number) => FuzzResult | Promise<FuzzResult>;
}

/** Failures kept per run: enough to act on, bounded however many cases fail. */
export const MAX_FAILURES = 20;

/** Collects failures (bounded) and counts. */
export class Findings {
  readonly failures: string[] = [];
  readonly stats: Record<string, number> = {};
  fail(what: string): void {
    this.count("failures");
    if (this.failures.length < MAX_FAILURES) this.failures.push(what);
  }
  count(key: string, n = 1): void {
    this.stats[key] = (this.stats[key] ?? 0) + n;
  }
  result(cases: number): FuzzResult {
    return { cases, failures: this.failures, stats: this.stats };
  }
}

/** An exception a library call may throw on bad input: sdmakit's own classes, TypeError / RangeError naming an argument. */
export function describeThrow(e: unknown): string {
  return e instanceof Error
    ? `${e.name}: ${e.message}\n${e.stack?.split("\n").slice(1, 4).join("\n")}`
    : String(e);
}
