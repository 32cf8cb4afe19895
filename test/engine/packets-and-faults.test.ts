import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { Device, HBM_BASE } from "../../src/engine/index.js";
import { decodeToF32, encodeFromF32, fmaF32, RNE } from "../../src/numerics/index.js";
import { Dtype, gcePayloadBytes, queueRegisterAddress, sbufAddress } from "../../src/spec/index.js";
import { type CceRequest, ccePacket, copyPacket, QueueWriter } from "./helpers/packets.js";
import { reference } from "./helpers/reference.js";

const RING_TX = HBM_BASE + 0x10_0000n;
const RING_RX = HBM_BASE + 0x20_0000n;
const A = HBM_BASE + 0x100_0000n;
const B = HBM_BASE + 0x110_0000n;
const DST = HBM_BASE + 0x200_0000n;

const f32Bytes = (...v: number[]) => new Uint8Array(Float32Array.from(v).buffer);
const f32Of = (b: Uint8Array) => Array.from(new Float32Array(b.slice().buffer));

function device(arch = "trn2") {
  const dev = new Device(arch);
  return { dev, w: new QueueWriter(dev, 0, 0, RING_TX, RING_RX, 32) };
}

const addReq: CceRequest = {
  op: "add",
  sources: [A, B],
  elements: 4,
  inDt: Dtype.FP32,
  outDt: Dtype.FP32,
  dest: DST,
};

