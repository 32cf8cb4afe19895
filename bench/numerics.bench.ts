// Numerics: a two-source reduce over 16 Mi elements a source, in one WasmArena (where the engine
// keeps device memory), as bench/harness.ts times it: CPU time ÷ a warm copy of the two sources'
// bytes. The target rows are issue 13's; each runs through aluReduceEncoded (one pass, what a
// whole-array reduce costs) and, for bf16, through the steps the engine runs per ≤ 2048-element
// packet (aluLoadEncoded + aluApplyEncodedThenEncode). Every two-source row runs one kernel
// (`<op>2_<dt>[_sr]`). The "JS loops" rows are the same reduce with the wasm kernels switched off
// (useWasmKernels(false)): the path every dtype but bf16 / FP32 took before issue 13.

import {
  aluApplyEncodedThenEncode,
  aluLoadEncoded,
  aluReduceEncoded,
  type EncodedSource,
} from "../src/numerics/alu.js";
import {
  type AluOp,
  encodeFromF32,
  RNE,
  type Rounding,
  reduceScratchBytes,
  reserveReduceScratch,
  SrStream,
  WasmArena,
} from "../src/numerics/index.js";
import { useWasmKernels } from "../src/numerics/wasm/kernels.js";
import { Dtype, dtypeBytes, dtypeName } from "../src/spec/dtype.js";
import { type BenchRow, ratioRow } from "./harness.js";

const ELEMENTS = 1 << 24;
/** The accumulator block of aluReduceEncoded (64 KiB) and the engine's largest packet. */
const BLOCK = 1 << 14;
const PACKET = 2048;

interface Reduce {
  readonly sources: readonly EncodedSource[];
  readonly acc: Float32Array;
  readonly scratch: Float32Array;
  readonly out: Uint8Array;
  readonly inputBytes: number;
}

/**
 * Two sources of `dt` holding smooth, varied values (no NaN, no overflow), acc and out, in one
 * arena that starts with a reduce scratch block, as device memory's arenas do (acc and scratch are
 * its accumulator and decode scratch; SR keeps a seed's words there: wasm/sr-words.ts).
 */
function reduceIn(dt: Dtype): Reduce {
  const width = dtypeBytes(dt);
  const bytes = ELEMENTS * width;
  // Sources from the next 4 KiB boundary after the block, as device memory's pages start.
  const base = Math.ceil(reduceScratchBytes(BLOCK, 16) / 4096) * 4096;
  const arena = new WasmArena(base + 3 * bytes);
  reserveReduceScratch(arena, BLOCK, 16);
  const values = new Float32Array(ELEMENTS);
  const sources = [0, 1].map((k) => {
    for (let i = 0; i < ELEMENTS; i++) values[i] = Math.sin(i * 0.001 + k) * 100;
    const view = arena.u8(base + k * bytes, bytes);
    encodeFromF32(dt, values, 0, ELEMENTS, view, 0);
    return { dt, bytes: view, byteOffset: 0, scale: k === 0 ? 0.5 : 0.25 };
  });
  const out = arena.u8(base + 2 * bytes, bytes);
  out.fill(1); // warm, as the copy's destination is
  return {
    sources,
    acc: arena.f32(0, BLOCK),
    scratch: arena.f32(4 * BLOCK, BLOCK),
    out,
    inputBytes: 2 * bytes,
  };
}

function reduceRow(
  name: string,
  target: string,
  dt: Dtype,
  op: AluOp,
  rounding: () => Rounding,
  wasm = true,
): BenchRow {
  const r = reduceIn(dt);
  const runs = wasm ? undefined : 1; // the JS loops take seconds a run: one pair is enough to compare
  return ratioRow(
    name,
    target,
    r.inputBytes,
    () => {
      useWasmKernels(wasm);
      aluReduceEncoded(op, r.acc, r.sources, ELEMENTS, r.scratch, dt, r.out, 0, rounding());
      useWasmKernels(true);
    },
    `${ELEMENTS >> 20} Mi elements of ${dtypeName(dt)} a source`,
    runs,
  );
}

