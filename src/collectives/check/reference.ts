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
        // Source by source over the packet, each element's sum in source order as the engine
        // takes them (−0 + v = v for ADD's first; FMA from +0): a packet's sources decoded at once,
        // not an element at a time (a 5-rank fp32 2 MiB check took 1.5–3 s).
        const sums = new Float32Array(pk.count);
        const x = new Float32Array(pk.count);
        leg.srcs.forEach((src, k) => {
          decodeToF32(
            plan.dtype,
            buf(src.ref.rank, src.ref.buffer),
            (src.ref.elem + pk.start) * eb,
            pk.count,
            x,
            0,
          );
          const scale = sourceScale(src);
          for (let i = 0; i < pk.count; i++) {
            const v = x[i]!;
            const a = sums[i]!;
            if (alu === "fma") sums[i] = fmaF32(v, scale, a);
            else if (k === 0) sums[i] = v;
            else if (alu === "add") sums[i] = a + v;
            else if (alu === "max") sums[i] = Math.max(a, v);
            else sums[i] = Math.min(a, v);
          }
        });
        encodeFromF32(plan.dtype, sums, 0, pk.count, out, 0, rounding, opts.overflow);
      }
      for (const d of leg.dsts) buf(d.rank, d.buffer).set(out, (d.elem + pk.start) * eb);
    }
  }
  return ranks;
}
