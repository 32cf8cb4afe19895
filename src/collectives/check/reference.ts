/**
 * The scalar reference: walks the plan's legs in order over plain byte arrays, one element at a
 * time, with the same reduction order (sources in leg order, FP32 accumulator) and the same
 * rounding (RNE, or SR replaying the stream each packet's seed-init restarts; FMA from +0 as the
 * engine's accumulator starts). It shares nothing with the device
 * path but the plan, the packet split and the numerics codecs: no descriptors, no rings, no
 * device memory. Checking against it shows what rounding does; the dataflow of the plan itself is
 * checked by exact data (verify.ts).
 */

import type { ArchProfile } from "../../hal/arch-profile.js";
import {
  decodeToF32,
  encodeFromF32,
  fmaF32,
  type OverflowPolicy,
  RNE,
  type Rounding,
  SrStream,
} from "../../numerics/index.js";
import { dtypeBytes } from "../../spec/dtype.js";
import { legAluOp, sourceScale } from "../plan/leg-math.js";
import { legPackets, queueSeed } from "../plan/packets.js";
import type { BufferName, Plan } from "../plan/plan.js";

export type RankBuffers = Record<BufferName, Uint8Array>;

export interface ReferenceOptions {
  /** Stochastic rounding seed; RNE when undefined. */
  readonly srSeed?: number;
  /** The byte every output and scratch byte starts as. */
  readonly fill: number;
  /** What a finite value too large for a narrow dtype becomes (the device's policy). */
  readonly overflow: OverflowPolicy;
}

/**
 * Run the plan on copies of the inputs and return every rank's buffers.
 * @example const out = runReference(plan, profile, inputs.bytes, { fill: 0xa5 })[0].output;
 */
export function runReference(
  plan: Plan,
  profile: ArchProfile,
  inputs: readonly Uint8Array[],
  opts: ReferenceOptions,
): RankBuffers[] {
  const eb = dtypeBytes(plan.dtype);
  const ranks: RankBuffers[] = inputs.map((input) => ({
    input: input.slice(),
    output: new Uint8Array(plan.sizes.output * eb).fill(opts.fill),
    scratch: new Uint8Array(plan.sizes.scratch * eb).fill(opts.fill),
  }));
  const buf = (rank: number, name: BufferName) => (ranks[rank] as RankBuffers)[name];
  const x = new Float32Array(1);
  const acc = new Float32Array(1);
  for (const leg of plan.legs) {
    const alu = legAluOp(leg, plan.op);
    for (const pk of legPackets(profile, leg, plan.dtype)) {
      const out = new Uint8Array(pk.count * eb);
      if (alu === undefined) {
        const s = leg.srcs[0]!.ref;
        out.set(
          buf(s.rank, s.buffer).subarray((s.elem + pk.start) * eb, (s.elem + pk.start + pk.count) * eb),
        );
      } else {
        const rounding: Rounding =
          opts.srSeed === undefined
            ? RNE
            : { mode: "sr", rng: new SrStream(queueSeed(opts.srSeed, leg.rank, leg.queue)) };
        const sums = new Float32Array(pk.count);
        for (let i = 0; i < pk.count; i++) {
          acc[0] = 0;
          leg.srcs.forEach((src, k) => {
            decodeToF32(
              plan.dtype,
              buf(src.ref.rank, src.ref.buffer),
              (src.ref.elem + pk.start + i) * eb,
              1,
              x,
              0,
            );
            const v = x[0]!;
            const a = acc[0]!;
            if (alu === "fma") acc[0] = fmaF32(v, sourceScale(src), a);
            else if (alu === "add")
              acc[0] = k === 0 ? v : a + v; // the engine starts ADD from −0: −0 + v = v
            else if (alu === "max") acc[0] = k === 0 ? v : Math.max(a, v);
            else acc[0] = k === 0 ? v : Math.min(a, v);
          });
          sums[i] = acc[0]!;
        }
        encodeFromF32(plan.dtype, sums, 0, pk.count, out, 0, rounding, opts.overflow);
      }
      for (const d of leg.dsts) buf(d.rank, d.buffer).set(out, (d.elem + pk.start) * eb);
    }
  }
  return ranks;
}
