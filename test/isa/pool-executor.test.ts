import { describe, expect, it } from "vitest";
import { FieldError, isEinval } from "../../src/bits/index.js";
import { Device, semaphoreAddress } from "../../src/engine/index.js";
import { CAYMAN } from "../../src/hal/index.js";
import {
  encdDmaCopySb2sb,
  encdDmaReduceCopySb2sb,
  encodeS3d3,
  executeS3d3,
  type PatternName,
  postSb2sbLegs,
  resolveNeighbor,
  type S3d3Done,
  type S3d3Execution,
  type S3d3Word,
  SB2SB_MULTI_NODE_MESSAGE,
  type Sb2sbLeg,
  Sb2sbQueues,
  type Sb2sbRequest,
  sb2sbChannelQueue,
  sb2sbLegPackets,
  tensorOf,
} from "../../src/isa/index.js";
import { reducePacketBytes } from "../../src/runtime/index.js";
import { Dtype, EncdNeigh, SdmaCceType, sbufAddress } from "../../src/spec/index.js";
import { countsOf, type Triple, tensor, VALID_WORD, withPattern } from "./s3d3-fixtures.js";

// ---- an independent reference, computed from the word's fields alone -------------------------------

const PARTITION_BITS = 18;
const NO_EVENTS = {
  "events.wait_mode": 0,
  "events.wait_idx": 0,
  "events.update_mode": 0,
  "events.update_idx": 0,
  "events.semaphore_value": 0,
};

/** A pattern as the reference reads it: the immediate start word, strides and counts. */
interface Pattern {
  readonly start: number;
  readonly step: Triple;
  readonly count: Triple;
}
const patternOf = (w: S3d3Word, p: PatternName): Pattern => ({
  start: w[`${p}.start_addr.addr_immediate`],
  step: [w[`${p}.step_elem.0`], w[`${p}.step_elem.1`], w[`${p}.step_elem.2`]],
  count: countsOf(w, p),
});

/** The element offset of the n-th element a pattern visits: n = i + n0·(j + n1·k). */
function elementOffset(t: Pattern, n: number): number {
  const [n0, n1] = t.count;
  const i = n % n0;
  const j = Math.floor(n / n0) % n1;
  const k = Math.floor(n / (n0 * n1));
  return i * t.step[0] + j * t.step[1] + k * t.step[2];
}

function startOf(t: Pattern): { partition: number; byte: number } {
  return { partition: t.start >>> PARTITION_BITS, byte: t.start & ((1 << PARTITION_BITS) - 1) };
}

function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Combine = (src: Uint8Array, dst: Uint8Array) => Uint8Array;
const f32 = (b: Uint8Array) => new DataView(b.buffer, b.byteOffset, 4).getFloat32(0, true);
const f32Bytes = (v: number) => new Uint8Array(Float32Array.of(v).buffer);
const COPY: Combine = (s) => s;
const ADD_F32: Combine = (s, d) => f32Bytes(Math.fround(f32(s) + f32(d)));
const MAX_F32: Combine = (s, d) => f32Bytes(Math.max(f32(s), f32(d)));

/** The byte window of a pattern in its partition, with a 64-byte margin on each side (guards). */
function windowOf(t: Pattern, eb: number): { lo: number; hi: number } {
  const count = t.count[0] * t.count[1] * t.count[2];
  const offs = Array.from({ length: count }, (_, n) => elementOffset(t, n));
  const { byte } = startOf(t);
  return {
    lo: Math.max(0, byte + Math.min(...offs) * eb - 64),
    hi: byte + (Math.max(...offs) + 1) * eb + 64,
  };
}

/**
 * Fill every channel's source and destination windows with fp32-safe values (finite floats for fp32
 * words, random bytes otherwise), run the word, and compare every destination byte of every channel
 * with the reference (written elements = combine(src, old dst); everything else unchanged).
 */
