/**
 * Which sizes of a sweep run on the simulated device. A nccom-test user who types `-e 1gb` wants the
 * table: a size that this host cannot hold as a functional (checked) run runs timing-only instead —
 * the same time, `#wrong` N/A — and one header note says which sizes and why. An explicit `--check`
 * asks for the data to be checked, so it keeps the refusal of the whole sweep, with its estimate,
 * before anything runs.
 */
import { type CollectiveRun, type PreparedSize, prepareSize } from "../collectives/index.js";

export interface SweepAdmission {
  /** The sizes prepared already (the largest, and the ones below it that fell back), to run from. */
  readonly prepared: ReadonlyMap<number, PreparedSize>;
  /** The header note naming the sizes that run timing-only, when there are any. */
  readonly note: string | undefined;
}

/**
 * Admit a sweep's sizes before any runs: prepare the largest (as the run will use it) and, while a
 * size falls back, the next smaller one — the memory a run needs grows with its size, so the sizes
 * that fall back are the largest ones.
 * @param explicitCheck the user asked for the check (`--check`, `-c MODE`, nccl-tests' `-c N`, N ≥ 1)
 * @throws UsageError with the largest size's estimate when `explicitCheck` and it cannot be held;
 *   the request's own errors (topology, planner) in any case.
 * @example admitSweep(run, [8, 1 << 30], false).note; // "1 size, 1073741824 B, runs timing-only …"
 */
export function admitSweep(
  run: CollectiveRun,
  sizes: readonly number[],
  explicitCheck: boolean,
): SweepAdmission {
  const prepared = new Map<number, PreparedSize>();
  if (run.timingOnly) return { prepared, note: undefined };
  const refused: PreparedSize[] = [];
  for (let i = sizes.length - 1; i >= 0; i--) {
    const p = prepareSize(run, sizes[i] as number, { fallBack: !explicitCheck });
    prepared.set(p.size, p);
    if (p.refusal === undefined) break;
    refused.unshift(p);
  }
  const first = refused[0];
  const last = refused[refused.length - 1];
  if (first === undefined || last?.refusal === undefined) return { prepared, note: undefined };
  const which =
    refused.length === sizes.length
      ? "every size runs"
      : refused.length === 1
        ? `1 size, ${first.size} B, runs`
        : `${refused.length} sizes, ${first.size}..${last.size} B, run`;
  return {
    prepared,
    note: `${which} timing-only, #wrong N/A (an explicit --check refuses instead): ${last.refusal.message}`,
  };
}