describe("CCE packets", () => {
  it("FMA honours general operand selectors: acc' = acc·scale + src (a=stored, b=scale, c=input)", () => {
    const { dev, w } = device();
    dev.memory.write(A, f32Bytes(1, 2, 3, 4));
    dev.memory.write(B, f32Bytes(10, 20, 30, 40));
    w.post(ccePacket({ ...addReq, op: "fma", scales: [0.5, 3], sel: [0, 2, 1] }));
    expect(dev.run().faults).toEqual([]);
    // acc0 = 0·0.5 + s0 = s0; acc1 = s0·3 + s1.
    expect(f32Of(dev.memory.read(DST, 16))).toEqual([13, 26, 39, 52]);
    expect(fmaF32(1, 3, 10)).toBe(13);
  });

  it("FMA default selectors start from zero: dst = 0.5·s0 + 0.5·s1 (seed 000 §9.2)", () => {
    const { dev, w } = device();
    dev.memory.write(A, f32Bytes(1, 2, 3, 4));
    dev.memory.write(B, f32Bytes(3, 2, 1, -4));
    w.post(ccePacket({ ...addReq, op: "fma", scales: [0.5, 0.5] }));
    dev.run();
    expect(f32Of(dev.memory.read(DST, 16))).toEqual([2, 2, 2, 0]);
  });

  it("MIN/MAX clamp against the constant (max with 0 is a ReLU)", () => {
    const { dev, w } = device();
    dev.memory.write(A, f32Bytes(-1, 2, -3, 4));
    dev.memory.write(B, f32Bytes(-5, 1, -1, 8));
    w.post(ccePacket({ ...addReq, op: "max", constant: { word: 0, constDt: 2 } }));
    w.post(ccePacket({ ...addReq, op: "min", dest: DST + 64n, constant: { word: 3, constDt: 0 } }));
    expect(dev.run().faults).toEqual([]);
    expect(f32Of(dev.memory.read(DST, 16))).toEqual([0, 2, 0, 8]);
    expect(f32Of(dev.memory.read(DST + 64n, 16))).toEqual([-5, 1, -3, 3]);
  });

  it("EXT combo replicates the result to every destination (arch > 2)", () => {
    const { dev, w } = device("trn3");
    dev.memory.write(A, f32Bytes(1, 2, 3, 4));
    dev.memory.write(B, f32Bytes(1, 1, 1, 1));
    const extra = [DST + 0x1000n, sbufAddress(dev.profile, 5, 7, 64)];
    w.post(ccePacket({ ...addReq, extraDests: extra }));
    const r = dev.run();
    expect(r.faults).toEqual([]);
    for (const d of [DST, ...extra]) expect(f32Of(dev.memory.read(d, 16))).toEqual([2, 3, 4, 5]);
    expect(r.events[0]?.destinations).toBe(3);
  });

  it("replication on SUNDA is a named fault", () => {
    const { dev, w } = device("trn1");
    w.post(ccePacket({ ...addReq, extraDests: [DST + 0x1000n] }));
    expect(dev.run().faults[0]?.message).toMatch(/tx slot 3: replication descriptor on SUNDA/);
  });

  it("a broken combo more-bit chain is a named fault", () => {
    const { dev, w } = device();
    const p = ccePacket({ ...addReq, extraDests: [DST + 0x1000n] });
    w.post(p, {
      ring: "tx",
      fn: (i, b) => {
        if (i === 1) b[7] = (b[7] as number) & ~0x40;
      },
    });
    expect(dev.run().faults[0]?.message).toMatch(/tx slot 1: combo more-bit .* missing/);
  });

  it("seed-init reseeds the queue's SR stream: same seed, same bytes; other seed, other bytes", () => {
    const run = (seed: number) => {
      const { dev, w } = device();
      const n = 4096;
      const src = new Float32Array(n).map((_, i) => 1 + i * 2 ** -12);
      dev.memory.write(A, new Uint8Array(src.buffer));
      dev.memory.write(B, new Uint8Array(src.buffer));
      w.post(ccePacket({ ...addReq, elements: n, outDt: Dtype.BFLOAT16, seed }));
      w.post(ccePacket({ ...addReq, elements: n, outDt: Dtype.BFLOAT16, seed, dest: DST + 0x10000n }));
      dev.run();
      return [dev.memory.read(DST, 2 * n), dev.memory.read(DST + 0x10000n, 2 * n)];
    };
    const [a1, a2] = run(5);
    const [b1] = run(5);
    const [c1] = run(6);
    expect(a1).toEqual(b1);
    expect(a1).toEqual(a2);
    expect(a1).not.toEqual(c1);
  });

  it("GCE compress then decompress: block-scaled fp8_e4 round trip within fp8 precision", () => {
    const { dev, w } = device();
    const n = 100;
    const vals = Array.from({ length: n }, (_, i) => Math.sin(i) * 2 ** (i % 20));
    dev.memory.write(A, f32Bytes(...vals));
    dev.memory.write(B, f32Bytes(...vals));
    const header = HBM_BASE + 0x300_0000n;
    const payload = HBM_BASE + 0x310_0000n;
    const payloadBytes = gcePayloadBytes(n, 5);
    w.post(
      ccePacket({
        ...addReq,
        elements: n,
        dest: payload,
        gce: { mode: 1, headerAddr: header, blockLog2: 5, payloadBytes },
      }),
    );
    w.post(
      ccePacket({
        op: "add",
        sources: [payload],
        elements: n,
        inDt: Dtype.FP8_E4,
        outDt: Dtype.FP32,
        dest: DST,
        gce: { mode: 2, headerAddr: header, blockLog2: 5, payloadBytes },
      }),
    );
    const r = dev.run();
    expect(r.faults.map((f) => f.message)).toEqual([]);
    expect(r.events.map((e) => e.kind)).toEqual(["gce-compress", "gce-decompress"]);
    const back = f32Of(dev.memory.read(DST, 4 * n));
    vals.forEach((v, i) => {
      const blockMax = Math.max(...vals.slice(i - (i % 32), i - (i % 32) + 32).map((x) => Math.abs(2 * x)));
      expect(Math.abs((back[i] as number) - 2 * v)).toBeLessThanOrEqual(blockMax / 16);
    });
  });
});

