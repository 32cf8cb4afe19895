/**
 * The Run view's worker: sweeps the sizes with the library's `runSize` (plan, device run, check,
 * timing), posting progress, each nccom-test row as it is done, and the trace of the largest size —
 * so the page stays responsive however long the run takes.
 */
import { FieldError } from "../../src/bits/index.js";
import { parseSize } from "../../src/cli/sizes.js";
import {
  ALGORITHMS,
  type AlgorithmName,
  type CheckMode,
  COLLECTIVES,
  type CollectiveName,
  type CollectiveRun,
  checkLnc,
  collectiveDtype,
  defaultLnc,
  REDUCE_OPS,
  type ReduceOp,
  runSize,
  type SizeResult,
  sweepSizes,
  traceOf,
} from "../../src/collectives/index.js";
import { archProfile } from "../../src/hal/index.js";
import { dtypeName } from "../../src/spec/index.js";
import { errorText } from "./error-text.js";
import { takeKernels } from "./kernels-worker.js";
import type { RunInput, RunMessage } from "./run-protocol.js";

/** A trace larger than this is not drawn (the page would hold it all in memory). */
export const MAX_TRACE_EVENTS = 200_000;

const post = (m: RunMessage) => postMessage(m);

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
  return {
    profile,
    lnc: input.lnc === "auto" ? defaultLnc(profile) : checkLnc(profile, Number(input.lnc)),
    ranks: count("ranks", input.ranks),
    nodes: count("nodes", input.nodes),
    collective: oneOf<CollectiveName>("collective", input.collective, COLLECTIVES),
    algorithm: oneOf<AlgorithmName | "auto">("algorithm", input.algo, ["auto", ...ALGORITHMS]),
    dtype: collectiveDtype(input.dtype),
    op: oneOf<ReduceOp>("op", input.op, REDUCE_OPS),
    check: oneOf<CheckMode>("check", input.check, ["exact", "reference", "none"]),
    timingOnly: false,
    dataSeed: 0,
  };
}

function run(input: RunInput): void {
  const spec = runOf(input);
  const factor = Number(input.factor);
  const sizes = sweepSizes(
    parseSize("min size", input.min),
    parseSize("max size", input.max),
    factor,
    undefined,
    { min: "min size", max: "max size", factor: "factor", step: "step" },
  );
  post({
    type: "start",
    sizes,
    header: `# ${spec.collective} ranks=${spec.ranks} nodes=${spec.nodes} arch=${spec.profile.name} lnc=${spec.lnc} dtype=${dtypeName(spec.dtype)} op=${spec.op} check=${spec.check}`,
  });
  let last: SizeResult | undefined;
  let posted = -1;
  sizes.forEach((size, k) => {
    const progress = (f: number) => {
      const fraction = (k + f) / sizes.length;
      if (fraction - posted < 0.005) return;
      posted = fraction;
      post({ type: "progress", fraction, label: `${spec.collective} ${size} B` });
    };
    progress(0);
    last = runSize(spec, size, progress);
    post({ type: "row", row: last.row, algorithm: last.plan.algorithm });
  });
  post({ type: "progress", fraction: 1, label: "done" });
  if (last !== undefined) {
    const events = traceOf(last.plan, last.schedule, spec.profile).traceEvents;
    if (events.length > MAX_TRACE_EVENTS)
      post({
        type: "trace-skipped",
        size: last.row.size,
        reason: `${events.length} trace events (the page draws up to ${MAX_TRACE_EVENTS})`,
      });
    else post({ type: "trace", size: last.row.size, events });
  }
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
