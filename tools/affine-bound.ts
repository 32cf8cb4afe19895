/**
 * How close ANY "fixed cost + size / bandwidth" model can come to a set of measured rows: the least
 * geomean error of time = α + S·u over every α ≥ 0 and u > 0. Our cost model is of that form for
 * one algorithm at sizes past its floor (launch + hops + bytes at the shared resources' rates), and
 * so are the usual alternatives (another instance, another LNC, chunked pipelines with a fixed chunk
 * count), so when this bound is above a target no choice of their parameters can meet it. Used by
 * the calibration test and docs/TIMING.md for sdk26-allr-r16-fp32-algo.
 *
 * The search is a deterministic grid: α over [0, 2·max time] (quadratic, then three zooms around the
 * best) and, for each α, u over a log grid that brackets every row's "exact" u, then a finer one
 * around the best. A row's |ln| is 1-Lipschitz in ln(α + S·u), so the final steps bound how far above
 * the true minimum it lands (≪ 0.1 % here; a random-restart search found the same 31.3 % for the
 * r16 table).
 */

/** A measured row: size in bytes, time in µs. */
export interface Point {
  readonly size: number;
  readonly us: number;
}

export interface AffineFit {
  /** exp(mean |ln(model / measured)|) − 1 at the best (α, u) found. */
  readonly error: number;
  /** α, µs. */
  readonly fixedUs: number;
  /** 1 / u: the model's bytes per µs (= MB/s). */
  readonly bytesPerUs: number;
}

const STEPS = 600;
const ZOOM = 60;

function sumLogErrors(points: readonly Point[], a: number, u: number): number {
  let s = 0;
  for (const p of points) s += Math.abs(Math.log((a + p.size * u) / p.us));
  return s;
}

/** The least Σ |ln| over u for a fixed α, and the u that gives it. */
function bestU(points: readonly Point[], a: number): { sum: number; u: number } {
  // Every row's exact u (where its error is 0), then a log grid a decade past either end of them.
  const exact = points.filter((p) => p.us > a).map((p) => (p.us - a) / p.size);
  const ends = exact.length > 0 ? exact : points.map((p) => p.us / p.size);
  const lo = Math.log(Math.min(...ends) / 10);
  const step = (Math.log(Math.max(...ends) * 10) - lo) / STEPS;
  let best = { sum: Number.POSITIVE_INFINITY, u: 1 };
  const tryU = (u: number) => {
    const sum = sumLogErrors(points, a, u);
    if (sum < best.sum) best = { sum, u };
  };
  for (const u of exact) tryU(u);
  for (let k = 0; k <= STEPS; k++) tryU(Math.exp(lo + step * k));
  const around = best.u;
  for (let k = -STEPS; k <= STEPS; k++) tryU(around * Math.exp((step * k) / STEPS));
  return best;
}

function checkPoints(points: readonly Point[]): void {
  if (points.length === 0) throw new RangeError("points: expected at least one row");
  for (const p of points)
    if (!(p.size > 0 && p.us > 0))
      throw new RangeError(`point ${JSON.stringify(p)}: size and us must be > 0`);
}

/**
 * The best α + S·u fit of the rows.
 * @throws RangeError on no rows or a row with a size or time ≤ 0.
 * @example bestAffine([{ size: 1e6, us: 20 }, { size: 2e6, us: 30 }]).error; // ≈ 0
 */
export function bestAffine(points: readonly Point[]): AffineFit {
  checkPoints(points);
  // α on a quadratic grid (fine near 0, where short rows make the error steep), then zooms into the
  // cells either side of the best.
  const top = 2 * Math.max(...points.map((p) => p.us));
  const grid = (k: number) => top * (Math.max(0, k) / STEPS) ** 2;
  let best = { sum: Number.POSITIVE_INFINITY, a: 0, u: 1 };
  let bestK = 0;
  for (let k = 0; k <= STEPS; k++) {
    const r = bestU(points, grid(k));
    if (r.sum < best.sum) [best, bestK] = [{ sum: r.sum, a: grid(k), u: r.u }, k];
  }
  let [lo, hi] = [grid(bestK - 1), grid(bestK + 1)];
  for (let zoom = 0; zoom < 3; zoom++) {
    const step = (hi - lo) / ZOOM;
    for (let j = 0; j <= ZOOM; j++) {
      const r = bestU(points, lo + step * j);
      if (r.sum < best.sum) best = { sum: r.sum, a: lo + step * j, u: r.u };
    }
    [lo, hi] = [Math.max(0, best.a - step), best.a + step];
  }
  return { error: Math.exp(best.sum / points.length) - 1, fixedUs: best.a, bytesPerUs: 1 / best.u };
}

/**
 * The least fixed cost α (to `resolutionUs`) for which some u keeps Σ |ln(model / measured)| over
 * the rows within `budget` — what an algorithm's fixed cost must be at least for its rows to fit.
 * @returns undefined when no α up to twice the largest time does.
 * @throws RangeError as {@link bestAffine}, or on a budget < 0 or a resolution ≤ 0.
 * @example fixedCostNeeded(rows, 3 * Math.log(1.25)); // µs
 */
export function fixedCostNeeded(
  points: readonly Point[],
  budget: number,
  resolutionUs = 1,
): number | undefined {
  checkPoints(points);
  if (!(budget >= 0)) throw new RangeError(`budget ${budget}: expected ≥ 0`);
  if (!(resolutionUs > 0)) throw new RangeError(`resolutionUs ${resolutionUs}: expected > 0`);
  const top = 2 * Math.max(...points.map((p) => p.us));
  for (let a = 0; a <= top; a += resolutionUs) if (bestU(points, a).sum <= budget) return a;
  return undefined;
}
