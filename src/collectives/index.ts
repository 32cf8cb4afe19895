/**
 * sdmakit collectives: all-reduce, reduce-scatter, all-gather and send-recv over simulated
 * NeuronCores — planned as copy / reduce-copy legs (Ring, KangaRing, Mesh), executed through the
 * runtime's descriptor builders on the engine, checked element by element, timed by a calibrated
 * cost model. MODEL choices: docs/FIDELITY.md. The folders follow the flow, each importing only the
 * ones before it (test/style/collective-rooms.test.ts): topology/ (ranks on chips and nodes, links,
 * routes), plan/ (algorithms → legs, a leg as runtime calls), timing/ (cost model, the one
 * scheduler), report/ (table, trace), device/ (legs run on the engine), check/ (inputs, exact
 * result, reference, verify); run-collective.ts ties them together for one size.
 * @module
 */

export {
  type ArchFit,
  calibrate,
  FREE_PARAMETERS,
  fitArch,
  type MeasuredReport,
  modelTimes,
  profileOf,
  type ReportDefaults,
  readReport,
  reportError,
} from "./calibrate.js";
export { useCheckKernels } from "./check/check-kernels.js";
export {
  countGuardErrors,
  countRankGuardErrors,
  countWrong,
  maxAbsError,
  type OutputCheck,
} from "./check/compare.js";
export { COLLECTIVE_DTYPES, collectiveDtype, exactIntegerRange } from "./check/dtypes.js";
export { exactResult } from "./check/exact-result.js";
export { checkExchange } from "./check/exchange-check.js";
export {
  type DataKind,
  exactApplies,
  generateInputs,
  type InputDelivery,
  type InputSink,
  type InputSpec,
  inputWordsBefore,
  makeInputs,
  type RankInputs,
  type RankPart,
} from "./check/inputs.js";
export { runReference } from "./check/reference.js";
export { CHECK_TILE, checkOutputs, type OutputRange } from "./check/verify.js";
export { COLLECTIVE_DEFAULTS } from "./defaults.js";
export {
  BufferLayout,
  type BufferReader,
  GUARD_BYTES,
  GUARD_FILL,
  OUTPUT_FILL,
} from "./device/buffer-layout.js";
export { DeviceMachine, deviceLayout, maxDeviceRanks, ringBaseOf } from "./device/device-machine.js";
export {
  admit,
  DEFAULT_HOST_BUDGET,
  estimateHostMemory,
  estimateSharedHostMemory,
  type HostBudget,
  type HostEstimate,
  type PlanCounts,
} from "./device/host-memory.js";
export { COLLECTIVE_RULES, checkCollectiveOptions, MAX_THREADS } from "./option-rules.js";
export { buildPlan, candidateAlgorithms, emitPlan, lazyPlan } from "./plan/build-plan.js";
export {
  EXCHANGES,
  type ExchangeGeometry,
  type ExchangeName,
  type ExchangeSpec,
  exchangeGeometry,
  isExchange,
  type VariableEntry,
} from "./plan/exchange.js";
export {
  checkScheduleLegs,
  estimateLegs,
  MAX_SCHEDULE_LEGS,
  ScheduleTooLargeError,
} from "./plan/leg-estimate.js";
export { meshUnreadStep } from "./plan/mesh.js";
export { legPacketCount, legPackets, packetElems, queueSeed } from "./plan/packets.js";
export { type ElemRange, GRANULE_BYTES, splitRange } from "./plan/partition.js";
export {
  ALGORITHMS,
  type AlgorithmName,
  type BufferName,
  type BufRef,
  COLLECTIVES,
  type CollectiveName,
  type Leg,
  type LegKind,
  type LegSource,
  type Plan,
  REDUCE_OPS,
  type ReduceOp,
} from "./plan/plan.js";
export { bufferSizes, type PlanRequest } from "./plan/plan-request.js";
export {
  checkReplicaGroups,
  dataParallelGroups,
  type GroupOptions,
  groupsOf,
  MAX_GROUPS,
  type ReplicaGroups,
} from "./replica-groups.js";
export { formatBytes } from "./report/format-bytes.js";
export {
  type ComparedRow,
  compareMeasured,
  type HardwareReport,
  type MeasuredConfig,
  type MeasuredRow,
  parseMeasuredReport,
} from "./report/measured-report.js";
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
  type ReportRow,
  sweepSizes,
  type TableColumns,
  type TimeStat,
} from "./report/report.js";
export { type TraceEvent, traceEvents, traceOf } from "./report/trace.js";
export {
  type CheckMode,
  type CollectiveRun,
  countForSize,
  MIN_THREADED_INPUT_BYTES,
  type PreparedSize,
  prepareSize,
  runPrepared,
  runSize,
  type SizeResult,
} from "./run-collective.js";
export {
  admitConcurrentSize,
  concurrentHostEstimate,
  groupRun,
  runConcurrentSize,
  type StreamResult,
  type StreamRun,
} from "./run-concurrent.js";
export {
  checkStreams,
  MAX_STREAMS,
  type StreamOptions,
} from "./streams.js";
export {
  type CollectiveOptions,
  type CollectiveResult,
  collectiveRun,
  runCollective,
  type SweepOptions,
  sweep,
  sweepSizesOf,
} from "./sweep.js";
export { availableThreads } from "./threads/pool.js";
export { splitParts } from "./threads/threaded-run.js";
export { Checkpoints } from "./timing/checkpoints.js";
export {
  type ConcurrentMember,
  type ConcurrentTiming,
  groupTopology,
  MAX_CONCURRENT_LEGS,
  scheduleConcurrent,
} from "./timing/concurrent-schedule.js";
export {
  ARCH_TIMING,
  type ArchTiming,
  CALIBRATION,
  calibratedEngineRate,
  engineCostModel,
  SEMAPHORE_TO_START_NS,
} from "./timing/cost-model.js";
export { type CostedWork, type LegCost, LegCoster } from "./timing/leg-cost.js";
export { NodeFold } from "./timing/node-fold.js";
export {
  type PreparedSchedule,
  prepareSchedule,
  prepareWithin,
  type Schedule,
  type ScheduleOptions,
  scheduleCollective,
  type Timing,
} from "./timing/schedule.js";
export {
  checkTimingProfile,
  parseTimingProfile,
  profileParams,
  TIMING_PROFILE_FORMAT,
  TIMING_PROFILE_VERSION,
  type TimingProfile,
} from "./timing/timing-profile.js";
export {
  ARCH_WIRING,
  type ArchLinks,
  type ArchWiring,
  type LinkClass,
  type LinkSpec,
} from "./topology/links.js";
export {
  type ParameterSource,
  resolveTiming,
  shippedTiming,
  TIMING_PARAMETERS,
  type TimingKey,
  type TimingParameter,
  type TimingParams,
} from "./topology/timing-params.js";
export {
  buildTopology,
  checkLnc,
  defaultLnc,
  type Lnc,
  linkClass,
  lnc2Partner,
  lncChoices,
  MAX_RANKS,
  type Topology,
  type TopologyOptions,
} from "./topology/topology.js";
export {
  admitTrace,
  estimateTrace,
  MAX_TRACE_BYTES,
  MAX_TRACE_EVENTS,
  planTrace,
  type TracePlan,
  type TraceShape,
  traceEventFloor,
  traceHostBytes,
  traceShapeOf,
} from "./trace-admission.js";
export { streamTraceEvents, type TraceSampling, type TraceWrite, writeTrace } from "./trace-stream.js";
