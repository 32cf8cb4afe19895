/**
 * Runs a plan on the simulated device, with the device's memory as the only data path: each leg's
 * packets go through the runtime's builders (add_dma_packet for a copy, add_dma_packet_cce for a
 * reduce-copy or a duplication) into the TX / RX rings of the leg's rank and channel, the doorbell
 * rings, and the engine executes the descriptor bytes.
 *
 * MODEL (queues): rank r's channel c is DMA engine (r mod cores) · enginesPerCore + c, queue
 * ⌊r / cores⌋ of that engine — so the ranks of one chip use their own cores' engines and the
 * chips of a run share the device's engines by queue. A run needs ranks ≤ cores × queues per
 * engine (Trn1 32, Trn2 / Trn3 128); beyond that only --timing-only runs.
 *
 * Ordering: legs are posted in batches of mutually independent legs (plan order, a batch ends at
 * the first leg that depends on one in it) and the device runs each batch to completion — the
 * host-side equivalent of the semaphore wait between ring steps. Timing does not come from here
 * (see schedule.ts): the engine's events only feed the trace.
 */
import { DeviceFault, isEinval, UsageError } from "../bits/errors.js";
import { Device, type EngineEvent, HBM_BASE } from "../engine/index.js";
import type { ArchProfile } from "../hal/arch-profile.js";
import type { Sb2sbPacket } from "../isa/index.js";
import type { OverflowPolicy } from "../numerics/index.js";
import {
  addDmaPacket,
  addDmaPacketCce,
  type CceInfo,
  type QueueId,
  RingFullError,
  ringAreaEnd,
  type Vring,
  VringPool,
} from "../runtime/index.js";
import { Dtype, dtypeBytes } from "../spec/dtype.js";
import { KbinDmaDescOp } from "../spec/enums.js";
import { BufferLayout, GUARD_FILL, OUTPUT_FILL } from "./buffer-layout.js";
import { formatBytes } from "./format-bytes.js";
import { legAluOp, sourceScale } from "./leg-math.js";
import { isSb2sb, legPackets, queueSeed } from "./packets.js";
import type { BufRef, Leg, LegSource, Plan } from "./plan.js";
import { sb2sbLegCalls } from "./sb2sb-legs.js";
import type { BufferReader } from "./verify.js";

/** Descriptor slots per ring (MODEL: 1024, 16 KiB a ring; a full ring drains the device first). */
export const RING_SLOTS = 1024;

const KBIN_OP = {
  add: KbinDmaDescOp.ADD,
  fma: KbinDmaDescOp.FMA,
  min: KbinDmaDescOp.MIN,
  max: KbinDmaDescOp.MAX,
};

export interface MachineOptions {
  /** Stochastic rounding seed; RNE when undefined. */
  readonly srSeed?: number;
  readonly overflow: OverflowPolicy;
}

/** The most ranks the device can run with data. */
export function maxDeviceRanks(profile: ArchProfile): number {
  return profile.neuronCores * profile.queuesPerEngine;
}

/** @throws UsageError when a device cannot run `ranks` ranks with data. */
export function checkDeviceRanks(ranks: number, profile: ArchProfile): void {
  if (ranks > maxDeviceRanks(profile)) {
    throw new UsageError(
      `${ranks} ranks: a ${profile.name} device runs at most ${maxDeviceRanks(profile)} with data; use --timing-only`,
    );
  }
}

/** MODEL: rank r's channel c runs on engine (r mod cores)·16 + c, queue ⌊r / cores⌋. */
function legQueue(p: ArchProfile, rank: number, channel: number): QueueId {
  return {
    engine: (rank % p.neuronCores) * p.dmaEnginesPerCore + channel,
    queue: Math.floor(rank / p.neuronCores),
  };
}

/** The inverse of {@link legQueue}: [rank, channel]. */
function rankAndChannel(p: ArchProfile, q: QueueId): [number, number] {
  const core = Math.floor(q.engine / p.dmaEnginesPerCore);
  return [q.queue * p.neuronCores + core, q.engine % p.dmaEnginesPerCore];
}

