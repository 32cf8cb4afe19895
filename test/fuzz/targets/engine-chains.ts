/**
 * Random descriptor chains on the engine (issue 16 item 2): packets built the way the runtime lays
 * them out (copies, CCE reduce / FMA / MIN-MAX, EXT combos with replicas, GCE, seeds), with
 * destinations drawn from every kind of memory — HBM, SBUF and PSUM near their ends, semaphore
 * windows (misaligned too), queue and engine registers, unmapped addresses — and random bit flips.
 * Every packet is stepped alone, and checked:
 * - atomicity: a faulting packet writes nothing — no memory write or in-place view, no register
 *   write, no semaphore change, and the watched windows are byte-for-byte as before;
 * - no write outside destinations: each write of a packet that ran lies inside a window its own
 *   descriptor bytes declare (an RX buffer, a TX descriptor's W2..W3 pointer for a replica or GCE
 *   header, the four bytes an embedded-semaphore write resolves to, a transpose target) — every write
 *   call and in-place view (poke) as recorded, and every watched byte that changed, whatever path
 *   changed it — the page fast path too (test/fuzz/mutation.test.ts shows each path is seen);
 * - no exception other than sdmakit's own, and no run past the watchdog.
 */

import { SdmakitError } from "../../../src/bits/index.js";
import {
  Device,
  HBM_BASE,
  PAGE_BYTES,
  planPacket,
  psumAddress,
  resolveEmbeddedSem,
  semaphoreAddress,
  toDescriptor,
  WatchdogFault,
} from "../../../src/engine/index.js";
import {
  HalDevice,
  marianaInitEmbeddedSem,
  registerKhal,
  s2mSetEmbeddedSemFields,
} from "../../../src/hal/index.js";
import {
  DEFAULT_COPY_META,
  Dtype,
  engineCsrBase,
  GCE_HEADER_BYTES,
  MAX_DESCRIPTOR_BYTES,
  queueRegisterAddress,
  sbufAddress,
  UDMA_RX,
} from "../../../src/spec/index.js";
import {
  ccePacket,
  type Op,
  type Packet,
  QueueWriter,
  rxData,
  txData,
} from "../../engine/helpers/packets.js";
import { Rng } from "../rng.js";
import { describeThrow, Findings, type FuzzTarget } from "../target.js";

const ARCHES = ["trn1", "trn2", "trn3"] as const;
const RING_TX = HBM_BASE + 0x10_0000n;
const RING_RX = HBM_BASE + 0x20_0000n;
const RING_SLOTS = 64;
/** Sources and destinations in HBM: a 64 KiB window, watched byte for byte. */
const DATA = HBM_BASE + 0x100_0000n;
const DATA_BYTES = 0x10000;
/**
 * Destinations in pages never written: the engine allocates such a page through DeviceMemory.poke,
 * its one write path the filled windows never reach once two regions are cached (a window of
 * FRESH_BYTES at the start of each of FRESH_PAGES pages, watched, never written at set-up).
 */
const FRESH = HBM_BASE + 0x200_0000n;
const FRESH_PAGES = 16;
const FRESH_BYTES = 4096;
const freshWindow = (k: number): Window => [FRESH + BigInt(k * PAGE_BYTES), FRESH_BYTES];
/** Chains per device before a fresh one (a device costs ~4 ms to build). */
const CHAINS_PER_DEVICE = 200;
/** Packets per chain run: bounds a chain that re-arms queues through their registers. */
const STEPS_PER_CHAIN = 64;

type Window = readonly [bigint, number];

/**
 * The embedded-semaphore region (of 32; the HAL programs 0..23) pointed into the watched HBM
 * window, so a semaphore write and any byte it overruns land in memory compared byte for byte; the
 * set / decrement windows sit 0x400 either side of the increment base it names.
 */
const DATA_SEM_REGION = 31;
const DATA_SEM_BASE = DATA + 0x8000n;