function runAndCheck(
  word: S3d3Word,
  opts: { self: number; peer: number; reduceOp?: SdmaCceType; combine: Combine; seed: number },
): S3d3Done {
  const dev = new Device("trn2");
  const eb = word.in_dtype === Dtype.FP32 ? 4 : 2;
  const rand = mulberry32(opts.seed);
  const [sp, dp] = [patternOf(word, "src_mem_pattern"), patternOf(word, "dst_mem_pattern")];
  const src = startOf(sp);
  const dst = startOf(dp);
  const sw = windowOf(sp, eb);
  const dw = windowOf(dp, eb);
  const fill = (n: number) => {
    const out = new Uint8Array(n);
    for (let i = 0; i < n; i += 4) {
      const v =
        eb === 4 ? f32Bytes(Math.fround((rand() - 0.5) * 1000)) : new Uint8Array(4).map(() => rand() * 256);
      out.set(v.subarray(0, Math.min(4, n - i)), i);
    }
    return out;
  };
  const before: { src: Uint8Array; dst: Uint8Array }[] = [];
  for (let ch = 0; ch < word.num_active_channels; ch++) {
    const s = fill(sw.hi - sw.lo);
    const d = fill(dw.hi - dw.lo);
    dev.memory.write(sbufAddress(CAYMAN, opts.self, src.partition + ch, sw.lo), s);
    dev.memory.write(sbufAddress(CAYMAN, opts.peer, dst.partition + ch, dw.lo), d);
    before.push({ src: s, dst: d });
  }
  const r = executeS3d3(dev, encodeS3d3(word), {
    core: opts.self,
    ...(opts.reduceOp !== undefined && { reduceOp: opts.reduceOp }),
  });
  expect(r.status).toBe("done");
  const count = sp.count[0] * sp.count[1] * sp.count[2];
  for (let ch = 0; ch < word.num_active_channels; ch++) {
    const b = before[ch] as { src: Uint8Array; dst: Uint8Array };
    const expected = b.dst.slice();
    for (let n = 0; n < count; n++) {
      const so = src.byte + elementOffset(sp, n) * eb - sw.lo;
      const dOff = dst.byte + elementOffset(dp, n) * eb - dw.lo;
      expected.set(opts.combine(b.src.subarray(so, so + eb), b.dst.subarray(dOff, dOff + eb)), dOff);
    }
    const got = dev.memory.read(sbufAddress(CAYMAN, opts.peer, dst.partition + ch, dw.lo), dw.hi - dw.lo);
    expect(Buffer.from(got).equals(Buffer.from(expected)), `channel ${ch}`).toBe(true);
  }
  return r as S3d3Done;
}

/** A word moving `dtype` over `channels` from pattern `src` to `dst`, no events unless given. */
interface Move {
  readonly dtype?: number;
  readonly channels?: number;
  readonly src?: Tensor;
  readonly dst?: Tensor;
  readonly events?: Partial<S3d3Word>;
}
type Tensor = ReturnType<typeof tensor>;
const word = (m: Move): S3d3Word => {
  let w: S3d3Word = { ...VALID_WORD, ...NO_EVENTS, ...m.events };
  if (m.dtype !== undefined) w = { ...w, in_dtype: m.dtype, out_dtype: m.dtype };
  if (m.channels !== undefined) w = { ...w, num_active_channels: m.channels };
  if (m.src !== undefined) w = withPattern(w, "src_mem_pattern", m.src);
  if (m.dst !== undefined) w = withPattern(w, "dst_mem_pattern", m.dst);
  return w;
};
const imm = (partition: number, byte: number) => (partition << 18) | byte;

/** 8 × 4 × 2 fp32 elements: a strided source (every other element, rows 32 apart), a reversed destination. */
const STRIDED_REVERSED = word({
  dtype: Dtype.FP32,
  channels: 3,
  src: tensor(imm(4, 0x100), [2, 32, 200], [8, 4, 2]),
  dst: tensor(imm(6, 0x800), [-1, -8, -32], [8, 4, 2]),
});

