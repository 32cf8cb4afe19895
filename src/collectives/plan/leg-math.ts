/**
 * What the CCE computes for a leg, named once: the ALU op of each leg kind under each reduce op,
 * and the per-source FP32 scale (avg only).
 */
import type { AluOp } from "../../numerics/index.js";
import type { Leg, LegSource, ReduceOp } from "./plan.js";

/** The CCE ALU op of a leg, or undefined for a plain copy. */
export function legAluOp(leg: Pick<Leg, "kind">, op: ReduceOp): AluOp | undefined {
  if (leg.kind === "copy" || leg.kind === "sb2sb-copy") return undefined;
  if (leg.kind === "duplicate") return "add";
  return op === "sum" ? "add" : op === "avg" ? "fma" : op;
}

/** The FMA scale of a source (1 when the plan gave none). */
export function sourceScale(src: LegSource): number {
  return src.scale ?? 1;
}