/** On a trn3 device: the HAL's embedded-semaphore regions on engine 0, and region 31 into DATA. */
function embeddedSems(dev: Device): HalDevice | undefined {
  if (dev.profile.name !== "trn3") return undefined;
  const hal = new HalDevice(dev.profile.name, dev.regs);
  registerKhal(hal);
  const csr = engineCsrBase(dev.profile, 0);
  marianaInitEmbeddedSem(hal, csr);
  hal.khal.embedded_sem_wr_address?.(hal, csr, DATA_SEM_REGION, DATA_SEM_BASE);
  return hal;
}

/** Give a copy's last RX descriptor an embedded-semaphore write (the HAL's field-pack). */
function withSem(rng: Rng, hal: HalDevice, p: Packet): void {
  const rx = p.rx[p.rx.length - 1];
  if (rx === undefined) return;
  const data = rng.chance(0.5);
  s2mSetEmbeddedSemFields(hal, rx, {
    sow: rng.chance(0.9),
    wr_mode: rng.chance(0.9) ? rng.int(3) : 3,
    wr_val: rng.int(0x10000),
    reg_sel: data ? DATA_SEM_REGION : rng.int(24),
    intra_reg_offset: data ? rng.int(16) : rng.int(256),
  });
}

/** The plain-memory windows written with random bytes when a device is made. */
function filled(dev: Device): Window[] {
  const p = dev.profile;
  const cap = p.sbufPartitionBytes;
  return [
    [DATA, DATA_BYTES + 256],
    ...[0, 1, 2, 3].map((k): Window => [sbufAddress(p, 0, k, cap - 512), 512]),
    [psumAddress(p, 0, 0, 0), 1024],
  ];
}

/** The windows the generator draws from, compared before / after each packet: filled and fresh. */
function watched(dev: Device): Window[] {
  return [...filled(dev), ...Array.from({ length: FRESH_PAGES }, (_, k) => freshWindow(k))];
}

/** An address from every kind of memory (the watched windows mostly). */
function address(rng: Rng, dev: Device): bigint {
  const p = dev.profile;
  const misalign = () => BigInt(rng.chance(0.3) ? rng.int(4) : 0);
  switch (rng.int(16)) {
    case 0:
      // The last 512 bytes of a partition and a little past its capacity (unmapped).
      return sbufAddress(p, 0, rng.int(4), 0) + BigInt(p.sbufPartitionBytes - 512 + rng.int(576));
    case 1:
      return psumAddress(p, 0, 0, rng.int(512));
    case 2: {
      const window = rng.pick(["read", "set", "increment", "decrement"] as const);
      return semaphoreAddress(p, 0, window, rng.int(8)) + misalign();
    }
    case 3: {
      const reg = rng.pick(["drbp_lo", "drbp_hi", "drl", "drtp_inc", "drhp"] as const);
      const ring = rng.pick(["tx", "rx"] as const);
      return queueRegisterAddress(p, { engine: 0, queue: rng.int(3) }, ring, reg) + misalign();
    }
    case 4:
      return engineCsrBase(p, 0) + BigInt(rng.int(0x4000)) * 4n + misalign();
    case 5: {
      // Past HBM stack 0's end (unmapped), or straddling it.
      const s0 = p.addressMap.hbmStacks[0]!;
      const end = s0.base + s0.bytes;
      return rng.chance(0.5) ? end + BigInt(rng.int(0x10000)) : end - BigInt(rng.int(64));
    }
    case 6: {
      const [base] = freshWindow(rng.int(FRESH_PAGES));
      return base + BigInt(rng.int(FRESH_BYTES / 2));
    }
    default:
      return DATA + BigInt(rng.int(DATA_BYTES));
  }
}

const DTYPES = [Dtype.FP32, Dtype.BFLOAT16, Dtype.FP16, Dtype.FP8_E4, Dtype.FP8_E5, Dtype.FP8_E3];