describe("executeS3d3: SB2SB legs between the two cores of an LNC2 pair, on the engine", () => {
  it("copy: strided source → reversed destination, every element and every guard byte", () => {
    const r = runAndCheck(STRIDED_REVERSED, { self: 2, peer: 3, combine: COPY, seed: 1 });
    expect(r.legs.map((l) => [l.kind, l.srcCore, l.dstCore, l.partition])).toEqual([
      ["copy", 2, 3, 4],
      ["copy", 2, 3, 5],
      ["copy", 2, 3, 6],
    ]);
    // Reversed against ascending: no two elements are contiguous on both sides → one packet each.
    expect(r.posted[0]?.packets).toHaveLength(64);
    expect(r.engineEvents.filter((e) => e.kind === "copy")).toHaveLength(3 * 64);
  });

  it("copy: the partner direction (core 3 → core 2) and a transposing 3-D pattern", () => {
    const w = word({
      dtype: Dtype.BFLOAT16,
      channels: 2,
      src: tensor(imm(0, 0), [1, 16, 64], [16, 4, 4]),
      dst: tensor(imm(10, 0x40), [4, 1, 64], [16, 4, 4]),
    });
    runAndCheck(w, { self: 3, peer: 2, combine: COPY, seed: 2 });
  });

  it("reduce-copy ADD (fp32): dst = src + dst element by element, strided and reversed", () => {
    const r = runAndCheck(STRIDED_REVERSED, {
      self: 0,
      peer: 1,
      reduceOp: SdmaCceType.ADD,
      combine: ADD_F32,
      seed: 3,
    });
    expect(r.legs.every((l) => l.kind === "reduce-copy" && l.op === SdmaCceType.ADD)).toBe(true);
    expect(r.engineEvents.every((e) => e.kind === "cce" && e.op === "add" && e.sources === 2)).toBe(true);
  });

  it("reduce-copy MAX (fp32) with contiguous runs: one CCE packet per run", () => {
    const w = word({
      dtype: Dtype.FP32,
      channels: 4,
      src: tensor(imm(8, 0), [1, 64, 0], [32, 8, 1]),
      dst: tensor(imm(8, 0x4000), [1, 32, 0], [32, 8, 1]),
    });
    const r = runAndCheck(w, { self: 5, peer: 4, reduceOp: SdmaCceType.MAX, combine: MAX_F32, seed: 4 });
    expect(r.posted.map((p) => p.packets.length)).toEqual([8, 8, 8, 8]);
  });

  it("LNC1 is a self-copy on the issuing core", () => {
    const w = { ...STRIDED_REVERSED, lnc_size_fmt: 0, num_active_channels: 1 };
    const r = runAndCheck(w, { self: 6, peer: 6, combine: COPY, seed: 5 });
    expect(r.legs[0]?.dstCore).toBe(6);
  });
});

