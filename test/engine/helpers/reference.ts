/** The direct numerics reference the engine must equal: decode, ALU, encode — no rings, no bytes. */
import {
  accumulatorStart,
  aluAdd,
  aluClamp,
  aluConstantToF32,
  aluFma,
  aluMax,
  aluMin,
  decodeToF32,
  encodeFromF32,
  RNE,
  SrStream,
} from "../../../src/numerics/index.js";
import { type Dtype, dtypeBytes } from "../../../src/spec/index.js";
import type { Op } from "./packets.js";

export interface RefRequest {
  readonly op: Op;
  readonly sources: readonly Uint8Array[];
  readonly elements: number;
  readonly inDt: Dtype;
  readonly outDt: Dtype;
  readonly scales?: readonly number[];
  readonly constant?: { readonly dt: Dtype; readonly word: number };
  readonly seed?: number;
}

export function reference(r: RefRequest): Uint8Array {
  const n = r.elements;
  const acc = new Float32Array(n).fill(accumulatorStart(r.op));
  const src = new Float32Array(n);
  r.sources.forEach((s, i) => {
    decodeToF32(r.inDt, s, 0, n, src, 0);
    if (r.op === "add") aluAdd(acc, src, n);
    else if (r.op === "min") aluMin(acc, src, n);
    else if (r.op === "max") aluMax(acc, src, n);
    else aluFma(acc, src, r.scales?.[i] ?? 1, n);
  });
  if (r.constant) aluClamp(r.op as "min" | "max", acc, aluConstantToF32(r.constant.dt, r.constant.word), n);
  const out = new Uint8Array(n * dtypeBytes(r.outDt));
  encodeFromF32(
    r.outDt,
    acc,
    0,
    n,
    out,
    0,
    r.seed === undefined ? RNE : { mode: "sr", rng: new SrStream(r.seed) },
    "nan",
  );
  return out;
}
