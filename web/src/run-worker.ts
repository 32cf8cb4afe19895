/**
 * The Run view's worker: admits the sweep as the CLI does (the largest size prepared first; a
 * functional run the device or the host budget cannot hold is refused with the estimate, before
 * anything runs), then runs each size from the library's `prepareSize` / `runPrepared`, posting
 * progress and each nccom-test row as it is done, and the timeline model of the largest size —
 * built here from the library's trace events, so the page only draws. The page ends the worker to
 * cancel, which frees all of its memory.
 */
import { FieldError, UsageError } from "../../src/bits/index.js";
import { parseSize } from "../../src/cli/sizes.js";
import { admitSweep } from "../../src/cli/sweep-admission.js";
import {
  ALGORITHMS,
  type AlgorithmName,
  admitTrace,
  type CheckMode,
  COLLECTIVES,
  type CollectiveName,
  type CollectiveRun,
  checkLnc,
  checkTimingProfile,
  collectiveDtype,
  DEFAULT_HOST_BUDGET,
  defaultLnc,
  type PreparedSize,
  prepareSize,
  REDUCE_OPS,
  type ReduceOp,
  runPrepared,
  type SizeResult,
  sweepSizes,
  traceEvents,
} from "../../src/collectives/index.js";
import { archProfile } from "../../src/hal/index.js";
import { dtypeName } from "../../src/spec/index.js";
import { errorText } from "./error-text.js";
import { takeKernels } from "./kernels-worker.js";
import { profileLine } from "./profile-box.js";
import type { RunInput, RunMessage } from "./run-protocol.js";
import { modelBuffers, traceModel } from "./trace-model.js";

/**
 * A trace with more events than this is not drawn: the model's columns take ≈ 80 B a slice in the
 * worker and again in the page (256 ranks × 4 MiB timing-only has ≈ 0.73 M events).
 */
export const MAX_TRACE_EVENTS = 2_000_000;

/** The page's host budget for a functional run: the library's default (the CLI's --max-memory). */
const PAGE_BUDGET = { bytes: DEFAULT_HOST_BUDGET.bytes, source: "the page's budget" } as const;

const post = (m: RunMessage, transfer: Transferable[] = []) => postMessage(m, { transfer });

function oneOf<T extends string>(name: string, text: string, allowed: readonly T[]): T {
  if (!(allowed as readonly string[]).includes(text))
    throw new FieldError("run", name, text, allowed.join(" | "));
  return text as T;
}

function count(name: string, text: string): number {
  const v = Number(text);
  if (!Number.isInteger(v) || v < 1) throw new FieldError("run", name, text, "an integer ≥ 1");
  return v;
}

function runOf(input: RunInput): CollectiveRun {
  const profile = archProfile(input.arch);
  const timingOnly = oneOf("timing-only", input.timing, ["on", "off"]) === "on";
  return {
    profile,
    lnc: input.lnc === "auto" ? defaultLnc(profile) : checkLnc(profile, Number(input.lnc)),
    ranks: count("ranks", input.ranks),
    nodes: count("nodes", input.nodes),
    collective: oneOf<CollectiveName>("collective", input.collective, COLLECTIVES),
    algorithm: oneOf<AlgorithmName | "auto">("algorithm", input.algo, ["auto", ...ALGORITHMS]),
    dtype: collectiveDtype(input.dtype),
    op: oneOf<ReduceOp>("op", input.op, REDUCE_OPS),
    check: timingOnly ? "none" : oneOf<CheckMode>("check", input.check, ["exact", "reference", "none"]),
    timingOnly,
    dataSeed: 0,
    hostBudget: PAGE_BUDGET,
    ...(input.timingProfile === undefined
      ? {}
      : { timingProfile: checkTimingProfile(input.timingProfile, input.profileName ?? "timing profile") }),
  };
}

/** The run's parameters, as the table's header line. */
function headerOf(spec: CollectiveRun, input: RunInput): string {
  const profile =
    spec.timingProfile === undefined
      ? ""
      : ` timing-profile=${input.profileName ?? "(unnamed)"} (${profileLine(spec.timingProfile)})`;
  return `# ${spec.collective} ranks=${spec.ranks} nodes=${spec.nodes} arch=${spec.profile.name} lnc=${spec.lnc} dtype=${dtypeName(spec.dtype)} op=${spec.op} check=${spec.check}${spec.timingOnly ? " timing-only" : ""}${profile}`;
}

function sizesOf(input: RunInput): number[] {
  if (input.sizes !== undefined && input.sizes !== "")
    return input.sizes.split(",").map((s) => parseSize("size", s.trim()));
  const range = {
    min: parseSize("min size", input.min),
    max: parseSize("max size", input.max),
    factor: Number(input.factor),
  };
  return sweepSizes(range, { min: "min size", max: "max size", factor: "factor", step: "step" });
}

/** The largest size's timeline model, or why it is not drawn. */
function postTrace(last: SizeResult, prepared: PreparedSize, spec: CollectiveRun): void {
  try {
    admitTrace(prepared, MAX_TRACE_EVENTS);
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    post({ type: "trace-skipped", size: last.row.size, reason: e.message });
    return;
  }
  const began = performance.now();
  const model = traceModel(traceEvents(last.plan, last.schedule, spec.profile));
  post(
    { type: "trace", size: last.row.size, model, buildMs: performance.now() - began },
    modelBuffers(model),
  );
}

function run(input: RunInput): void {
  const spec = runOf(input);
  const sizes = sizesOf(input);
  let early: ReadonlyMap<number, PreparedSize>;
  try {
    // The page's check is always explicit (a select): a run too big refuses, as `--check` does.
    early = admitSweep(spec, sizes, true).prepared;
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    post({ type: "refused", message: e.message });
    return;
  }
  post({
    type: "start",
    sizes,
    header: headerOf(spec, input),
  });
  let last: { result: SizeResult; prepared: PreparedSize } | undefined;
  let posted = -1;
  sizes.forEach((size, k) => {
    const progress = (f: number) => {
      const fraction = (k + f) / sizes.length;
      if (fraction - posted < 0.005) return;
      posted = fraction;
      post({ type: "progress", fraction, label: `${spec.collective} ${size} B` });
    };
    progress(0);
    const prepared = early.get(size) ?? prepareSize(spec, size);
    const result = runPrepared(prepared, progress);
    last = { result, prepared };
    post({ type: "row", row: result.row, algorithm: result.plan.algorithm });
  });
  post({ type: "progress", fraction: 1, label: "done" });
  if (last !== undefined) postTrace(last.result, last.prepared, spec);
  post({ type: "done" });
}

takeKernels();
addEventListener("message", (e: MessageEvent<RunInput>) => {
  try {
    run(e.data);
  } catch (err) {
    post({ type: "error", message: errorText(err) });
  }
});