describe("queues, phases and faults", () => {
  it("a stale ring_id is not consumed: the queue stalls, other queues go on", () => {
    const dev = new Device("trn2");
    const q0 = new QueueWriter(dev, 0, 0, RING_TX, RING_RX, 32);
    const q1 = new QueueWriter(dev, 0, 1, RING_TX + 0x1000n, RING_RX + 0x1000n, 32);
    dev.memory.write(A, f32Bytes(1, 2, 3, 4));
    q0.post(copyPacket(A, DST, 16), {
      ring: "tx",
      fn: (_, b) => {
        b[3] = ((b[3] as number) & ~3) | 2;
      },
    });
    q1.post(copyPacket(A, DST + 64n, 16));
    const r = dev.run();
    expect(r.events).toHaveLength(1);
    expect(r.stalls).toHaveLength(1);
    expect(r.stalls[0]?.reason).toMatch(/ring_id 2 is not the ring's phase 1/);
    expect(dev.memory.read(DST + 64n, 16)).toEqual(f32Bytes(1, 2, 3, 4));
    expect(dev.regs.read32(queueRegisterAddress(dev.profile, { engine: 0, queue: 0 }, "tx", "drhp"))).toBe(0);
    expect(dev.regs.read32(queueRegisterAddress(dev.profile, { engine: 0, queue: 1 }, "tx", "drhp"))).toBe(1);
  });

  it("the phase advances at each wrap: 40 packets through a 16-slot ring", () => {
    const dev = new Device("trn1");
    const w = new QueueWriter(dev, 3, 2, RING_TX, RING_RX, 16);
    for (let i = 0; i < 40; i++) {
      dev.memory.writeU32(A, i);
      w.post(copyPacket(A, DST + BigInt(4 * i), 4));
      expect(dev.run().faults).toEqual([]);
    }
    expect(dev.memory.readU32(DST + 39n * 4n)).toBe(39);
  });

  it("a fault stops its queue; other queues go on; reprogramming the ring restarts it", () => {
    const dev = new Device("trn2");
    const q0 = new QueueWriter(dev, 2, 0, RING_TX, RING_RX, 32);
    const q1 = new QueueWriter(dev, 5, 9, RING_TX + 0x1000n, RING_RX + 0x1000n, 32);
    q0.post(copyPacket(0x6_0000_0123n, DST, 16)); // past Trn2's HBM stack 0 (24 GiB)
    q0.post(copyPacket(A, DST, 16));
    q1.post(copyPacket(A, DST + 64n, 16));
    const r = dev.run();
    expect(r.faults).toHaveLength(1);
    expect(r.faults[0]?.message).toMatch(
      /engine 2 queue 0 tx slot 0: read of 16 bytes at 0x600000123: address is not mapped/,
    );
    expect(r.events.map((e) => [e.engine, e.queue])).toEqual([[5, 9]]);
    expect(dev.queue(2, 0).status).toBe(3);
  });

  it("round-robin across queues, in order within a queue; events carry times from the cost model", () => {
    const dev = new Device("trn2");
    const qs = [0, 1, 2].map(
      (q) => new QueueWriter(dev, 0, q, RING_TX + BigInt(q) * 0x1000n, RING_RX + BigInt(q) * 0x1000n, 32),
    );
    for (const w of qs) for (let k = 0; k < 2; k++) w.post(copyPacket(A, DST, 4096));
    const r = dev.run();
    expect(r.events.map((e) => e.queue)).toEqual([0, 1, 2, 0, 1, 2]);
    r.events.forEach((e, i) => {
      expect(e.end).toBeGreaterThan(e.start);
      if (i > 0) expect(e.start).toBe(r.events[i - 1]?.end);
    });
  });

  it("the functional result does not depend on the cost model", () => {
    const out = (costModel?: { durationNs: () => number }) => {
      const dev = new Device("trn2", costModel ? { costModel } : {});
      const w = new QueueWriter(dev, 0, 0, RING_TX, RING_RX, 32);
      dev.memory.write(A, f32Bytes(1.5, 2, 3, 4));
      dev.memory.write(B, f32Bytes(1, 1, 1, 1));
      w.post(ccePacket(addReq));
      dev.run();
      return dev.memory.read(DST, 16);
    };
    expect(out({ durationNs: () => 12345 })).toEqual(out());
  });

  it("64-bit addresses are exact: SBUF tiles with bit 47, partitions at 256 KiB", () => {
    const dev = new Device("trn2");
    const w = new QueueWriter(dev, 0, 0, RING_TX, RING_RX, 32);
    const dst = sbufAddress(dev.profile, 7, 127, 8);
    expect(dst).toBe(0x8070_0000_0000n + 127n * 0x40000n + 8n);
    dev.memory.write(A, f32Bytes(9, 8, 7, 6));
    w.post(copyPacket(A, dst, 16));
    dev.run();
    expect(dev.memory.read(dst, 16)).toEqual(f32Bytes(9, 8, 7, 6));
    expect(dev.memory.allocatedBytes).toBeLessThanOrEqual(4 << 20);
  });

  it("corrupting op, length, address or phase gives a named fault, a stall or a different result", () => {
    const outcomes = (mutate?: Parameters<QueueWriter["post"]>[1]) => {
      const { dev, w } = device();
      dev.memory.write(A, f32Bytes(1, 2, 3, 4));
      dev.memory.write(B, f32Bytes(5, 6, 7, 8));
      w.post(ccePacket(addReq), mutate);
      const r = dev.run();
      return { r, out: dev.memory.read(DST, 16) };
    };
    const clean = outcomes().out;
    // op: W1 byte 3 (bits 31:24) of source 0 — the op field 25:23 no longer says CCE.
    expect(
      outcomes({
        ring: "tx",
        fn: (i, b) => {
          if (i === 0) b[7] = 0;
        },
      }).r.faults[0]?.message,
    ).toMatch(/tx slot 0: .*op/);
    // length: 16 → 15 bytes, not a whole fp32 element.
    expect(
      outcomes({
        ring: "tx",
        fn: (i, b) => {
          if (i === 1) b[0] = 15;
        },
      }).r.faults[0]?.message,
    ).toMatch(/tx slot 1: length 15/);
    // address: source 1 pointer moved → different result (or a fault if unmapped).
    const moved = outcomes({
      ring: "tx",
      fn: (i, b) => {
        if (i === 1) b[8] = 4;
      },
    });
    expect(moved.r.faults.length > 0 || !Buffer.from(moved.out).equals(Buffer.from(clean))).toBe(true);
    expect(
      outcomes({
        ring: "tx",
        fn: (i, b) => {
          if (i === 1) b[15] = 0x40;
        },
      }).r.faults[0]?.message,
    ).toMatch(/not mapped/);
    // phase: ring_id 1 → 0.
    expect(
      outcomes({
        ring: "rx",
        fn: (_, b) => {
          b[3] = (b[3] as number) & ~3;
        },
      }).r.stalls[0]?.reason,
    ).toMatch(/ring_id 0/);
  });

  it("any single corrupted byte of any descriptor: fault, stall or result — never a crash", () => {
    fc.assert(
      fc.property(fc.boolean(), fc.nat(2), fc.nat(15), fc.nat(255), (rx, which, byte, value) => {
        const dev = new Device("trn2");
        const w = new QueueWriter(dev, 0, 0, RING_TX, RING_RX, 32);
        dev.memory.write(A, f32Bytes(1, 2, 3, 4));
        w.post(ccePacket({ ...addReq, op: "fma", sources: [A], scales: [2] }), {
          ring: rx ? "rx" : "tx",
          fn: (i, b) => {
            if (i === which) b[byte] = value;
          },
        });
        const r = dev.run();
        // The next case reuses the arena: 200 new WebAssembly memories kept the collector busy.
        dev.memory.release();
        expect(r.faults.length + r.stalls.length + r.events.length).toBeGreaterThan(0);
      }),
      { numRuns: 200 },
    );
  });
});

describe("reference self-check", () => {
  it("bf16 RNE of an fp32 sum matches the codec", () => {
    const src = f32Bytes(1 + 2 ** -9);
    const out = new Uint8Array(2);
    const f = new Float32Array(1);
    decodeToF32(Dtype.FP32, src, 0, 1, f);
    encodeFromF32(Dtype.BFLOAT16, f, 0, 1, out, 0, RNE);
    expect(
      reference({ op: "add", sources: [src], elements: 1, inDt: Dtype.FP32, outDt: Dtype.BFLOAT16 }),
    ).toEqual(out);
  });
});
