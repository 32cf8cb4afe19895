/**
 * End to end (descriptor bytes → ring → engine → memory) against the direct numerics reference,
 * for every op × input dtype × output dtype × accumulation dtype, with and without stochastic
 * rounding, then the source counts and sizes of the issue, then the element edges.
 */
import { describe, expect, it } from "vitest";
import { Device, HBM_BASE } from "../../src/engine/index.js";
import { SrStream } from "../../src/numerics/index.js";
import { Dtype, dtypeBytes, dtypeName } from "../../src/spec/index.js";
import { ccePacket, type Op, QueueWriter } from "./helpers/packets.js";
import { reference } from "./helpers/reference.js";

const OPS: Op[] = ["add", "fma", "min", "max"];
const ALL_DTYPES = Array.from({ length: 15 }, (_, i) => (i + 1) as Dtype);
const RING_TX = HBM_BASE + 0x10_0000n;
const RING_RX = HBM_BASE + 0x20_0000n;
const DATA = HBM_BASE + 0x100_0000n;
const SRC_STRIDE = 0x2_0000n;
const GUARD = 32;

function randomBytes(n: number, rng: SrStream): Uint8Array {
  const b = new Uint8Array(n);
  for (let i = 0; i < n; i++) b[i] = rng.nextU32() & 0xff;
  return b;
}

interface Case {
  op: Op;
  inDt: Dtype;
  outDt: Dtype;
  accumDt: Dtype;
  sources: number;
  elements: number;
  seed?: number;
}

/** Run cases one packet at a time on one queue, each destination fenced by guard bytes. */
function runCases(cases: readonly Case[], arch = "trn2"): void {
  const dev = new Device(arch);
  const w = new QueueWriter(dev, 1, 3, RING_TX, RING_RX, 256);
  const rng = new SrStream(12345);
  for (const c of cases) {
    const srcs = Array.from({ length: c.sources }, () => randomBytes(c.elements * dtypeBytes(c.inDt), rng));
    srcs.forEach((s, i) => {
      dev.memory.write(DATA + BigInt(i) * SRC_STRIDE, s);
    });
    const scales = srcs.map((_, i) => [0.5, -1.25, 3, 2 ** -20][i % 4] as number);
    const outBytes = c.elements * dtypeBytes(c.outDt);
    const dst = DATA + 0x100_0000n;
    dev.memory.write(dst - BigInt(GUARD), new Uint8Array(outBytes + 2 * GUARD).fill(0x5a));
    w.post(
      ccePacket({
        op: c.op,
        sources: srcs.map((_, i) => DATA + BigInt(i) * SRC_STRIDE),
        elements: c.elements,
        inDt: c.inDt,
        accumDt: c.accumDt,
        outDt: c.outDt,
        dest: dst,
        scales,
        ...(c.seed === undefined ? {} : { seed: c.seed }),
      }),
    );
    const r = dev.run();
    const label = `${c.op} ${dtypeName(c.inDt)}→${dtypeName(c.outDt)} acc ${dtypeName(c.accumDt)} ×${c.sources} n=${c.elements}${c.seed === undefined ? "" : " sr"}`;
    expect(
      r.faults.map((f) => f.message),
      label,
    ).toEqual([]);
    expect(r.events, label).toHaveLength(1);
    const got = dev.memory.read(dst - BigInt(GUARD), outBytes + 2 * GUARD);
    const want = reference({
      op: c.op,
      sources: srcs,
      elements: c.elements,
      inDt: c.inDt,
      outDt: c.outDt,
      scales,
      ...(c.seed === undefined ? {} : { seed: c.seed }),
    });
    expect(Buffer.from(got.subarray(GUARD, GUARD + outBytes)).equals(want), label).toBe(true);
    expect(
      got.subarray(0, GUARD).every((b) => b === 0x5a),
      `${label}: byte written before the destination`,
    ).toBe(true);
    expect(
      got.subarray(GUARD + outBytes).every((b) => b === 0x5a),
      `${label}: byte written after the destination`,
    ).toBe(true);
  }
}

describe("op × dtype × accumulation × rounding", () => {
  for (const op of OPS) {
    it(`${op}: every input dtype to itself, fp32, bf16 and fp8_e4, accumulating in fp32 and bf16, RNE and SR`, () => {
      const cases: Case[] = [];
      for (const inDt of ALL_DTYPES)
        for (const outDt of new Set([inDt, Dtype.FP32, Dtype.BFLOAT16, Dtype.FP8_E4]))
          for (const accumDt of [Dtype.FP32, Dtype.BFLOAT16])
            for (const seed of [undefined, 7])
              cases.push({
                op,
                inDt,
                outDt,
                accumDt,
                sources: 2,
                elements: 37,
                ...(seed === undefined ? {} : { seed }),
              });
      runCases(cases);
    });
  }
});

describe("source counts × sizes", () => {
  const SIZES = [1, 2, 511, 4096, 65536];
  for (const op of OPS) {
    it(`${op}: 1, 2, 16, 32 sources × ${SIZES.join(", ")} bytes (fp8_e4 and bf16 in, RNE and SR)`, () => {
      const cases: Case[] = [];
      for (const sources of [1, 2, 16, 32])
        for (const size of SIZES)
          for (const inDt of [Dtype.FP8_E4, Dtype.BFLOAT16])
            for (const seed of [undefined, 99]) {
              const elements = Math.floor(size / dtypeBytes(inDt));
              if (elements === 0) continue;
              cases.push({
                op,
                inDt,
                outDt: inDt,
                accumDt: Dtype.FP32,
                sources,
                elements,
                ...(seed === undefined ? {} : { seed }),
              });
            }
      runCases(cases);
    });
  }
});

describe("element edges", () => {
  it.each(["trn1", "trn2", "trn3"])(
    "%s: max CCE elements and one either side, fp32 (descriptor lengths exact)",
    (arch) => {
      const max = new Device(arch).profile.maxCceElements;
      runCases(
        [max - 1, max, max + 1].map((elements) => ({
          op: "add" as Op,
          inDt: Dtype.FP32,
          outDt: Dtype.FP32,
          accumDt: Dtype.FP32,
          sources: 2,
          elements,
        })),
        arch,
      );
    },
  );
  it("65536 one-byte elements: the largest descriptor (length written as 0)", () => {
    runCases([
      { op: "max", inDt: Dtype.UINT8, outDt: Dtype.UINT8, accumDt: Dtype.FP32, sources: 2, elements: 65536 },
    ]);
  });
});
