/**
 * What `sdmakit help` and the command lookup know of each collective command before its module is
 * loaded: its line of help and nccom-test's and nccl-tests' names for it.
 */
import type { CollectiveName } from "../../collectives/plan/plan.js";

export const COLLECTIVE_COMMANDS: Readonly<
  Record<CollectiveName, { readonly summary: string; readonly aliases: readonly string[] }>
> = {
  allr: {
    summary: "all-reduce over simulated NeuronCores, checked and timed like nccom-test",
    aliases: ["all_reduce", "all_reduce_perf"],
  },
  allg: {
    summary: "all-gather over simulated NeuronCores, checked and timed like nccom-test",
    aliases: ["all_gather", "all_gather_perf"],
  },
  redsct: {
    summary: "reduce-scatter over simulated NeuronCores, checked and timed like nccom-test",
    aliases: ["reduce_scatter", "reduce_scatter_perf"],
  },
  sendrecv: {
    summary: "send-recv (ring shift) over simulated NeuronCores, checked and timed like nccom-test",
    aliases: ["sendrecv_perf"],
  },
  alltoall: {
    summary: "all-to-all (rank s's block d to rank d) over simulated NeuronCores, checked and timed",
    aliases: ["all_to_all", "alltoall_perf"],
  },
  alltoallv: {
    summary: "all-to-all with per-rank counts (--alltoallv-metadata), checked and timed like nccom-test",
    aliases: ["all_to_allv", "all_to_all_v"],
  },
  allgv: {
    summary: "all-gather with per-rank counts (--variable-size-op-metadata), checked and timed",
    aliases: ["all_gatherv", "all_gather_v"],
  },
  permute: {
    summary: "collective permute over --custom-src-target-pairs, checked and timed like nccom-test",
    aliases: ["collective_permute"],
  },
};