describe("the POOL decode = the host encoder (seed 002 §4.6)", () => {
  const request = (w: S3d3Word, self: number): Sb2sbRequest => ({
    neigh: resolveNeighbor(EncdNeigh.PEER_LOCAL, { self, ringSize: 8, lnc: 2 }),
    src: tensorOf(w, "src_mem_pattern"),
    dst: tensorOf(w, "dst_mem_pattern"),
    dtype: w.in_dtype,
    channels: w.num_active_channels,
    topology: { arch: CAYMAN, nodes: 1, place: { self, ringSize: 8, lnc: 2 } },
  });

  /** Post host-encoder legs on a fresh device and run it; the descriptors and the memory after. */
  function hostRun(legs: Sb2sbLeg[] | { status: number }, fill: (d: Device) => void) {
    if (!Array.isArray(legs)) throw new Error("expected legs");
    const dev = new Device("trn2");
    fill(dev);
    const q = new Sb2sbQueues(dev);
    const posted = postSb2sbLegs(q, legs);
    if (isEinval(posted)) throw new Error(posted.message);
    q.drain();
    return { dev, posted };
  }

  for (const reduceOp of [undefined, SdmaCceType.ADD]) {
    it(`${reduceOp === undefined ? "copy" : "reduce-copy"}: the same legs, descriptor bytes, queues and result`, () => {
      const w = STRIDED_REVERSED;
      const fill = (d: Device) => {
        for (let ch = 0; ch < 3; ch++) {
          const bytes = new Float32Array(512).map((_, i) => i * 0.25 - ch);
          d.memory.write(sbufAddress(CAYMAN, 2, 4 + ch, 0), new Uint8Array(bytes.buffer));
          d.memory.write(sbufAddress(CAYMAN, 3, 6 + ch, 0x400), new Uint8Array(bytes.buffer));
        }
      };
      const pool = new Device("trn2");
      fill(pool);
      const r = executeS3d3(pool, encodeS3d3(w), { core: 2, ...(reduceOp !== undefined && { reduceOp }) });
      if (r.status !== "done") throw new Error(`not done: ${r.status}`);
      const legs =
        reduceOp === undefined
          ? encdDmaCopySb2sb(request(w, 2))
          : encdDmaReduceCopySb2sb(request(w, 2), reduceOp);
      const host = hostRun(legs, fill);
      expect(r.legs).toEqual(legs);
      expect(r.posted.map((p) => p.queue)).toEqual(host.posted.map((p) => p.queue));
      expect(r.posted.map((p) => p.written.map((d) => Buffer.from(d.bytes).toString("hex")))).toEqual(
        host.posted.map((p) => p.written.map((d) => Buffer.from(d.bytes).toString("hex"))),
      );
      for (let ch = 0; ch < 3; ch++) {
        const at = sbufAddress(CAYMAN, 3, 6 + ch, 0);
        expect(pool.memory.read(at, 4096)).toEqual(host.dev.memory.read(at, 4096));
      }
    });
  }
});

describe("channels → queues (MODEL: engine core·16 + k mod 16, queue ⌊k / 16⌋)", () => {
  it("a 20-channel word posts one chain per channel, each on its own queue, all executed", () => {
    const w = word({
      channels: 20,
      src: tensor(imm(0, 0), [1, 0, 0], [64, 1, 1]),
      dst: tensor(imm(20, 0), [1, 0, 0], [64, 1, 1]),
    });
    const r = runAndCheck(w, { self: 1, peer: 0, combine: COPY, seed: 6 });
    expect(r.posted.map((p) => p.queue)).toEqual(
      Array.from({ length: 20 }, (_, k) => ({ engine: 16 + (k % 16), queue: Math.floor(k / 16) })),
    );
    expect(new Set(r.engineEvents.map((e) => `${e.engine}:${e.queue}`)).size).toBe(20);
    expect(sb2sbChannelQueue(CAYMAN, 7, 127)).toEqual({ engine: 127, queue: 7 });
  });
});

