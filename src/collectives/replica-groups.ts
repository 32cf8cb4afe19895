/**
 * Replica groups as nccom-test takes them: `--custom-replica-groups FILE` (the groups of ranks a
 * collective runs over, side by side) and `--data-parallel-dimension D` ("run the given collective
 * operation in parallel across multiple sub-groups of size D": 128 ranks and D = 2 are 64
 * collectives of 2 ranks at once, "primarily intended for multi-node executions with
 * one-rank-per-node replica groups").
 *
 * MODEL (`--data-parallel-dimension`): group i is ranks i, i + R/D, i + 2R/D, … (R ranks), the
 * strided groups that put one rank per node when D is the node count — the guide's intended use.
 * MODEL (custom groups): every group the same size (a collective's count is per group), disjoint,
 * together any subset of the ranks (ranks in no group stay idle).
 */
import { UsageError } from "../bits/errors.js";

/** The groups of ranks one collective runs over at once (each in its own order). */
export type ReplicaGroups = readonly (readonly number[])[];

/** How a run's options name its groups: at most one of the two. */
export interface GroupOptions {
  /** nccom-test `--custom-replica-groups`: the groups, each a list of ranks. */
  readonly replicaGroups?: ReplicaGroups;
  /** nccom-test `--data-parallel-dimension`: groups of this many ranks, strided (see module doc). */
  readonly dataParallelDimension?: number;
}

/** The most groups one collective may run over (one per rank at most; bounded for memory). */
export const MAX_GROUPS = 4096;

/**
 * The strided groups of size `d` over `ranks` ranks.
 * @throws UsageError unless d is an integer 1..ranks that divides ranks.
 * @example dataParallelGroups(8, 2); // [[0, 4], [1, 5], [2, 6], [3, 7]]
 */
export function dataParallelGroups(ranks: number, d: number): number[][] {
  if (!Number.isInteger(d) || d < 1 || d > ranks || ranks % d !== 0) {
    throw new UsageError(
      `dataParallelDimension ${d}: expected an integer 1..${ranks} that divides the rank count ${ranks}`,
    );
  }
  const stride = ranks / d;
  return Array.from({ length: stride }, (_, i) => Array.from({ length: d }, (_, j) => i + j * stride));
}

/**
 * Check custom groups against a run of `ranks` ranks.
 * @throws UsageError naming the group and the rank at fault: not an array of integers 0..ranks−1,
 * empty, of unequal sizes, a rank in two groups, or more than {@link MAX_GROUPS} groups.
 */
export function checkReplicaGroups(ranks: number, groups: unknown): number[][] {
  if (!Array.isArray(groups) || groups.length === 0 || groups.length > MAX_GROUPS) {
    throw new UsageError(`replicaGroups: expected 1..${MAX_GROUPS} groups, each a list of ranks`);
  }
  const owner = new Map<number, number>();
  const out = groups.map((g: unknown, k) => {
    if (!Array.isArray(g) || g.length === 0)
      throw new UsageError(`replicaGroups[${k}]: expected a non-empty list of ranks`);
    return g.map((r: unknown, i) => {
      if (typeof r !== "number" || !Number.isInteger(r) || r < 0 || r >= ranks)
        throw new UsageError(
          `replicaGroups[${k}][${i}] ${JSON.stringify(r)}: expected a rank 0..${ranks - 1}`,
        );
      const other = owner.get(r);
      if (other !== undefined)
        throw new UsageError(`replicaGroups[${k}]: rank ${r} is in group ${other} too`);
      owner.set(r, k);
      return r;
    });
  });
  const size = (out[0] as number[]).length;
  const odd = out.findIndex((g) => g.length !== size);
  if (odd >= 0) {
    throw new UsageError(
      `replicaGroups[${odd}]: ${(out[odd] as number[]).length} ranks; every group needs the same count (group 0 has ${size})`,
    );
  }
  return out;
}

/**
 * The groups a run's options name, or undefined when none (the collective over all ranks).
 * @throws UsageError when both are given, or as {@link checkReplicaGroups} / {@link dataParallelGroups}.
 */
export function groupsOf(ranks: number, options: GroupOptions): number[][] | undefined {
  const { replicaGroups, dataParallelDimension } = options;
  if (replicaGroups !== undefined && dataParallelDimension !== undefined)
    throw new UsageError("replicaGroups and dataParallelDimension: give one of the two");
  if (replicaGroups !== undefined) return checkReplicaGroups(ranks, replicaGroups);
  if (dataParallelDimension !== undefined) return dataParallelGroups(ranks, dataParallelDimension);
  return undefined;
}
