// Engine: two-source CCE ADDs built by the runtime (addDmaPacketCce), posted on one queue and
// executed by the engine (Device.run), timed as bench/harness.ts times: CPU time, in alternation
// with a warm copy, RUNS pairs after warm-up.
// - Throughput: 2 × 64 MiB of bf16 in max-size (2048-element) packets, engine time ÷ a copy of the
//   128 MiB of input (the runtime's building is timed apart); and its SR twin (each packet reseeded
//   by a seed-init), the two timed in alternation so SR ÷ RNE comes pair by pair.
// - Per packet: build and run the same number of 64- and 2048-element packets; the fixed part of a
//   packet is what a line through the two sizes gives at zero elements (build + engine, µs).
// - Engine alone (reference): the same packets built once, the ring re-posted and run again and
//   again (reprogramming a ring's base starts it over: dma-queue.ts), so no building runs between
//   packets to evict the engine's working set or fill the young generation; same line at zero.
import { Device, FIRST_ARENA_BYTES, HBM_BASE } from "../src/engine/index.js";
import { addDmaPacketCce, Vring } from "../src/runtime/index.js";
import { Dtype, dtypeBytes } from "../src/spec/dtype.js";
import { KbinDmaDescOp } from "../src/spec/enums.js";
import { queueRegisterAddress } from "../src/spec/index.js";
import { type BenchRow, cpuMs, RUNS, spread, warmCopy } from "./harness.js";

const TOTAL = 64 << 20;
const SLOTS = 4096;
/** Packets posted between drains: two TX descriptors each (three with SR), so the TX ring never fills. */
const BATCH = 1000;

/**
 * A device with two sources and a destination of `total` bytes, all touched, and a ring. It keeps
 * no history of events (DeviceOptions.keepEvents), as the collectives' device machine does: the
 * rows time a packet, not a log of ~10^5 of them held for the whole row. The three buffers share
 * one page arena, as the main job's do (no packet of it stages a source): the first, 16 MiB, arena
 * (page-arenas.ts) is filled with other memory first. Sources in another arena than the destination
 * are copied into its scratch (Executor.stage): ≈ 0.3 µs more a 64-element packet here.
 */
export function setup(
  total: number,
  sr = false,
): { dev: Device; vring: Vring; a: bigint; b: bigint; d: bigint } {
  const dev = new Device("trn2", { keepEvents: false });
  const other = HBM_BASE + 0x7000_0000n;
  const mib = new Uint8Array(1 << 20);
  for (let off = 0; off < FIRST_ARENA_BYTES; off += mib.length) dev.memory.write(other + BigInt(off), mib);
  const a = HBM_BASE + 0x1000_0000n;
  const b = a + BigInt(total);
  const d = b + BigInt(total);
  const fill = mib.map((_, i) => (i * 37) & 0x3f);
  for (let off = 0; off < 3 * total; off += fill.length) {
    dev.memory.write(a + BigInt(off), fill.subarray(0, Math.min(fill.length, 3 * total - off)));
  }
  const vring = new Vring({
    profile: dev.profile,
    memory: dev.memory,
    registers: dev.regs,
    engine: 0,
    queue: 0,
    txBase: HBM_BASE,
    rxBase: HBM_BASE + BigInt(SLOTS * 16),
    slots: SLOTS,
    ...(sr ? { stochasticRounding: true, srSeed: 0x5eed } : {}),
  });
  return { dev, vring, a, b, d };
}

/** Build and run `packets` ADD packets of `elements` bf16 each: CPU ms of building and of running. */
export function addPackets(
  s: ReturnType<typeof setup>,
  elements: number,
  packets: number,
): { buildMs: number; runMs: number } {
  const size = elements * dtypeBytes(Dtype.BFLOAT16);
  let buildMs = 0;
  let runMs = 0;
  for (let first = 0; first < packets; first += BATCH) {
    const n = Math.min(BATCH, packets - first);
    buildMs += cpuMs(() => {
      for (let p = first; p < first + n; p++) {
        const o = BigInt(p * size);
        addDmaPacketCce(s.vring, {
          op: KbinDmaDescOp.ADD,
          sources: [s.a + o, s.b + o],
          dests: [s.d + o],
          size,
          inDtype: Dtype.BFLOAT16,
          cceInfo: null,
        });
      }
    });
    let faults = 0;
    runMs += cpuMs(() => {
      faults = s.dev.run().faults.length;
    });
    if (faults > 0) throw new Error("engine fault in the bench");
  }
  return { buildMs, runMs };
}

/**
 * The throughput row and its SR twin, timed in alternation (RNE run, copy, SR run, copy …), so the
 * SR row's note can give SR ÷ RNE pair by pair.
 */