/** Where the rings sit: at the start of HBM, one TX and one RX ring of RING_SLOTS per queue. */
const RING_AREA = { ringBase: HBM_BASE, slots: RING_SLOTS } as const;

/**
 * Where a plan's buffers sit on the device (after the ring area), known before any device or
 * buffer exists (only the plan's sizes are read).
 */
export function deviceLayout(plan: Plan, profile: ArchProfile): BufferLayout {
  return new BufferLayout(plan, ringAreaEnd(profile, RING_AREA));
}

/** @throws UsageError when the layout's buffers do not fit the profile's HBM. */
export function checkHbm(layout: BufferLayout, profile: ArchProfile): void {
  if (layout.endOffset > profile.hbmBytes) {
    throw new UsageError(
      `the buffers need ${formatBytes(Number(layout.endOffset))} of HBM; ${profile.name} has ${formatBytes(Number(profile.hbmBytes))}: use --timing-only, fewer ranks or a smaller size`,
    );
  }
}

export class DeviceMachine {
  readonly device: Device;
  readonly layout: BufferLayout;
  private readonly rings: VringPool;
  /** Every engine event, in execution order, with the leg that posted it. */
  readonly events: { readonly leg: number; readonly event: EngineEvent }[] = [];
  private readonly pending: number[] = [];

  /** @throws UsageError when the plan has more ranks than the device has queues for. */
  constructor(
    readonly plan: Plan,
    readonly profile: ArchProfile,
    readonly opts: MachineOptions,
  ) {
    checkDeviceRanks(plan.ranks, profile);
    this.device = new Device(profile, { overflow: opts.overflow });
    const { srSeed } = opts;
    this.rings = new VringPool(this.device, {
      ...RING_AREA,
      ...(srSeed === undefined
        ? {}
        : { srSeedOf: (q: QueueId) => queueSeed(srSeed, ...rankAndChannel(profile, q)) }),
    });
    this.layout = deviceLayout(plan, profile);
    checkHbm(this.layout, profile);
  }

  /**
   * Paint the guards and pre-fill outputs and scratch, in place in device memory (no buffer of a
   * buffer's size is made); inputs are then written by {@link writeInput}.
   */
  prefill(): void {
    const mem = this.device.memory;
    for (let r = 0; r < this.plan.ranks; r++) {
      for (const g of this.layout.guards(r)) mem.fill(g.addr, g.bytes, GUARD_FILL);
      for (const b of ["output", "scratch"] as const) {
        const s = this.layout.buffer(r, b);
        if (s.bytes > 0) mem.fill(s.addr, s.bytes, OUTPUT_FILL);
      }
    }
  }

  /** Write input bytes of a rank, starting at element `firstElem` (inputs/generateInputs' sink). */
  writeInput(rank: number, firstElem: number, bytes: Uint8Array): void {
    this.device.memory.write(this.layout.addr({ rank, buffer: "input", elem: firstElem }), bytes);
  }

  /**
   * A reader of buffer elements for the checks (verify.ts): a view of device memory in place when
   * the span lies in one page, else a copy into a reused tile of `maxElems`.
   */
  reader(maxElems: number): BufferReader {
    const eb = dtypeBytes(this.plan.dtype);
    const tile = new Uint8Array(maxElems * eb);
    const mem = this.device.memory;
    return (rank, buffer, from, len) => {
      const addr = this.layout.addr({ rank, buffer, elem: from });
      const bytes = len * eb;
      const view = mem.peek(addr, bytes);
      if (view !== undefined) return view;
      const out = tile.subarray(0, bytes);
      mem.readInto(addr, out);
      return out;
    };
  }

  /** Host bytes of device pages this machine has allocated (touched). */
  get pageBytes(): number {
    return this.device.memory.allocatedBytes;
  }

  /**
   * Give the device's memory back for the next machine to reuse (engine/page-arenas): this machine
   * must not be used after. What a run does once it has read what it needs, so a sweep's peak is
   * its largest size, not the sum.
   */
  release(): void {
    this.device.memory.release();
    this.events.length = 0;
  }

