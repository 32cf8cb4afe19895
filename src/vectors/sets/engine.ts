/**
 * The `engine` set: the simulated device from what the host leaves it — memory before (ring bytes
 * and data) and the register writes (ring programming, doorbells) — to memory after, the semaphores,
 * the executed packets, or the named fault (and a faulting packet changes nothing: its destination
 * is pre-filled and read back). Cases are made by the runtime's builders on a recording device, so
 * every ring byte is one libnrt would write. A group is a packet kind (copy, cce); `count` random
 * packets each.
 */
import { f32ToBits, fromHex, hex32, toHex } from "../../bits/index.js";
import { Device, semaphoreAddress } from "../../engine/index.js";
import { archProfile as archOf } from "../../hal/index.js";
import { OVERFLOW_POLICIES, type OverflowPolicy } from "../../numerics/index.js";
import { addDmaPacket } from "../../runtime/index.js";
import {
  CCE_RX_RING,
  CCE_SOURCE_STRIDE,
  CCE_SOURCES,
  CCE_TX_RING,
  type CceCase,
  postCce,
  queueVring,
} from "../cce-device.js";
import type { CaseInput, Json, JsonSchema, VectorRng, VectorSet } from "../vector-set.js";

interface Region {
  readonly addr: string;
  readonly hex: string;
}
interface EngineCase {
  readonly arch: string;
  readonly overflow: OverflowPolicy;
  readonly memory: readonly Region[];
  readonly writes: readonly { readonly addr: string; readonly value: string }[];
  readonly watch: readonly { readonly addr: string; readonly bytes: number }[];
}

const hex = (n: bigint | number) => `0x${n.toString(16)}`;
const RING_BYTES = 16 * 16;
/** What a destination holds before a case: a packet that faults must leave it so. */
const UNTOUCHED = 0xee;

/** Capture a recording device's host side (ring bytes, data regions, register writes); its memory is released. */
function capture(
  dev: Device,
  data: readonly { addr: bigint; bytes: number }[],
  watch: readonly { addr: bigint; bytes: number }[],
  edit?: (ring: Uint8Array) => void,
): EngineCase {
  const tx = dev.memory.read(CCE_TX_RING, RING_BYTES);
  edit?.(tx);
  const memory: Region[] = [
    { addr: hex(CCE_TX_RING), hex: toHex(tx) },
    { addr: hex(CCE_RX_RING), hex: toHex(dev.memory.read(CCE_RX_RING, RING_BYTES)) },
    ...data.map((d) => ({ addr: hex(d.addr), hex: toHex(dev.memory.read(d.addr, d.bytes)) })),
    ...watch.map((w) => ({ addr: hex(w.addr), hex: toHex(new Uint8Array(w.bytes).fill(UNTOUCHED)) })),
  ];
  const writes = dev.regs.writesSince().map((w) => ({ addr: hex(w.addr), value: hex(w.value) }));
  dev.memory.release(); // the case is captured: the next case's device reuses the arena
  return {
    arch: dev.profile.name,
    overflow: dev.overflow,
    memory,
    writes,
    watch: watch.map((w) => ({ addr: hex(w.addr), bytes: w.bytes })),
  };
}

/** A device that logs its register writes (what the host did, replayed by `run`). */
function recorder(arch: string, overflow: OverflowPolicy = "nan"): Device {
  return new Device(arch, { overflow, registerLog: 4096 });
}

/** A copy; `watched` false for a destination that is a register window (no fill, no read back). */
function copyCase(
  arch: string,
  data: Uint8Array,
  dst: bigint,
  edit?: (ring: Uint8Array) => void,
  src = CCE_SOURCES,
  watched = true,
): EngineCase {
  const dev = recorder(arch);
  dev.memory.write(CCE_SOURCES, data);
  addDmaPacket(queueVring(dev), { src, dst, size: data.length });
  return capture(
    dev,
    [{ addr: CCE_SOURCES, bytes: data.length }],
    watched ? [{ addr: dst, bytes: data.length }] : [],
    edit,
  );
}

/** A CCE case through the runtime (cce-device.ts), captured before it runs. */
function cceCase(c: CceCase, edit?: (ring: Uint8Array) => void): EngineCase {
  const dev = recorder(c.arch, c.overflow);
  const posted = postCce(c, dev);
  if ("refused" in posted) throw new Error(`engine vectors: ${posted.refused}`);
  const data = c.sources.map((_, i) => ({
    addr: CCE_SOURCES + BigInt(i) * CCE_SOURCE_STRIDE,
    bytes: posted.size,
  }));
  return capture(dev, data, [{ addr: posted.dest, bytes: posted.outBytes }], edit);
}

