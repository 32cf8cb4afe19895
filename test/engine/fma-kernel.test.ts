// A two-source FMA packet with plain operands (input · scale + stored) reaches the numerics
// two-source kernel `fma2_<dt>` — one pass, no accumulator — and gives the reference bits: in
// place, with a source outside the destination's arena (read into its scratch first), and with SR.
import { describe, expect, it } from "vitest";
import { Device, HBM_BASE } from "../../src/engine/index.js";
import { wasmKernelsRun } from "../../src/numerics/index.js";
import { Dtype, dtypeBytes } from "../../src/spec/index.js";
import { bytesOf } from "./helpers/operands.js";
import { ccePacket, QueueWriter } from "./helpers/packets.js";
import { reference } from "./helpers/reference.js";

const N = 1000;
const A = HBM_BASE + 0x100_0000n;
const B = A + 0x10_0000n;
const MIB = 1n << 20n;

/**
 * Run one FMA packet of `dt`: the kernels it ran. With `fillArena`, the first arena is filled after
 * A is written, so B's page and the destination's (when written after) land in the next arena.
 */
function fmaPacket(
  dt: Dtype,
  dest: bigint,
  opts: { fillArena?: number; touchDest?: boolean; seed?: number; sel?: [number, number, number] } = {},
) {
  const dev = new Device("trn2");
  const w = new QueueWriter(dev, 0, 0, HBM_BASE + 0x100000n, HBM_BASE + 0x200000n, 32);
  const len = N * dtypeBytes(dt);
  const sources = [bytesOf(len, 3), bytesOf(len, 11)];
  dev.memory.write(A, sources[0] as Uint8Array);
  if (opts.touchDest) dev.memory.write(B, sources[1] as Uint8Array);
  for (let p = 0; p < (opts.fillArena ?? 0); p++)
    dev.memory.write(HBM_BASE + 0x4000_0000n + BigInt(p) * MIB, Uint8Array.of(1));
  if (opts.touchDest) dev.memory.write(dest, Uint8Array.of(0));
  else dev.memory.write(B, sources[1] as Uint8Array);
  const scales = [0.5, -3.25];
  const req = { op: "fma", sources: [A, B], elements: N, inDt: dt, outDt: dt, dest, scales } as const;
  w.post(
    ccePacket({
      ...req,
      ...(opts.seed === undefined ? {} : { seed: opts.seed }),
      ...(opts.sel ? { sel: opts.sel } : {}),
    }),
  );
  let faults = -1;
  const kernels = wasmKernelsRun(() => {
    faults = dev.run().faults.length;
  });
  expect(faults).toBe(0);
  const want = reference({ ...req, sources, ...(opts.seed === undefined ? {} : { seed: opts.seed }) });
  return { kernels, got: dev.memory.read(dest, len), want };
}

describe("engine FMA through the two-source kernel", () => {
  it.each([
    ["bf16", Dtype.BFLOAT16, "fma2_bf16"],
    ["fp32", Dtype.FP32, "fma2_fp32"],
    ["fp8_e4", Dtype.FP8_E4, "fma2_fp8_e4"],
  ] as const)("%s: one fma2 kernel, the reference bits", (_, dt, kernel) => {
    const { kernels, got, want } = fmaPacket(dt, A + 0x80000n);
    expect(kernels).toEqual([kernel]);
    expect(got).toEqual(want);
  });

  it("in place on the first source; with one or both sources outside the destination's arena", () => {
    for (const r of [
      fmaPacket(Dtype.BFLOAT16, A),
      fmaPacket(Dtype.BFLOAT16, B + 0x80000n, { fillArena: 20 }),
      fmaPacket(Dtype.BFLOAT16, A + 0x200_0000n, { fillArena: 20, touchDest: true }),
    ]) {
      expect(r.kernels).toEqual(["fma2_bf16"]);
      expect(r.got).toEqual(r.want);
    }
  });

  it("stochastic rounding runs fma2_<dt>_srw with the packet's seed's words (drawn once a seed)", () => {
    const r = fmaPacket(Dtype.BFLOAT16, A + 0x80000n, { seed: 42 });
    expect(r.kernels).toEqual(["fma2_bf16_srw"]);
    expect(r.got).toEqual(r.want);
  });

  it("general operand selectors do not take the two-source kernel", () => {
    const r = fmaPacket(Dtype.FP32, A + 0x80000n, { sel: [0, 2, 1] });
    expect(r.kernels).not.toContain("fma2_fp32");
  });
});