describe("events: wait before issue, signal the peer on completion (seed 002 §6)", () => {
  const withEvents = (events: Partial<S3d3Word>) => encodeS3d3(word({ events }));
  const waitInc = {
    "events.wait_mode": 5,
    "events.wait_idx": 3,
    "events.update_mode": 3,
    "events.update_idx": 4,
    "events.semaphore_value": 1,
  };

  it("an unmet wait issues nothing; once the semaphore is set, the word runs and increments the peer's", () => {
    const dev = new Device("trn2");
    const r1 = executeS3d3(dev, withEvents(waitInc), { core: 0 });
    expect(r1).toEqual({
      status: "waiting",
      wait: { index: 3, compare: "ge", value: 1 },
      block: 0,
      observed: 0,
    });
    expect(dev.events).toHaveLength(0);
    dev.memory.writeU32(semaphoreAddress(CAYMAN, 0, "set", 3), 1);
    const r2 = executeS3d3(dev, withEvents(waitInc), { core: 0 }) as S3d3Done;
    expect(r2.status).toBe("done");
    expect(r2.signal).toMatchObject({ block: 1, index: 4, window: "increment", value: 1 });
    expect(dev.semaphore(1, 4)).toBe(1);
    expect(dev.semaphore(0, 4)).toBe(0);
    // The signal is a 4-byte copy the engine executed after every leg.
    const last = r2.engineEvents.at(-1);
    expect(last).toMatchObject({ kind: "copy", bytesWritten: 4, engine: 0, queue: 0 });
  });

  it("chains: core 0's completion satisfies core 1's wait", () => {
    const dev = new Device("trn2");
    const first = { "events.update_mode": 19, "events.update_idx": 9 }; // SEM_INC_COMPLETE
    const second = { "events.wait_mode": 1, "events.wait_idx": 9, "events.semaphore_value": 1 }; // SEM_EQ_IMM
    expect(executeS3d3(dev, withEvents(second), { core: 1 }).status).toBe("waiting");
    expect(executeS3d3(dev, withEvents(first), { core: 0 }).status).toBe("done");
    expect(executeS3d3(dev, withEvents(second), { core: 1 }).status).toBe("done");
  });

  it("ADD, SUB and WR updates go to the increment, decrement and set windows with semaphore_value", () => {
    const dev = new Device("trn2");
    const run = (mode: number, value: number) =>
      executeS3d3(
        dev,
        withEvents({ "events.update_mode": mode, "events.update_idx": 2, "events.semaphore_value": value }),
        { core: 4 },
      );
    run(9, 100); // WR
    expect(dev.semaphore(5, 2)).toBe(100);
    run(5, 7); // ADD
    expect(dev.semaphore(5, 2)).toBe(107);
    run(7, 10); // SUB
    expect(dev.semaphore(5, 2)).toBe(97);
    run(4, 0); // DEC
    expect(dev.semaphore(5, 2)).toBe(96);
  });
});

describe("refusals", () => {
  it("an invalid word returns every reason and issues nothing", () => {
    const dev = new Device("trn2");
    const r = executeS3d3(dev, encodeS3d3({ ...word({ channels: 0 }), out_dtype: 7 }), { core: 0 });
    expect(r.status === "invalid" && r.reasons.map((x) => x.code)).toEqual([
      "dtype-mismatch",
      "active-channels-range",
    ]);
    expect(dev.events).toHaveLength(0);
  });
  it("SUNDA has no SB2SB", () => {
    const r: S3d3Execution = executeS3d3(new Device("trn1"), encodeS3d3(word({})), { core: 0 });
    expect(r.status === "invalid" && r.reasons.map((x) => x.code)).toEqual(["arch-no-sb2sb"]);
  });
  it("multi-node workloads are -EINVAL with the host string", () => {
    const r = executeS3d3(new Device("trn2"), encodeS3d3(word({})), { core: 0, nodes: 2 });
    expect(isEinval(r) && r.message).toBe(SB2SB_MULTI_NODE_MESSAGE);
  });
  it("a core outside the device is a FieldError", () => {
    expect(() => executeS3d3(new Device("trn2"), encodeS3d3(word({})), { core: 8 })).toThrow(FieldError);
  });
});