const BYTES_64 = Uint8Array.from({ length: 64 }, (_, i) => i);
const DST = CCE_SOURCES + 0x100000n;
const BF16_ONES = ["3f80", "4000", "c040", "7f80", "0001", "8000", "7fc1", "3f81"];
const ADD_91: CceCase = {
  arch: "trn2",
  op: "add",
  inDtype: "bf16",
  accumDtype: "fp32",
  outDtype: "bf16",
  overflow: "nan",
  sources: [BF16_ONES, BF16_ONES, BF16_ONES],
};

/** Set bits of the little-endian word at byte `at` of the TX ring (a corrupted descriptor). */
const orWord = (at: number, bits: number) => (ring: Uint8Array) => {
  const v = new DataView(ring.buffer, ring.byteOffset);
  v.setUint32(at, (v.getUint32(at, true) | bits) >>> 0, true);
};

function edgeCases(): [string, () => EngineCase, readonly string[]][] {
  return [
    ["copy/64", () => copyCase("trn2", BYTES_64, DST), ["Doorbell = drtp_inc writes"]],
    [
      "copy/semaphore-increment",
      () =>
        copyCase(
          "trn2",
          Uint8Array.of(3, 0, 0, 0),
          semaphoreAddress(archOf("trn2"), 2, "increment", 7),
          undefined,
          CCE_SOURCES,
          false,
        ),
      ["Event block +0x2700000"],
    ],
    ["cce/add-9.1", () => cceCase(ADD_91), []],
    ["cce/add-9.1/trn1", () => cceCase({ ...ADD_91, arch: "trn1" }), []],
    ["cce/add-9.1/trn3", () => cceCase({ ...ADD_91, arch: "trn3" }), []],
    [
      "cce/fma",
      () => cceCase({ ...ADD_91, op: "fma", scales: ["0x3f000000", "0x3f000000", "0xbf800000"] }),
      [],
    ],
    [
      "cce/min-constant",
      () => cceCase({ ...ADD_91, op: "min", constant: hex32(f32ToBits(1.5)) }),
      ["MIN/MAX constant sub-descriptor W1 0x6000000"],
    ],
    [
      "cce/max-fp8-satfinite",
      () => cceCase({ ...ADD_91, op: "max", outDtype: "fp8_e4", overflow: "satfinite" }),
      [],
    ],
    ["cce/add-sr", () => cceCase({ ...ADD_91, srSeed: 7 }), []],
    ["fault/unmapped-source", () => copyCase("trn2", BYTES_64, DST, undefined, 0x7000_0000_0000n), []],
    ["fault/stale-ring-id", () => copyCase("trn2", BYTES_64, DST, orWord(0, 3 << 24)), []],
    ["fault/bad-meta-op", () => copyCase("trn2", BYTES_64, DST, orWord(4, 7 << 23)), []],
    ["fault/cce-bad-meta-op", () => cceCase(ADD_91, orWord(4, 7 << 23)), []],
  ];
}

const DTYPES = ["bf16", "fp16", "fp32", "fp8_e4", "fp8_e5", "int8", "int32"] as const;
const WIDTH: Readonly<Record<string, number>> = {
  bf16: 2,
  fp16: 2,
  fp32: 4,
  fp8_e4: 1,
  fp8_e5: 1,
  int8: 1,
  int32: 4,
};

function randomCce(rng: VectorRng): CceCase {
  const inDtype = rng.pick(DTYPES);
  const n = 1 + rng.below(32);
  const code = () => toHex(rng.bytes(WIDTH[inDtype] as number));
  const sources = Array.from({ length: 1 + rng.below(4) }, () => Array.from({ length: n }, code));
  const op = rng.pick(["add", "fma", "min", "max"] as const);
  const scales = op === "fma" ? { scales: sources.map(() => hex32(f32ToBits((rng.below(16) - 8) / 4))) } : {};
  return {
    arch: rng.pick(["trn1", "trn2", "trn3"]),
    op,
    inDtype,
    accumDtype: "fp32",
    outDtype: rng.pick(DTYPES),
    overflow: rng.pick(OVERFLOW_POLICIES),
    sources,
    ...scales,
  };
}

function* inputs(count: number, rng: VectorRng): Iterable<CaseInput> {
  for (const [id, make, pins] of edgeCases()) yield { id, pins, input: make() as unknown as Json };
  for (let i = 0; i < count; i++)
    yield {
      id: `copy/random/${i}`,
      input: copyCase(
        rng.pick(["trn1", "trn2", "trn3"]),
        rng.bytes(1 + rng.below(4096)),
        DST,
      ) as unknown as Json,
    };
  for (let i = 0; i < count; i++)
    yield { id: `cce/random/${i}`, input: cceCase(randomCce(rng)) as unknown as Json };
}

