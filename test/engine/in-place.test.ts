// The engine reduces in place where it can (sources read and the result encoded straight into
// device memory, which lives in WebAssembly arenas: page-arenas.ts). These cases pin that every
// placement — overlapping, across page boundaries, across arenas — gives the reference bits.
import { describe, expect, it } from "vitest";
import { Device, HBM_BASE } from "../../src/engine/index.js";
import { Dtype, dtypeBytes } from "../../src/spec/index.js";
import { bytesOf } from "./helpers/operands.js";
import { ccePacket, type Op, QueueWriter } from "./helpers/packets.js";
import { reference } from "./helpers/reference.js";

const RING_TX = HBM_BASE + 0x100000n;
const RING_RX = HBM_BASE + 0x200000n;
const MIB = 1n << 20n;
const N = 1000;

/**
 * Reduce three sources at `at` into `dest` and compare with the numerics reference of the bytes the
 * sources held before the packet ran.
 */
function check(op: Op, inDt: Dtype, outDt: Dtype, at: readonly bigint[], dest: bigint, fillArena = 0) {
  const dev = new Device("trn2");
  const w = new QueueWriter(dev, 0, 0, RING_TX, RING_RX, 32);
  const len = N * dtypeBytes(inDt);
  // Values in a narrow range so that bf16 bytes stay finite-ish; NaNs and infs are fine too.
  const srcs = at.map((a, i) => {
    const b = bytesOf(len, 7 + i);
    dev.memory.write(a, b);
    return b;
  });
  // Touch other pages until the first arena is full: the destination page then lands in another.
  for (let p = 0; p < fillArena; p++)
    dev.memory.write(HBM_BASE + 0x4000_0000n + BigInt(p) * MIB, Uint8Array.of(1));
  w.post(ccePacket({ op, sources: [...at], elements: N, inDt, outDt, dest }));
  const r = dev.run();
  expect(r.faults).toEqual([]);
  expect(dev.memory.read(dest, N * dtypeBytes(outDt))).toEqual(
    reference({ op, sources: srcs, elements: N, inDt, outDt }),
  );
}

const A = HBM_BASE + 0x100_0000n;
const B = A + 0x10000n;
const C = A + 0x20000n;

describe("in-place reduce placements give the reference bits", () => {
  it.each([
    ["bf16 → bf16", Dtype.BFLOAT16, Dtype.BFLOAT16],
    ["fp32 → fp32", Dtype.FP32, Dtype.FP32],
    ["bf16 → fp32", Dtype.BFLOAT16, Dtype.FP32],
    ["fp32 → bf16", Dtype.FP32, Dtype.BFLOAT16],
    ["fp8_e4 → bf16", Dtype.FP8_E4, Dtype.BFLOAT16],
  ] as const)(
    "%s: apart, dest = last source, dest = first source, dest inside a source",
    (_, inDt, outDt) => {
      for (const op of ["add", "max"] as const) {
        check(op, inDt, outDt, [A, B, C], A + 0x80000n);
        check(op, inDt, outDt, [A, B, C], C);
        check(op, inDt, outDt, [A, B, C], A);
        check(op, inDt, outDt, [A, B, C], C + 6n);
      }
    },
  );

  it("a source and the destination across a page boundary (copied, not in place)", () => {
    const edge = A + MIB - 100n;
    check("add", Dtype.BFLOAT16, Dtype.BFLOAT16, [edge, B, C], A + 2n * MIB - 300n);
  });

  it("sources in the first arena, the destination in the next", () => {
    check("add", Dtype.FP32, Dtype.BFLOAT16, [A, B, C], A + 0x80000n, 20);
  });

  it("one source, every op: NaNs canonical, like the reference", () => {
    for (const op of ["add", "min", "max"] as const) check(op, Dtype.BFLOAT16, Dtype.BFLOAT16, [A], B);
  });
});
