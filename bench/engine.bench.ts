// Engine throughput: a 64 MiB two-source CCE ADD (FP32 and bf16, FP32 accumulation) built by the
// runtime in max-element packets, posted on one queue and executed by the engine, as a ratio to a
// plain TypedArray copy of the same 64 MiB measured in the same run. Only the engine's run() is
// timed: the runtime's packet building is the runtime's cost, not the device's. Each row is the best
// of two runs after a full warm-up run, in CPU time: JIT and wasm tier-up are not throughput (a cold
// run measured 2-3× slower than the fourth), and on this shared machine CPU time moves less than wall.
import { Device, HBM_BASE } from "../src/engine/index.js";
import { addDmaPacketCce, Vring } from "../src/runtime/index.js";
import { Dtype, dtypeBytes } from "../src/spec/dtype.js";
import { KbinDmaDescOp } from "../src/spec/enums.js";

const TOTAL = 64 << 20;
const SLOTS = 4096;

/** CPU milliseconds `fn` takes. */
function cpuMs(fn: () => void): number {
  const c0 = process.cpuUsage();
  fn();
  const c = process.cpuUsage(c0);
  return (c.user + c.system) / 1000;
}

function best(fn: () => void, reps = 3): number {
  let t = Number.POSITIVE_INFINITY;
  for (let i = 0; i < reps; i++) t = Math.min(t, cpuMs(fn));
  return t;
}

function engineAdd(dt: Dtype, total: number): { ms: number; packets: number } {
  const dev = new Device("trn2");
  const a = HBM_BASE + 0x1000_0000n;
  const b = a + BigInt(total);
  const d = b + BigInt(total);
  const fill = new Uint8Array(1 << 20).map((_, i) => (i * 37) & 0x3f);
  for (let off = 0; off < 2 * total; off += fill.length) dev.memory.write(a + BigInt(off), fill);
  // Touch the destination too: the copy baseline's target is warm (best of 3), so first-touch page
  // allocation would otherwise be charged to the engine alone.
  const zeros = new Uint8Array(1 << 20);
  for (let off = 0; off < total; off += zeros.length) dev.memory.write(d + BigInt(off), zeros);
  const vring = new Vring({
    profile: dev.profile,
    memory: dev.memory,
    registers: dev.regs,
    engine: 0,
    queue: 0,
    txBase: HBM_BASE,
    rxBase: HBM_BASE + BigInt(SLOTS * 16),
    slots: SLOTS,
  });
  const chunk = dev.profile.maxCceElements * dtypeBytes(dt);
  let packets = 0;
  let ms = 0;
  const drain = () => {
    let faults = 0;
    ms += cpuMs(() => {
      faults = dev.run().faults.length;
    });
    if (faults > 0) throw new Error("engine fault in the bench");
  };
  for (let off = 0; off < total; off += chunk) {
    const o = BigInt(off);
    addDmaPacketCce(vring, {
      op: KbinDmaDescOp.ADD,
      sources: [a + o, b + o],
      dests: [d + o],
      size: chunk,
      inDtype: dt,
      cceInfo: null,
    });
    packets++;
    // Two descriptors a packet on TX, one on RX: drain before the TX ring fills.
    if (packets % 1000 === 0) drain();
  }
  drain();
  return { ms, packets };
}

export default async function bench(): Promise<{ name: string; ratio: number; note: string }[]> {
  const src = new Uint8Array(TOTAL).fill(1);
  const dst = new Uint8Array(TOTAL);
  const copyMs = best(() => dst.set(src));
  return [Dtype.FP32, Dtype.BFLOAT16].map((dt) => {
    engineAdd(dt, TOTAL);
    const first = engineAdd(dt, TOTAL);
    const second = engineAdd(dt, TOTAL);
    const { ms, packets } = first.ms < second.ms ? first : second;
    const elements = TOTAL / dtypeBytes(dt);
    return {
      name: `engine ADD ${dt === Dtype.FP32 ? "fp32" : "bf16"} 2×64 MiB (runtime-built, ${packets} packets)`,
      ratio: ms / copyMs,
      note: `CPU time, best of 2 vs best of 3 TypedArray copies of 64 MiB (${copyMs.toFixed(1)} ms); ${((ms * 1e6) / elements).toFixed(2)} ns/element engine only`,
    };
  });
}