/** One packet, as the runtime lays them out, then maybe corrupted. */
function packet(rng: Rng, dev: Device, hal: HalDevice | undefined): Packet {
  const addr = () => address(rng, dev);
  let p: Packet;
  if (rng.chance(0.45)) {
    const tx = Array.from({ length: 1 + rng.int(3) }, () =>
      txData(addr(), 1 + rng.int(64), DEFAULT_COPY_META),
    );
    const total = tx.reduce((n, d) => n + (new DataView(d.buffer).getUint32(0, true) & 0xffff), 0);
    const rx = [];
    for (let left = total; left > 0; ) {
      const n = rng.chance(0.3) ? left : Math.max(1, Math.min(left, rng.int(left + 1)));
      rx.push(rxData(addr(), n));
      left -= n;
    }
    p = { tx, rx };
    if (hal !== undefined && rng.chance(0.3)) withSem(rng, hal, p);
  } else {
    const op = rng.pick<Op>(["add", "fma", "min", "max"]);
    const elements = 1 + rng.int(16);
    const gce = rng.chance(0.1);
    p = ccePacket({
      op: gce ? "add" : op,
      sources: Array.from({ length: 1 + rng.int(3) }, addr),
      elements,
      inDt: gce ? Dtype.BFLOAT16 : rng.pick(DTYPES),
      outDt: rng.pick(DTYPES),
      dest: addr(),
      ...(rng.chance(0.3) && { extraDests: Array.from({ length: 1 + rng.int(2) }, addr) }),
      ...(rng.chance(0.2) && { seed: rng.u32() }),
      ...(op !== "add" &&
        op !== "fma" &&
        rng.chance(0.3) && { constant: { word: rng.u32(), constDt: rng.int(3) as 0 | 1 | 2 } }),
      ...(gce && {
        gce: {
          mode: rng.chance(0.5) ? 1 : 2,
          headerAddr: addr(),
          blockLog2: 4 + rng.int(3),
          payloadBytes: 2 + 2 * rng.int(32),
        },
      }),
    });
  }
  if (rng.chance(0.25)) {
    const ring = rng.chance(0.5) ? p.tx : p.rx;
    const d = ring[rng.int(ring.length)];
    if (d) for (let k = 1 + rng.int(3); k > 0; k--) rng.flip(d);
  }
  return p;
}

interface Recorder {
  writes: [bigint, number][];
  /** In-place destination views handed out (DeviceMemory.poke), with their bytes at that moment. */
  views: { addr: bigint; view: Uint8Array; before: Uint8Array }[];
  regWrites: number;
}

/** Record every memory write, in-place write view and register write the device makes. */
function instrument(dev: Device): Recorder {
  const rec: Recorder = { writes: [], views: [], regWrites: 0 };
  const mem = dev.memory;
  const write = mem.write.bind(mem);
  const poke = mem.poke.bind(mem);

  mem.write = (addr, data, what) => {
    rec.writes.push([addr, data.length]);
    write(addr, data, what);
  };
  mem.poke = (addr, len, what, overwrite) => {
    const view = poke(addr, len, what, overwrite);
    if (view) rec.views.push({ addr, view, before: view.slice() });
    return view;
  };
  const write32 = dev.regs.write32.bind(dev.regs);
  dev.regs.write32 = (addr, value, accessor) => {
    rec.regWrites++;
    write32(addr, value, accessor);
  };
  return rec;
}

function snapshot(dev: Device, windows: readonly Window[]): { mem: Uint8Array[]; sems: Uint32Array[] } {
  return {
    mem: windows.map(([a, n]) => dev.memory.read(a, n)),
    sems: [...dev.semaphores.values()].map((b) => b.values.slice()),
  };
}

/** Element-wise equality, in a plain loop: Array.from over each 64 KiB window cost seconds a run. */
function same(a: ArrayLike<number>, b: ArrayLike<number>): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

const RX_EMBEDDED_SEM = UDMA_RX.field("len_ctrl.embedded_sem");