  private vring(leg: Leg): Vring {
    return this.rings.get(legQueue(this.profile, leg.rank, leg.queue));
  }

  /** The runtime calls of a leg, in order: one per packet (SB2SB legs: staged, sb2sb-legs.ts). */
  private *calls(leg: Leg): Generator<Sb2sbPacket> {
    const { dtype, op } = this.plan;
    const addr = (ref: BufRef, plus: number) => this.layout.addr(ref, plus);
    if (isSb2sb(leg)) {
      yield* sb2sbLegCalls(this.profile, leg, dtype, op, addr);
      return;
    }
    const eb = dtypeBytes(dtype);
    const alu = legAluOp(leg, op);
    const cceInfo: CceInfo | null =
      alu === "fma"
        ? {
            numSources: leg.srcs.length,
            numDests: leg.dsts.length,
            fmaInfo: { scaleDtype: Dtype.FP32, scale: leg.srcs.map(sourceScale) },
          }
        : null;
    for (const pk of legPackets(this.profile, leg, dtype)) {
      const size = pk.count * eb;
      if (alu === undefined) {
        const src = addr((leg.srcs[0] as LegSource).ref, pk.start);
        yield { kind: "copy", copy: { src, dst: addr(leg.dsts[0] as BufRef, pk.start), size } };
      } else {
        const sources = leg.srcs.map((s) => addr(s.ref, pk.start));
        const dests = leg.dsts.map((d) => addr(d, pk.start));
        yield { kind: "cce", cce: { op: KBIN_OP[alu], sources, dests, size, inDtype: dtype, cceInfo } };
      }
    }
  }

  /** Post every packet of a leg; a full ring first drains what is posted. */
  post(leg: Leg): void {
    const vring = this.vring(leg);
    for (const call of this.calls(leg)) {
      const postOnce = () =>
        call.kind === "copy" ? addDmaPacket(vring, call.copy) : addDmaPacketCce(vring, call.cce);
      let written: ReturnType<typeof postOnce>;
      try {
        written = postOnce();
      } catch (e) {
        if (!(e instanceof RingFullError)) throw e;
        this.run();
        written = postOnce();
      }
      if (isEinval(written))
        throw new DeviceFault(`leg ${leg.id}: the runtime refused the packet: ${written.message}`);
      this.pending.push(leg.id);
    }
  }

  /** Run the device until every posted packet has executed. @throws DeviceFault on a fault or stall. */
  run(): void {
    const report = this.device.run();
    const problems = [...report.faults.map((f) => f.message), ...report.stalls.map((s) => s.reason)];
    if (problems.length > 0) throw new DeviceFault(`device: ${problems.join("; ")}`);
    // Queues run round-robin, so events come out interleaved; match them to legs by queue order.
    const byQueue = new Map<string, number[]>();
    for (const id of this.pending.splice(0)) {
      const leg = this.plan.legs[id] as Leg;
      const p = this.profile;
      const k = `${(leg.rank % p.neuronCores) * p.dmaEnginesPerCore + leg.queue}:${Math.floor(leg.rank / p.neuronCores)}`;
      const list = byQueue.get(k) ?? [];
      list.push(id);
      byQueue.set(k, list);
    }
    for (const event of report.events) {
      const list = byQueue.get(`${event.engine}:${event.queue}`);
      this.events.push({ leg: list?.shift() ?? -1, event });
    }
  }

  /** Execute the whole plan, batch by batch. */
  execute(onBatch?: (legsDone: number) => void): void {
    const legs = this.plan.legs;
    let i = 0;
    while (i < legs.length) {
      const first = i;
      while (i < legs.length && (legs[i] as Leg).after.every((a) => a < first)) this.post(legs[i++] as Leg);
      this.run();
      onBatch?.(i);
    }
  }

  /** Read a rank's buffer back. */
  read(rank: number, buffer: "input" | "output" | "scratch"): Uint8Array {
    const s = this.layout.buffer(rank, buffer);
    return this.device.memory.read(s.addr, s.bytes);
  }
}