/** The engine's per-packet steps over the same reduce, one ≤ 2048-element packet at a time. */
function packetRow(name: string, dt: Dtype): BenchRow {
  const r = reduceIn(dt);
  const [a, b] = r.sources as [EncodedSource, EncodedSource];
  const width = dtypeBytes(dt);
  return ratioRow(
    name,
    "",
    r.inputBytes,
    () => {
      for (let done = 0; done < ELEMENTS; done += PACKET) {
        aluLoadEncoded(r.acc, dt, a.bytes, done * width, PACKET);
        aluApplyEncodedThenEncode(
          "add",
          r.acc,
          dt,
          b.bytes,
          done * width,
          PACKET,
          r.scratch,
          dt,
          r.out,
          done * width,
        );
      }
    },
    `${ELEMENTS / PACKET} packets of ${PACKET} elements`,
  );
}

/**
 * A two-source reduce the way the engine runs it: one aluReduceEncoded a 2048-element packet; with
 * SR every packet first reseeds the queue's stream from its seed-init descriptor (one seed a queue).
 * The SR row less the RNE one is what SR adds to an engine packet in numerics.
 */
function enginePacketRow(name: string, dt: Dtype, sr: boolean): BenchRow {
  const r = reduceIn(dt);
  const [a, b] = r.sources as [EncodedSource, EncodedSource];
  const width = dtypeBytes(dt);
  const stream = new SrStream(1);
  const rounding: Rounding = sr ? { mode: "sr", rng: stream } : RNE;
  const pa = { ...a };
  const pb = { ...b };
  const pair = [pa, pb];
  return ratioRow(
    name,
    sr ? "≤ 3" : "",
    r.inputBytes,
    () => {
      for (let done = 0; done < ELEMENTS; done += PACKET) {
        if (sr) stream.reseed(0x5eed);
        pa.byteOffset = done * width;
        pb.byteOffset = done * width;
        aluReduceEncoded("add", r.acc, pair, PACKET, r.scratch, dt, r.out, done * width, rounding);
      }
    },
    `${ELEMENTS / PACKET} packets of ${PACKET} elements${sr ? ", each reseeded" : ""}`,
  );
}

export default async function run(): Promise<BenchRow[]> {
  const sr = new SrStream(1);
  return [
    reduceRow("fp32 ADD, 2 sources", "", Dtype.FP32, "add", () => RNE),
    reduceRow("bf16 → fp32 → bf16 RNE ADD", "≤ 1.5", Dtype.BFLOAT16, "add", () => RNE),
    packetRow("bf16 RNE ADD, the engine's steps per 2048-element packet", Dtype.BFLOAT16),
    reduceRow("fp8_e4 → fp32 → fp8_e4 RNE ADD", "≤ 3", Dtype.FP8_E4, "add", () => RNE),
    reduceRow("fp32 fused FMA (0.5·s0 + 0.25·s1, one rounding each)", "≤ 2", Dtype.FP32, "fma", () => RNE),
    reduceRow("bf16 SR ADD (xoshiro128** in the kernel)", "≤ 3", Dtype.BFLOAT16, "add", () => ({
      mode: "sr",
      rng: sr,
    })),
    enginePacketRow("bf16 SR ADD per 2048-element packet, reseeded (the engine's SR)", Dtype.BFLOAT16, true),
    enginePacketRow(
      "bf16 RNE ADD per 2048-element packet (the engine's RNE, SR's twin)",
      Dtype.BFLOAT16,
      false,
    ),
    reduceRow("fp16 → fp32 → fp16 RNE ADD", "", Dtype.FP16, "add", () => RNE),
    reduceRow("fp8_e4 SR ADD", "", Dtype.FP8_E4, "add", () => ({ mode: "sr", rng: sr })),
    reduceRow("bf16 RNE MAX", "", Dtype.BFLOAT16, "max", () => RNE),
    reduceRow("fp8_e5 fused FMA → fp8_e5 RNE", "", Dtype.FP8_E5, "fma", () => RNE),
    reduceRow("int32 ADD", "", Dtype.INT32, "add", () => RNE),
    reduceRow("bf16 RNE ADD, JS loops (kernels off)", "", Dtype.BFLOAT16, "add", () => RNE, false),
    reduceRow("fp8_e4 RNE ADD, JS loops (kernels off)", "", Dtype.FP8_E4, "add", () => RNE, false),
  ];
}