function throughputRows(): BenchRow[] {
  const rne = setup(TOTAL);
  const sr = setup(TOTAL, true);
  const copy = warmCopy(2 * TOTAL);
  const packets = TOTAL / (2048 * 2);
  const ratios = { rne: [] as number[], sr: [] as number[], srOverRne: [] as number[] };
  addPackets(rne, 2048, packets); // warm-up
  addPackets(sr, 2048, packets);
  for (let i = 0; i < RUNS; i++) {
    const rneMs = addPackets(rne, 2048, packets).runMs;
    ratios.rne.push(rneMs / cpuMs(copy));
    const srMs = addPackets(sr, 2048, packets).runMs;
    ratios.sr.push(srMs / cpuMs(copy));
    ratios.srOverRne.push(srMs / rneMs);
  }
  const name = (what: string) =>
    `engine ${what}ADD bf16 2 × 64 MiB, ${packets} packets of 2048 elements (engine only)`;
  const note = "engine run ÷ warm copy of the 128 MiB of input";
  return [
    { name: name(""), target: "", unit: "× copy", ...spread(ratios.rne), note },
    {
      name: name("SR "),
      target: "≤ 3",
      unit: "× copy",
      ...spread(ratios.sr),
      note: `${note}; each packet reseeds its queue's stream (seed-init); SR ÷ RNE run ${spread(ratios.srOverRne).median.toFixed(2)}, pairs in alternation`,
    },
  ];
}

function perPacketRow(): BenchRow {
  const packets = 8192;
  const s = setup(packets * 2048 * 2);
  const fixed: number[] = [];
  const build: number[] = [];
  const engine: number[] = [];
  const sizes = [64, 2048] as const;
  for (let i = 0; i < RUNS + 1; i++) {
    const [small, large] = sizes.map((e) => addPackets(s, e, packets)) as [
      ReturnType<typeof addPackets>,
      ReturnType<typeof addPackets>,
    ];
    if (i === 0) continue; // warm-up
    const atZero = (t64: number, t2048: number) => ((t64 * 2048 - t2048 * 64) / (2048 - 64) / packets) * 1000;
    const b = atZero(small.buildMs, large.buildMs);
    const e = atZero(small.runMs, large.runMs);
    build.push(b);
    engine.push(e);
    fixed.push(b + e);
  }
  return {
    name: "packet build + engine overhead per packet (fixed part)",
    target: "≤ 4",
    unit: "µs / packet",
    ...spread(fixed),
    note: `build ${spread(build).median.toFixed(1)} µs + engine ${spread(engine).median.toFixed(1)} µs; ${packets} packets of 64 and of 2048 bf16 elements, line through both sizes at 0`,
  };
}

/** Packets of the engine-alone row: two TX descriptors each fit the ring with room to spare. */
const ALONE_PACKETS = 2000;

/** `elements`-element ADD packets built once; then CPU µs per packet of each of `reps` re-runs. */
function engineAlone(elements: number, reps: number): number[] {
  const s = setup(ALONE_PACKETS * 2048 * 2);
  const size = elements * dtypeBytes(Dtype.BFLOAT16);
  const posted = { tx: 0, rx: 0 };
  for (let p = 0; p < ALONE_PACKETS; p++) {
    const o = BigInt(p * size);
    const req = { op: KbinDmaDescOp.ADD, sources: [s.a + o, s.b + o], dests: [s.d + o], size };
    const written = addDmaPacketCce(s.vring, { ...req, inDtype: Dtype.BFLOAT16, cceInfo: null });
    if (!Array.isArray(written)) throw new Error("the bench's packet was refused");
    for (const d of written) posted[d.ring]++;
  }
  const reg = (ring: "tx" | "rx", name: "drbp_lo" | "drtp_inc", v: number) =>
    s.dev.memory.writeU32(queueRegisterAddress(s.dev.profile, { engine: 0, queue: 0 }, ring, name), v);
  const us: number[] = [];
  for (let i = -1; i < reps; i++) {
    if (i >= 0) {
      for (const ring of ["tx", "rx"] as const) {
        reg(ring, "drbp_lo", Number((ring === "tx" ? s.vring.tx.base : s.vring.rx.base) & 0xffff_ffffn));
        reg(ring, "drtp_inc", posted[ring]);
      }
    }
    s.dev.events.length = 0;
    let events = 0;
    const ms = cpuMs(() => {
      events = s.dev.run().events.length;
    });
    if (events !== ALONE_PACKETS) throw new Error(`engine ran ${events} of ${ALONE_PACKETS} packets`);
    if (i >= 0) us.push((ms * 1000) / ALONE_PACKETS);
  }
  return us;
}

function engineAloneRow(): BenchRow {
  const reps = 10 * RUNS;
  // Paired by rank (the k-th fastest of each size): runs of one size are not matched in time.
  const small = engineAlone(64, reps).sort((a, b) => a - b);
  const large = engineAlone(2048, reps).sort((a, b) => a - b);
  const fixed = small.map((t64, i) => (t64 * 2048 - (large[i] as number) * 64) / (2048 - 64));
  return {
    name: "engine overhead per packet alone (fixed part; reference)",
    target: "",
    unit: "µs / packet",
    ...spread(fixed),
    note: `${ALONE_PACKETS} packets of 64 and of 2048 bf16 elements built once, re-posted and run ${reps} times; line through both sizes at 0, runs paired by rank`,
  };
}

export default async function bench(): Promise<BenchRow[]> {
  return [...throughputRows(), perPacketRow(), engineAloneRow()];
}