/** The windows a packet's descriptor bytes declare as destinations (module comment). */
function declared(dev: Device, tx: readonly Uint8Array[], rx: readonly Uint8Array[]): Window[] {
  const w = (b: Uint8Array) => new DataView(b.buffer, b.byteOffset, 16);
  const ptr = (b: Uint8Array) => (BigInt(w(b).getUint32(12, true)) << 32n) | BigInt(w(b).getUint32(8, true));
  const len = (b: Uint8Array) => w(b).getUint32(0, true) & 0xffff || MAX_DESCRIPTOR_BYTES;
  const out: Window[] = rx.map((b) => [ptr(b), len(b)]);
  const rxTotal = out.reduce((n, [, l]) => n + l, 0);
  for (const b of tx) out.push([ptr(b), Math.max(rxTotal, GCE_HEADER_BYTES)]);
  for (const b of rx) {
    if (RX_EMBEDDED_SEM.read(b) !== true) continue;
    try {
      const d = toDescriptor({ engine: 0, queue: 0, ring: "rx", slot: 0 }, b);
      const sem = resolveEmbeddedSem(dev.profile, dev.memory, 0, d);
      if (sem) out.push([sem.addr, sem.len]);
    } catch {
      // An unresolvable semaphore write faults the packet: it may write nothing at all.
    }
  }
  try {
    const ref = (ring: "tx" | "rx") => ({ engine: 0, queue: 0, ring, slot: 0 });
    const plan = planPacket(
      dev.profile,
      tx.map((b) => toDescriptor(ref("tx"), b)),
      rx.map((b) => toDescriptor(ref("rx"), b)),
    );
    if (plan.kind === "transpose") {
      const stride = BigInt(dev.profile.sbufPartitionStride);
      for (const r of plan.rows)
        for (let k = 0; k < plan.cols; k++)
          out.push([r.window + BigInt(r.partition + k) * stride + BigInt(r.offset), plan.elem]);
    }
  } catch {
    // A packet the engine cannot plan faults: it may write nothing at all.
  }
  return out;
}

/** The first byte of a watched window that changed outside `allowed`, as a one-byte window. */
function changedOutside(
  base: bigint,
  before: Uint8Array | undefined,
  after: Uint8Array | undefined,
  allowed: readonly Window[],
): Window | undefined {
  if (before === undefined || after === undefined) return undefined;
  // Numbers: every watched address is below 2^53, and a window's bytes are many.
  const b = Number(base);
  const spans = allowed.map(([a, n]) => [Number(a), Number(a) + n] as const);
  for (let i = 0; i < before.length; i++) {
    if (before[i] === after[i]) continue;
    const at = b + i;
    if (!spans.some(([lo, hi]) => at >= lo && at < hi)) return [base + BigInt(i), 1];
  }
  return undefined;
}

const inside = (addr: bigint, n: number, windows: readonly Window[]) =>
  windows.some(([a, len]) => addr >= a && addr + BigInt(n) <= a + BigInt(len));

const hex = (b: Uint8Array) => Buffer.from(b).toString("hex");

/** What a run may narrow: the archs its devices cycle through, and an end at the first failure. */
export interface ChainOptions {
  readonly arches?: readonly string[];
  /** Stop at the first failure (a mutation test needs one, not the rest of the budget). */
  readonly untilFailure?: boolean;
}

