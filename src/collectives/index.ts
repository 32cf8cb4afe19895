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
  ARCH_TIMING,
  type ArchTiming,
  CALIBRATION,
  calibratedEngineRate,
  SEMAPHORE_TO_START_NS,
} from "./cost-model.js";
export { DeviceMachine, maxDeviceRanks } from "./device-machine.js";
export { COLLECTIVE_DTYPES, collectiveDtype, exactIntegerRange } from "./dtypes.js";
export { exactResult } from "./exact-result.js";
export { type DataKind, exactApplies, makeInputs, type RankInputs } from "./inputs.js";
export { type LegCost, LegCoster } from "./leg-cost.js";
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
  formatTable,
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
export { type Schedule, type ScheduleOptions, scheduleCollective, type Timing } from "./schedule.js";
export {
  buildTopology,
  checkLnc,
  defaultLnc,
  type Lnc,
  linkClass,
  lnc2Partner,
  type Topology,
} from "./topology.js";
export { traceOf } from "./trace.js";
export { countGuardErrors, countWrong, maxAbsError } from "./verify.js";
