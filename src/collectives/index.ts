/**
 * sdmakit collectives: all-reduce, reduce-scatter, all-gather and send-recv over simulated
 * NeuronCores — planned as copy / reduce-copy legs (Ring, KangaRing, Mesh), executed through the
 * runtime's descriptor builders on the engine, checked element by element, timed by a calibrated
 * cost model. MODEL choices: docs/FIDELITY.md.
 * @module
 */
export { BufferLayout, GUARD_BYTES, GUARD_FILL, OUTPUT_FILL } from "./buffer-layout.js";
export { buildPlan, emitPlan } from "./build-plan.js";
export {
  CALIBRATION,
  calibratedEngineRate,
  LAUNCH_OVERHEAD_NS,
  SEMAPHORE_TO_START_NS,
} from "./cost-model.js";
export { DeviceMachine, maxDeviceRanks } from "./device-machine.js";
export { COLLECTIVE_DTYPES, collectiveDtype, exactIntegerRange } from "./dtypes.js";
export { exactResult } from "./exact-result.js";
export { type DataKind, exactApplies, makeInputs, type RankInputs } from "./inputs.js";
export { ARCH_LINKS, type ArchLinks, type LinkClass, type LinkSpec } from "./links.js";
export { legPacketCount, legPackets, packetElems, queueSeed } from "./packets.js";
export { type ElemRange, GRANULE_BYTES, splitRange } from "./partition.js";
export type {
  AlgorithmName,
  BufferName,
  BufRef,
  CollectiveName,
  Leg,
  LegKind,
  LegSource,
  Plan,
  ReduceOp,
} from "./plan.js";
export { bufferSizes, type PlanRequest } from "./plan-request.js";
export { runReference } from "./reference.js";
export {
  averageBusbw,
  bandwidths,
  busFactor,
  formatHeader,
  formatRow,
  formatSummary,
  formatTable,
  MAX_SWEEP_BYTES,
  MAX_SWEEP_SIZES,
  parseSize,
  type ReportRow,
  sweepSizes,
} from "./report.js";
export {
  type CheckMode,
  type CollectiveRun,
  countForSize,
  runSize,
  type SizeResult,
} from "./run-collective.js";
export { type Schedule, schedulePlan } from "./schedule.js";
export { type StreamedTiming, scheduleStreamed } from "./stream-schedule.js";
export {
  COLLECTIVE_DEFAULTS,
  type CollectiveOptions,
  type CollectiveResult,
  collectiveRun,
  runCollective,
  type SweepOptions,
  sweep,
  sweepSizesOf,
} from "./sweep.js";
export { buildTopology, linkClass, lnc2Partner, type Topology } from "./topology.js";
export { type TraceEvent, traceEvents, traceOf } from "./trace.js";
export { countGuardErrors, countWrong, maxAbsError } from "./verify.js";
