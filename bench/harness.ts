// What every bench row shares: the figure is an operation's time divided by the time of a warm
// in-process copy (`Uint8Array.prototype.set` between two buffers already touched) of the row's
// input bytes, both timed in CPU time (`process.cpuUsage`: on this shared machine CPU time moves
// far less than wall time), in alternation (op, copy, op, copy …) so that both see the same load,
// after warm-up rounds (JIT and wasm tier-up are not throughput). Each side of a pair is the best
// of BEST back-to-back runs (other tenants of this machine take it for tens of milliseconds at a
// time: a ratio then measures them), each pair gives one ratio, and a row is the median and the
// min–max of RUNS such ratios. Lower is better: 1 = as fast as copying the input once.

/** Measurements per row (op/copy pairs after the warm-up). */
export const RUNS = Number(process.env.BENCH_RUNS ?? 5);
/** Back-to-back runs each side of a pair takes the least CPU time of. */
const BEST = 3;
const WARMUP = 2;

export interface BenchRow {
  readonly name: string;
  /** The target for the row, as text (`≤ 1.5`), or "" for a reference row. */
  readonly target: string;
  readonly median: number;
  readonly min: number;
  readonly max: number;
  /** What the figures are: `× copy` (a ratio) or an absolute unit such as `µs / packet`. */
  readonly unit: string;
  readonly note: string;
}

/** CPU milliseconds `fn` takes. */
export function cpuMs(fn: () => void): number {
  const c0 = process.cpuUsage();
  fn();
  const c = process.cpuUsage(c0);
  return (c.user + c.system) / 1000;
}

/** The least CPU milliseconds of `times` back-to-back runs of `fn`. */
function bestMs(fn: () => void, times: number): number {
  let best = Infinity;
  for (let i = 0; i < times; i++) best = Math.min(best, cpuMs(fn));
  return best;
}

/** Median, min and max of a non-empty list. */
export function spread(values: readonly number[]): { median: number; min: number; max: number } {
  const s = [...values].sort((a, b) => a - b);
  return { median: s[(s.length - 1) >> 1] as number, min: s[0] as number, max: s[s.length - 1] as number };
}

/** A warm copy of `bytes` bytes: both buffers touched before the first timing. */
export function warmCopy(bytes: number): () => void {
  const from = new Uint8Array(bytes).fill(7);
  const to = new Uint8Array(bytes).fill(1);
  return () => to.set(from);
}

/**
 * The row of `op` against a warm copy of `inputBytes`: RUNS op/copy pairs after WARMUP pairs,
 * each pair's ratio of CPU times (each side the best of BEST runs); `note` gets the median
 * absolute times appended.
 */
export function ratioRow(
  name: string,
  target: string,
  inputBytes: number,
  op: () => void,
  note = "",
  runs = RUNS,
  warmup = WARMUP,
): BenchRow {
  const copy = warmCopy(inputBytes);
  const ratios: number[] = [];
  const opMs: number[] = [];
  const copyMs: number[] = [];
  for (let i = 0; i < runs + warmup; i++) {
    if (i < warmup) {
      op();
      copy();
      continue;
    }
    const o = bestMs(op, BEST);
    const c = bestMs(copy, BEST);
    ratios.push(o / c);
    opMs.push(o);
    copyMs.push(c);
  }
  const times = `op ${spread(opMs).median.toFixed(1)} ms, copy of ${mib(inputBytes)} ${spread(copyMs).median.toFixed(2)} ms`;
  return { name, target, unit: "× copy", ...spread(ratios), note: note === "" ? times : `${note}; ${times}` };
}

export function mib(bytes: number): string {
  return bytes >= 1 << 20 ? `${bytes / (1 << 20)} MiB` : `${bytes / 1024} KiB`;
}

/** One row as a markdown table line. */
export function formatRow(r: BenchRow): string {
  const f = (x: number) => (x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x.toFixed(2));
  return `| ${r.name} | **${f(r.median)}** [${f(r.min)}–${f(r.max)}] ${r.unit} | ${r.target} | ${r.note} |`;
}

export const TABLE_HEAD = "| row | median [min–max] | target | note |\n|---|---|---|---|";