/** `cases` chains from `seed`, each arch of `arches` in turn for CHAINS_PER_DEVICE chains. */
export function fuzzChains(
  seed: number,
  cases: number,
  { arches = ARCHES, untilFailure = false }: ChainOptions = {},
) {
  const rng = new Rng(seed);
  const found = new Findings();
  let dev: Device | undefined;
  let rec: Recorder = { writes: [], views: [], regWrites: 0 };
  let windows: Window[] = [];
  let hal: HalDevice | undefined;
  let c = 0;
  for (; c < cases && !(untilFailure && found.failures.length > 0); c++) {
    if (!dev || c % CHAINS_PER_DEVICE === 0) {
      dev = new Device(arches[((c / CHAINS_PER_DEVICE) % arches.length) | 0] as string, {
        packetBudget: STEPS_PER_CHAIN,
      });
      hal = embeddedSems(dev);
      rec = instrument(dev);
      windows = watched(dev);
      for (const [a, n] of filled(dev)) dev.memory.write(a, rng.bytes(n));
    }
    const chainSeed = rng.u32();
    const local = new Rng(chainSeed);
    const where = `${dev.profile.name} chain seed ${chainSeed} (fuzz seed ${seed}, case ${c})`;
    try {
      const w = new QueueWriter(dev, 0, 0, RING_TX, RING_RX, RING_SLOTS);
      // A packet may complete one an earlier post left incomplete: the chain's windows together.
      const allowed: Window[] = [];
      for (let k = 1 + local.int(3); k > 0; k--) {
        const p = packet(local, dev, hal);
        const slots = w.post(p);
        const txBytes = slots.tx.map((s) => dev?.memory.read(RING_TX + BigInt(16 * s), 16) as Uint8Array);
        const rxBytes = slots.rx.map((s) => dev?.memory.read(RING_RX + BigInt(16 * s), 16) as Uint8Array);
        allowed.push(...declared(dev, txBytes, rxBytes));
        const what = () => `${where}: tx ${txBytes.map(hex).join(" ")} rx ${rxBytes.map(hex).join(" ")}`;
        for (let step = 0; step < STEPS_PER_CHAIN; step++) {
          const before = snapshot(dev, windows);
          rec.writes = [];
          rec.views = [];
          rec.regWrites = 0;
          const r = dev.step();
          if (!r) break;
          const ours =
            "event" in r
              ? r.event.engine === 0 && r.event.queue === 0
              : r.fault.at.engine === 0 && r.fault.at.queue === 0;
          if ("fault" in r) {
            found.count("faulted");
            const after = snapshot(dev, windows);
            const memSame = before.mem.every((b, i) => same(b, after.mem[i] as Uint8Array));
            const semSame = before.sems.every((s, i) => same(s, after.sems[i] as Uint32Array));
            const viewsSame = rec.views.every((v) => same(v.view, v.before));
            if (rec.writes.length > 0 || rec.regWrites > 0 || !memSame || !semSame || !viewsSame)
              found.fail(
                `faulting packet wrote (${rec.writes.length} writes, ${rec.regWrites} register writes, memory ${memSame ? "same" : "changed"}, semaphores ${semSame ? "same" : "changed"}, in-place views ${viewsSame ? "same" : "changed"}): ${r.fault.message}; ${what()}`,
              );
          } else {
            found.count("completed");
            if (ours) {
              const written = [
                ...rec.writes,
                ...rec.views.map((v): [bigint, number] => [v.addr, v.view.length]),
              ];
              const after = snapshot(dev, windows);
              const changed = windows
                .map(([a], i) => changedOutside(a, before.mem[i], after.mem[i], allowed))
                .find((x) => x !== undefined);
              const outside = written.find(([a, n]) => !inside(a, n, allowed)) ?? changed;
              if (outside)
                found.fail(
                  `write of ${outside[1]} bytes at 0x${outside[0].toString(16)} outside the packet's destinations; ${what()}`,
                );
            }
          }
          if (!ours) found.count("other-queue packets");
        }
        // Drain whatever the chain's writes posted elsewhere (bounded by the watchdog).
        for (const f of dev.run().faults) found.count(f instanceof WatchdogFault ? "watchdog" : "faulted");
      }
    } catch (e) {
      found.fail(
        `${e instanceof SdmakitError ? "typed" : "untyped"} exception out of the engine: ${describeThrow(e)}; ${where}`,
      );
      dev = undefined;
    }
  }
  return found.result(c);
}

export const engineChains: FuzzTarget = {
  name: "engine-chains",
  run: (seed, cases) => fuzzChains(seed, cases),
};