function run(input: Json): Json {
  const c = input as unknown as EngineCase;
  const dev = new Device(c.arch, { overflow: c.overflow });
  for (const r of c.memory) dev.memory.write(BigInt(r.addr), fromHex(r.hex));
  for (const w of c.writes) dev.regs.write32(BigInt(w.addr), Number(w.value));
  const report = dev.run();
  const semaphores: { block: number; index: number; value: number }[] = [];
  for (const [block, b] of [...dev.semaphores].sort(([a], [z]) => a - z)) {
    for (const [index, value] of b.values.entries())
      if (value !== 0) semaphores.push({ block, index, value });
  }
  const memory = c.watch.map((w) => ({ addr: w.addr, hex: toHex(dev.memory.read(BigInt(w.addr), w.bytes)) }));
  // A device a case, thousands a check: released, the next one reuses its arena, where a new
  // WebAssembly memory each kept the collector busy.
  dev.memory.release();
  return {
    memory,
    semaphores,
    packets: report.events.map((e) => ({
      engine: e.engine,
      queue: e.queue,
      kind: e.kind,
      ...(e.op === undefined ? {} : { op: e.op }),
      descriptors: e.descriptors,
      bytesRead: e.bytesRead,
      bytesWritten: e.bytesWritten,
    })),
    faults: report.faults.map((f) => f.message),
    stalls: report.stalls.map((s) => ({ engine: s.engine, queue: s.queue, reason: s.reason })),
  };
}

const ADDR = { type: "string", pattern: "^0x[0-9a-f]+$", description: "A device byte address." } as const;
const REGION = {
  type: "object",
  required: ["addr", "hex"],
  properties: {
    addr: ADDR,
    hex: { type: "string", pattern: "^([0-9a-f]{2})*$", description: "Bytes from addr on, in memory order." },
  },
} as const;

const inputSchema: JsonSchema = {
  type: "object",
  required: ["arch", "overflow", "memory", "writes", "watch"],
  properties: {
    arch: { enum: ["trn1", "trn2", "trn3"] },
    overflow: {
      enum: [...OVERFLOW_POLICIES],
      description: "The device's narrow-float overflow (MODEL; the engine's default is nan).",
    },
    memory: {
      type: "array",
      items: REGION,
      description:
        "Memory before, written first: the TX (M2S) ring of engine 0 queue 0, its RX (S2M) ring (16-byte descriptors, 16 slots shown), the source data, and each watched destination pre-filled with 0xee.",
    },
    writes: {
      type: "array",
      description:
        "32-bit register writes in order, after the memory: each ring's set-up as the public driver's udma_m2m_init_queue writes it (M2S then S2M: rlimit mask, cfg paused, q_sw_ctrl reset, drbp_lo / drbp_hi, drl, comp_cfg, cfg enabled), then the doorbells (drtp_inc, RX queue first). Addresses per src/spec/udma-regs.ts (aws-neuron-driver udma_regs.h: M2S queue q at 0x1000 + q·0x1000, S2M at 0x21000 + q·0x1000, drtp_inc at +0x38).",
      items: { type: "object", required: ["addr", "value"], properties: { addr: ADDR, value: ADDR } },
    },
    watch: {
      type: "array",
      description: "The regions read back after the run.",
      items: {
        type: "object",
        required: ["addr", "bytes"],
        properties: { addr: ADDR, bytes: { type: "integer", minimum: 1 } },
      },
    },
  },
};

const expectSchema: JsonSchema = {
  type: "object",
  required: ["memory", "semaphores", "packets", "faults", "stalls"],
  properties: {
    memory: {
      type: "array",
      items: REGION,
      description: "Each watched region after the run (a faulting packet leaves the 0xee fill).",
    },
    semaphores: {
      type: "array",
      description:
        "Every non-zero event-block semaphore: block (NeuronCore, or 8 + TopSP j), index 0..255, value.",
      items: { type: "object", required: ["block", "index", "value"] },
    },
    packets: {
      type: "array",
      description:
        "Each executed packet in order: engine, queue, kind (copy / cce / …), CCE op, descriptors consumed, bytes read and written (no times: timing is not part of the vectors).",
    },
    faults: {
      type: "array",
      items: { type: "string" },
      description: "The named faults: queue, ring, slot and why.",
    },
    stalls: {
      type: "array",
      description: "Queues left with posted work they cannot consume (a stale ring_id), and why.",
    },
  },
};

export const ENGINE_SET: VectorSet = {
  name: "engine",
  doc: "The simulated device from memory and register writes: a copy, a copy into a semaphore window, the §9.1 ADD on each arch, FMA, MIN with a constant, MAX into fp8 with satfinite, SR, then the faults (an unmapped source, a stale ring_id, a bad meta op) whose destinations stay as they were; then per packet kind (the group) `count` random packets.",
  inputSchema,
  expectSchema,
  *inputs({ count }, rng) {
    yield* inputs(count, rng);
  },
  run,
};