describe("packet chunking (seed 000 §7.1)", () => {
  const leg = (elements: number, dtype: number, op?: SdmaCceType): Sb2sbLeg => ({
    kind: op === undefined ? "copy" : "reduce-copy",
    channel: 0,
    srcCore: 0,
    dstCore: 1,
    partition: 0,
    dtype,
    ...(op !== undefined && { op }),
    bytes: elements * (dtype === Dtype.FP32 ? 4 : 2),
    segments: [{ src: 0x1000n, dst: 0x9000n, bytes: elements * (dtype === Dtype.FP32 ? 4 : 2) }],
  });
  const sizes = (l: Sb2sbLeg) =>
    sb2sbLegPackets(CAYMAN, l).map((p) => (p.kind === "cce" ? p.cce.size : p.copy.size));

  it("the CCE element cap splits a long reduce run: 4096 fp32 → 2 × 2048", () => {
    expect(reducePacketBytes(CAYMAN, 4096, Dtype.FP32)).toBe(8192);
    expect(sizes(leg(4096, Dtype.FP32, SdmaCceType.ADD))).toEqual([8192, 8192]);
  });
  it("the 32-byte granule: 100 fp32 → 96 + a 4-element tail; under one granule the run goes whole", () => {
    expect(sizes(leg(100, Dtype.FP32, SdmaCceType.ADD))).toEqual([384, 16]);
    expect(reducePacketBytes(CAYMAN, 3, Dtype.BFLOAT16)).toBeUndefined();
    expect(sizes(leg(3, Dtype.BFLOAT16, SdmaCceType.MIN))).toEqual([6]);
  });
  it("a copy run is one packet; reduce chunks keep [src, dst] → dst", () => {
    expect(sizes(leg(4096, Dtype.FP32))).toEqual([16384]);
    const p = sb2sbLegPackets(CAYMAN, leg(4096, Dtype.FP32, SdmaCceType.MAX))[1];
    expect(p?.kind === "cce" && [p.cce.op, p.cce.sources, p.cce.dests]).toEqual([
      4,
      [0x3000n, 0xb000n],
      [0xb000n],
    ]);
  });
  it("FMA, EXT and GCE are not SB2SB reduce ops", () => {
    for (const op of [SdmaCceType.FMA, SdmaCceType.EXT, SdmaCceType.GCE])
      expect(() => sb2sbLegPackets(CAYMAN, leg(8, Dtype.FP32, op))).toThrow(FieldError);
  });
  it("a chunked reduce leg reduces correctly on the engine (fp32 ADD over 4100 elements)", () => {
    const dev = new Device("trn2");
    const a = new Float32Array(4100).map((_, i) => i * 0.5);
    const b = new Float32Array(4100).map((_, i) => 3 - i);
    dev.memory.write(sbufAddress(CAYMAN, 0, 1, 0), new Uint8Array(a.buffer));
    dev.memory.write(sbufAddress(CAYMAN, 1, 1, 0x100), new Uint8Array(b.buffer));
    const req: Sb2sbRequest = {
      neigh: resolveNeighbor(EncdNeigh.PEER_LOCAL, { self: 0, ringSize: 8, lnc: 2 }),
      src: tensor(imm(1, 0), [1, 0, 0], [4100, 1, 1]),
      dst: tensor(imm(1, 0x100), [1, 0, 0], [4100, 1, 1]),
      dtype: Dtype.FP32,
      channels: 1,
      topology: { arch: CAYMAN, nodes: 1, place: { self: 0, ringSize: 8, lnc: 2 } },
    };
    const legs = encdDmaReduceCopySb2sb(req, SdmaCceType.ADD);
    if (!Array.isArray(legs)) throw new Error("einval");
    const q = new Sb2sbQueues(dev);
    const posted = postSb2sbLegs(q, legs);
    if (isEinval(posted)) throw new Error(posted.message);
    expect(posted[0]?.packets.map((p) => (p.kind === "cce" ? p.cce.size : 0))).toEqual([8192, 8192, 16]);
    q.drain();
    const out = new Float32Array(dev.memory.read(sbufAddress(CAYMAN, 1, 1, 0x100), 4100 * 4).slice().buffer);
    expect(Array.from(out)).toEqual(Array.from(a, (x, i) => Math.fround(x + (b[i] as number))));
  });
});
