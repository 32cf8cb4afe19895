/**
 * The simulated device: memory map, DMA engines × queues, and the executor. The host reaches it
 * only through memory (descriptor bytes in rings, data) and registers (ring base / size, doorbell):
 * no JS object crosses from host to device (DESIGN.md).
 *
 * Scheduling: `step()` executes one packet — the next queue in round-robin order (engine-major,
 * GROUND_TRUTH: "round-robin across queues") that can make progress; on a profile with
 * `queueArbitration: "qos"` (Trn3) the highest QoS class first, round-robin inside it (qos.ts);
 * within a queue packets run in ring order. A packet whose descriptor carries a stale ring_id is not consumed: the queue stalls and
 * `run()` reports it. A fault stops its queue (until its ring base is reprogrammed) and is reported;
 * other queues go on.
 */
import { finiteArg, uintArg } from "../bits/arg-check.js";
import { FieldError, SdmakitError } from "../bits/errors.js";
import { checkOptions, type OptionRules } from "../bits/option-check.js";
import { type ArchProfile, archProfile } from "../hal/arch-profile.js";
import { RegisterFile } from "../hal/register-file.js";
import { OVERFLOW_POLICIES, type OverflowPolicy } from "../numerics/index.js";
import { engineSpans } from "../spec/address-map.js";
import { DESCRIPTOR_BYTES, MAX_PACKET_DESCRIPTORS } from "../spec/packet-model.js";
import {
  M2S_QUEUES_OFFSET,
  Q_SW_CTRL_RST_Q,
  QUEUE_BLOCK_BYTES,
  QUEUE_CFG_ENABLE,
  type QueueReg,
  queueRegAt,
  S2M_QUEUES_OFFSET,
  SEMAPHORE_COUNT,
} from "../spec/udma-regs.js";
import { type CostModel, ProfileCostModel } from "./cost-model.js";
import { type Descriptor, dataLength, isFirst, isLast, ringId, toDescriptor } from "./decode/descriptor.js";
import { DescriptorFault, type DescriptorRef, type QueueStall, WatchdogFault } from "./decode/faults.js";
import { rxStreamBytes } from "./decode/packet-plan.js";
import { PlanCache } from "./decode/plan-cache.js";
import { DmaQueue, type Ring, UNCHECKED_READER } from "./dma-queue.js";
import type { EngineEvent } from "./execute/events.js";
import { Executor } from "./execute/execute.js";
import {
  DeviceMemory,
  MEMORY_BUDGET_RULE,
  MemoryBudgetError,
  MemoryFault,
  pageOffset,
} from "./memory/memory.js";
import { describeAddress, deviceMemoryMap, engineCount } from "./memory/memory-map.js";
import { DEFAULT_QOS_CLASS, QOS_SERVICE_ORDER, qosClassOf, qosQueueAt } from "./qos.js";
import { SemaphoreBlock, type SemaphoreListener } from "./semaphores.js";

export interface DeviceOptions {
  /** The register file the SDMA space is routed to (default: a new one that keeps no access log). */
  readonly regs?: RegisterFile;
  /**
   * The default register file's `logLimit` (RegisterFileOptions): 0, no log, unless asked — a log
   * of every doorbell of a long run costs garbage-collection time. Ignored when `regs` is given.
   */
  readonly registerLog?: number;
  /** Timing (default {@link ProfileCostModel}); never changes a functional result. */
  readonly costModel?: CostModel;
  /**
   * What a finite value too large for a narrow output dtype becomes (numerics OverflowPolicy).
   * MODEL default `nan`: public Neuron docs say out-of-range values end as NaN on device.
   */
  readonly overflow?: OverflowPolicy;
  /** Called after every semaphore change. */
  readonly onSemaphore?: SemaphoreListener;
  /**
   * The watchdog: packets one `run()` may execute before it stops with a {@link WatchdogFault}
   * (default {@link DEFAULT_PACKET_BUDGET}); a positive integer or Infinity.
   */
  readonly packetBudget?: number;
  /**
   * Keep every executed packet's event in {@link Device.events} (default true). A caller that reads
   * only what `run()` returns (the collectives' device machine) passes false: a history kept for
   * the whole life of the device is objects that survive collection after collection, which costs
   * the garbage collector time in every packet of a long run.
   */
  readonly keepEvents?: boolean;
  /**
   * The most bytes of host memory the device's memory pages may take (default Infinity): a write,
   * by the host or by a packet, that needs a page past it throws a MemoryBudgetError before
   * allocating — from `run()` / `step()`, not as a queue's fault (DeviceMemoryOptions.budgetBytes).
   */
  readonly memoryBudget?: number;
  /**
   * Back device memory with shared memory, so worker threads can read and write its pages in place
   * (DeviceMemoryOptions.shared; default false).
   */
  readonly sharedMemory?: boolean;
}

/**
 * The default packet budget of one run(): generous — sdmakit's runtime drains the device when a ring
 * is full, its rings hold ≤ 1024 slots and a device has ≤ 2048 queues, so a run that does not re-arm
 * queues executes at most ~2^21 packets; only packets that re-post queues (review D8) run this long.
 * Such a run ends after ~2 min at ~25 µs a small packet, with ~1.5 GB of events (a smaller budget:
 * DeviceOptions.packetBudget or run(budget)).
 */
export const DEFAULT_PACKET_BUDGET = 1 << 22;
/** The watchdog names the queues of this many last packets. */
const WATCHDOG_RECENT = 256;

/** The faults or stalls of a report that has none (shared: never added to). */
const NONE: readonly never[] = Object.freeze([]);

/** A packet budget: a positive integer or Infinity. */
const PACKET_BUDGET_RULE = {
  check: (b: unknown) => b === Number.POSITIVE_INFINITY || (Number.isSafeInteger(b) && (b as number) > 0),
  allowed: "a positive integer or Infinity",
};

/** What each DeviceOptions key takes (option-check.ts). */
const DEVICE_OPTION_RULES: OptionRules = {
  regs: { check: (r) => r instanceof RegisterFile, allowed: "a RegisterFile" },
  registerLog: {
    check: (n) => n === Number.POSITIVE_INFINITY || (Number.isSafeInteger(n) && (n as number) >= 0),
    allowed: "a non-negative integer or Infinity",
  },
  costModel: {
    check: (m) => typeof (m as CostModel | null)?.durationNs === "function",
    allowed: "an object with durationNs(work)",
  },
  overflow: { oneOf: OVERFLOW_POLICIES },
  onSemaphore: { check: (f) => typeof f === "function", allowed: "a function" },
  packetBudget: PACKET_BUDGET_RULE,
  keepEvents: { boolean: true },
  memoryBudget: MEMORY_BUDGET_RULE,
  sharedMemory: { boolean: true },
};

/** The profile `arch` names, or the profile given. @throws UsageError, FieldError otherwise. */
function profileOf(arch: unknown): ArchProfile {
  if (typeof arch === "string" || typeof arch === "number") return archProfile(arch);
  if (typeof (arch as ArchProfile | null)?.queuesPerEngine === "number") return arch as ArchProfile;
  throw new FieldError("Device", "arch", arch, "an ArchProfile or a name (trn1 | trn2 | trn3)");
}

/** What one `step()` did. */
export type StepResult = { readonly event: EngineEvent } | { readonly fault: DescriptorFault };

/** One packet's outcome, unwrapped: its event, or the fault that stopped its queue. */
type Outcome = EngineEvent | DescriptorFault;

/** A queue register: its queue, ring and name (DMA_QUEUE register offsets), its offset in its engine's space. */
interface Located {
  q: DmaQueue;
  idx: number;
  ring: Ring;
  name: "tx" | "rx";
  reg: QueueReg | undefined;
  off: number;
}

/**
 * What `runCount()` did: packets executed (faulted ones included), and those that could not run. A
 * report with no fault (or no stall) shares one frozen empty array: not the caller's to add to.
 */
export interface CountReport {
  readonly executed: number;
  readonly faults: readonly DescriptorFault[];
  /** Queues left with posted work they cannot consume, and why. */
  readonly stalls: readonly QueueStall[];
}

/** What `run()` did: the events of the packets executed, and those that could not run. */
export interface RunReport extends Omit<CountReport, "executed"> {
  readonly events: readonly EngineEvent[];
}

/** @throws FieldError when `budget` is not a packet budget. */
function checkBudget(context: string, budget: unknown): void {
  if (!PACKET_BUDGET_RULE.check(budget))
    throw new FieldError(context, "packetBudget", budget, PACKET_BUDGET_RULE.allowed);
}

export class Device {
  readonly profile: ArchProfile;
  readonly memory: DeviceMemory;
  readonly regs: RegisterFile;
  readonly costModel: CostModel;
  readonly overflow: OverflowPolicy;
  /** The watchdog's packets per run() (DeviceOptions.packetBudget). */
  readonly packetBudget: number;
  /** Every executed packet, in execution order (empty with DeviceOptions.keepEvents false). */
  readonly events: EngineEvent[] = [];
  private readonly keepEvents: boolean;
  /** Event-block semaphores by block number (NeuronCore c, or 8 + TopSP j). */
  readonly semaphores = new Map<number, SemaphoreBlock>();
  /**
   * The queues made so far, by index (engine-major): a queue is made when first reached (a register
   * write, {@link queue}); a run uses a few dozen of a profile's up to 2048, and making them all
   * (each with its rings and SR stream) was a share of every run's set-up.
   */
  private readonly queues: (DmaQueue | undefined)[];
  private readonly engineClock: Float64Array;
  /**
   * The registers outside every queue's blocks, as last written (a queue's own are on its rings
   * and in its DmaQueue.shadow: a map keyed by bigint cost ≈ 1 µs a write in the collectives'
   * run, which rings a doorbell a ring a leg).
   */
  private readonly csrValues = new Map<bigint, number>();
  /** Trn3: each queue's QoS class, as its udma_qos_ctrl register was last written (qos.ts). */
  private readonly qosClass: Uint8Array | undefined;
  private readonly executor: Executor;
  /** Compute packets planned once per shape (plan-cache.ts). */
  private readonly plans: PlanCache;
  /** Queue indices with posted work, ascending (the round-robin order). */
  private readonly posted: number[] = [];
  /** Faults raised by a doorbell (bad ring, overflow), reported by the next run(). */
  private readonly doorbellFaults: DescriptorFault[] = [];
  private cursor = 0;
  /** The profile's SDMA engine stride as a Number (register decoding runs for every doorbell). */
  private readonly engineStride: number;
  /** The engines' register spans (one per DMA group) as Numbers: [first engine, base, end]. */
  private readonly csrSpans: readonly (readonly [number, number, number])[];
  /** The offset in its engine's register space of the byte {@link engineOf} last placed. */
  private hitOffset = 0;
  /** What {@link locate} last found. */
  private located: Located | undefined;
  /** The queue index of each of the last WATCHDOG_RECENT packets executed in a run (ring order). */
  private readonly recent = new Int32Array(WATCHDOG_RECENT);

  /**
   * @param arch a profile or its name (`trn1` | `trn2` | `trn3`, codename or arch code).
   * @throws UsageError for an unknown arch; FieldError for an option that is not one (option-check.ts).
   * @example const dev = new Device("trn2");
   */
  constructor(arch: ArchProfile | string | number, options: DeviceOptions = {}) {
    this.profile = profileOf(arch);
    checkOptions("Device", options, DEVICE_OPTION_RULES);
    this.memory = new DeviceMemory({
      budgetBytes: options.memoryBudget ?? Infinity,
      shared: options.sharedMemory === true,
    });
    this.regs = options.regs ?? new RegisterFile({ logLimit: options.registerLog ?? 0 });
    this.costModel = options.costModel ?? new ProfileCostModel(this.profile);
    this.overflow = options.overflow ?? "nan";
    this.packetBudget = options.packetBudget ?? DEFAULT_PACKET_BUDGET;
    this.keepEvents = options.keepEvents ?? true;
    this.engineStride = Number(this.profile.sdmaEngineStride);
    const spans = engineSpans(this.profile);
    this.csrSpans = spans.map((sp) => [sp.first, Number(sp.base), Number(sp.base + sp.bytes)] as const);
    const engines = engineCount(this.profile);
    this.qosClass =
      this.profile.queueArbitration === "qos"
        ? new Uint8Array(engines * this.profile.queuesPerEngine).fill(DEFAULT_QOS_CLASS)
        : undefined;
    this.engineClock = new Float64Array(engines);
    this.queues = new Array<DmaQueue | undefined>(engines * this.profile.queuesPerEngine).fill(undefined);
    const listener: SemaphoreListener = options.onSemaphore ?? (() => {});
    this.memory.mapAll(
      deviceMemoryMap(this.profile).map((entry) => {
        if (entry.name.startsWith("sdma-csr")) {
          return {
            ...entry,
            onWrite32: (addr: bigint, v: number) => this.regs.write32(addr, v, "device-mmio"),
            onRead32: (addr: bigint) => this.regs.read32(addr, "device-mmio"),
          };
        }
        if (entry.kind === "mmio") {
          const block = new SemaphoreBlock(entry.core as number, entry.base, listener);
          this.semaphores.set(block.block, block);
          return {
            ...entry,
            onWrite32: (a: bigint, v: number) => block.write32(a, v),
            onRead32: (a: bigint) => block.read32(a),
            refuseWrite32: (a: bigint) => block.refusal(a),
          };
        }
        return entry;
      }),
    );
    for (const span of spans) {
      this.regs.handle(span.base, span.bytes, {
        onWrite: (addr, v) => this.csrWrite(addr, v),
        onRead: (addr) => this.csrRead(addr),
      });
    }
    this.plans = new PlanCache(this.profile);
    this.executor = new Executor({ profile: this.profile, memory: this.memory, overflow: this.overflow });
  }

  /** Queue `queue` of DMA engine `engine`. @throws FieldError outside the profile. */
  queue(engine: number, queue: number): DmaQueue {
    const e = this.engineArg("Device.queue", engine);
    const q = uintArg("Device.queue", "queue", queue, this.profile.queuesPerEngine - 1);
    return this.queueAt(e * this.profile.queuesPerEngine + q);
  }

  /** The queue of index `idx` (engine-major, inside the profile), made on first use. */
  private queueAt(idx: number): DmaQueue {
    let q = this.queues[idx];
    if (q === undefined) {
      const per = this.profile.queuesPerEngine;
      q = new DmaQueue(Math.floor(idx / per), idx % per);
      this.queues[idx] = q;
    }
    return q;
  }

  /** The value of semaphore `index` of event block `block`. @throws FieldError for either outside the profile. */
  semaphore(block: number, index: number): number {
    const b = this.semaphores.get(block);
    if (!b) {
      const blocks = [...this.semaphores.keys()];
      throw new FieldError(
        "Device.semaphore",
        "block",
        block,
        `one of ${blocks.join(", ")} on ${this.profile.name}`,
      );
    }
    return b.values[uintArg("Device.semaphore", "index", index, SEMAPHORE_COUNT - 1)] as number;
  }

  /** The time (ns) at which engine `engine` is next free. @throws FieldError outside the profile. */
  engineTime(engine: number): number {
    return this.engineClock[this.engineArg("Device.engineTime", engine)] as number;
  }

  /**
   * Hold engine `engine` until `ns` (a dependency the caller models, e.g. a semaphore wait).
   * @throws FieldError for an engine outside the profile or a time that is not a finite ns ≥ 0.
   */
  advanceEngine(engine: number, ns: number): void {
    const e = this.engineArg("Device.advanceEngine", engine);
    finiteArg("Device.advanceEngine", "ns", ns, Number.MAX_VALUE);
    if ((this.engineClock[e] as number) < ns) this.engineClock[e] = ns;
  }

  /** An engine of the profile. @throws FieldError otherwise. */
  private engineArg(context: string, engine: unknown): number {
    return uintArg(context, "engine", engine, this.engineClock.length - 1);
  }

  /**
   * Execute one packet from the next queue, round-robin, that can progress. Queues that cannot
   * (stale phase, incomplete packet) record why in `queue.stall`. Returns undefined when no queue
   * can progress.
   */
  step(): StepResult | undefined {
    const r = this.next();
    if (r === undefined) return undefined;
    return r instanceof DescriptorFault ? { fault: r } : { event: r };
  }

  /** {@link step} without wrapping its outcome (run() takes one per packet). */
  private next(): Outcome | undefined {
    const order = this.posted;
    let start = 0;
    while (start < order.length && (order[start] as number) < this.cursor) start++;
    if (!this.qosClass) return this.serve(start, -1);
    for (const cls of QOS_SERVICE_ORDER) {
      const r = this.serve(start, cls);
      if (r) return r;
    }
    return undefined;
  }

  /** Round-robin from `start` over the posted queues (of QoS class `cls`, unless −1). */
  private serve(start: number, cls: number): Outcome | undefined {
    const order = this.posted;
    for (let k = 0, n = order.length; k < n; k++) {
      const idx = order[(k + start) % n] as number;
      if (cls >= 0 && this.qosClass?.[idx] !== cls) continue;
      const q = this.queues[idx] as DmaQueue;
      if (!q.runnable) continue;
      const result = this.runPacket(q, idx);
      if (result) {
        this.cursor = idx + 1;
        return result;
      }
    }
    return undefined;
  }

  /**
   * Step until no queue can progress. After `packetBudget` packets (default the device's) with work
   * still runnable, stop and report a {@link WatchdogFault} naming the queues, rather than hang.
   * @throws FieldError when the budget is not a positive integer or Infinity.
   */
  run(packetBudget = this.packetBudget): RunReport {
    checkBudget("Device.run", packetBudget);
    const events: EngineEvent[] = [];
    const { faults, stalls } = this.drain(packetBudget, events);
    return { events, faults, stalls };
  }

  /**
   * {@link run} for a caller that only counts the packets: the same execution, faults, stalls and
   * watchdog, with no event listed — with DeviceOptions.keepEvents false no event object is made
   * at all (one is filled in place packet after packet), which a long run's collector pays for.
   * @throws FieldError as {@link run}.
   */
  runCount(packetBudget = this.packetBudget): CountReport {
    checkBudget("Device.runCount", packetBudget);
    return this.drain(packetBudget, undefined);
  }

  /**
   * Step until no queue can progress or `budget` packets ran; each event into `events` when given.
   * A report with no fault or stall shares {@link NONE}: the collectives drain once a leg.
   */
  private drain(budget: number, events: EngineEvent[] | undefined): CountReport {
    let faults: DescriptorFault[] | undefined =
      this.doorbellFaults.length === 0 ? undefined : this.doorbellFaults.splice(0);
    // Nothing keeps the events: the executor may fill one object in place.
    this.executor.reuseWork = events === undefined && !this.keepEvents;
    let n = 0;
    let done = 0;
    try {
      for (let r = this.next(); r; r = n < budget ? this.next() : undefined) {
        n++;
        if (r instanceof DescriptorFault) faults = added(faults, r);
        else {
          this.recent[done++ % WATCHDOG_RECENT] = r.engine * this.profile.queuesPerEngine + r.queue;
          events?.push(r);
        }
      }
    } finally {
      this.executor.reuseWork = false;
    }
    if (n >= budget) {
      const fault = this.watchdog(n, done);
      if (fault) faults = added(faults, fault);
    }
    let stalls: QueueStall[] | undefined;
    for (const i of this.posted) {
      const s = this.queues[i]?.stall;
      if (s !== undefined) stalls = added(stalls, s);
    }
    return { executed: n, faults: faults ?? NONE, stalls: stalls ?? NONE };
  }

  /**
   * The watchdog fault after `n` packets, naming the queues the last packets ran on (a ping-pong's
   * both sides, not only the one holding work this instant; `done` of them executed, the queues of
   * the last WATCHDOG_RECENT in {@link recent}); undefined when no work is left.
   */
  private watchdog(n: number, done: number): WatchdogFault | undefined {
    const busy = this.posted.map((i) => this.queues[i] as DmaQueue).find((q) => q.runnable && !q.stall);
    if (!busy) return undefined;
    const seen = new Set<number>([busy.engine * this.profile.queuesPerEngine + busy.queue]);
    for (let k = Math.max(0, done - WATCHDOG_RECENT); k < done; k++)
      seen.add(this.recent[k % WATCHDOG_RECENT] as number);
    const queues = [...seen].sort((a, b) => a - b).map((i) => this.queues[i] as DmaQueue);
    return new WatchdogFault(this.ref(busy, "tx", busy.tx.head), n, queues);
  }

  private runPacket(q: DmaQueue, idx: number): Outcome | undefined {
    try {
      const tx = this.fetch(q, q.tx, -1);
      if (!Array.isArray(tx)) return this.stalled(q, tx);
      const rx = this.fetch(q, q.rx, rxStreamBytes(tx));
      if (!Array.isArray(rx)) return this.stalled(q, rx);
      const plan = this.plans.plan(tx, rx);
      const n = tx.length + rx.length;
      const work = this.executor.run(plan, q.engine, q.queue, n, q.sr);
      // start / end and the slots assigned onto the work (no Object.assign of a temporary per packet).
      const event = work as { -readonly [K in keyof EngineEvent]: EngineEvent[K] };
      event.txSlot = q.tx.head;
      event.rxSlot = q.rx.head;
      q.tx.consume(tx.length);
      q.rx.consume(rx.length);
      q.stall = undefined;
      if (q.tx.posted === 0 && q.rx.posted === 0) this.unpost(idx);
      const start = this.engineClock[q.engine] ?? 0;
      const end = start + this.costModel.durationNs(work);
      event.start = start;
      event.end = end;
      this.engineClock[q.engine] = end;
      if (this.keepEvents) this.events.push(event);
      return event;
    } catch (e) {
      if (!(e instanceof SdmakitError) || e instanceof MemoryBudgetError) throw e;
      const fault =
        e instanceof DescriptorFault ? e : new DescriptorFault(this.ref(q, "tx", q.tx.head), e.message);
      q.fault = fault;
      this.unpost(idx);
      return fault;
    }
  }

  /**
   * Add a queue to the round-robin order (kept ascending), shifting the larger ones up in place:
   * a splice makes an array of what it removes (none), and the collectives post and unpost a
   * queue every leg.
   */
  private post(idx: number): void {
    const order = this.posted;
    let i = order.length;
    while (i > 0 && (order[i - 1] as number) > idx) i--;
    if (order[i - 1] === idx) return;
    for (let k = order.length; k > i; k--) order[k] = order[k - 1] as number;
    order[i] = idx;
  }

  /** Take a queue out of the round-robin order, shifting the larger ones down in place (as {@link post}). */
  private unpost(idx: number): void {
    const order = this.posted;
    const i = order.indexOf(idx);
    if (i < 0) return;
    for (let k = i; k < order.length - 1; k++) order[k] = order[k + 1] as number;
    order.length--;
  }

  private stalled(q: DmaQueue, stall: QueueStall): undefined {
    q.stall = stall;
    return undefined;
  }

  private ref(q: DmaQueue, ring: "tx" | "rx", slot: number): DescriptorRef {
    return { engine: q.engine, queue: q.queue, ring, slot };
  }

  /**
   * Fetch one packet's chain from the head (into `ring.fetched`, reused packet after packet); or
   * why the queue cannot progress. `rxBytes` < 0: the M2S chain, FIRST to LAST. Otherwise the S2M
   * chain, whose descriptors carry no FIRST / LAST (aws-neuron-driver udma.h): the descriptors
   * until their lengths cover `rxBytes` (packet-plan.ts rxStreamBytes), one descriptor when 0.
   */
  private fetch(q: DmaQueue, ring: Ring, rxBytes: number): Descriptor[] | QueueStall {
    const bad = ring.misconfiguration();
    if (bad) throw new DescriptorFault(this.ref(q, ring.name, ring.head), bad);
    const descs = ring.fetched;
    let n = 0;
    const page = this.ringPage(ring);
    const at = page === undefined ? 0 : pageOffset(ring.baseNumber);
    // Slot and phase advance as the head does (Ring.slotOf / phaseOf), one descriptor at a time.
    let slot = ring.head;
    let phase = ring.phase;
    let covered = 0;
    for (let k = 0; k < ring.posted; k++) {
      const d =
        page === undefined ? this.fetchSlot(q, ring, slot) : ring[UNCHECKED_READER].read(n, slot, page, at);
      if (ringId(d) !== phase) {
        const reason = `ring_id ${ringId(d)} is not the ring's phase ${phase}: descriptor not consumed`;
        return { engine: q.engine, queue: q.queue, at: d.ref, reason };
      }
      if (rxBytes < 0) checkFirst(d, k);
      descs[n++] = d;
      covered += rxBytes < 0 ? 0 : dataLength(d);
      if (rxBytes < 0 ? isLast(d) : covered >= rxBytes) {
        // Packets of one leg have one length: the array keeps it, no resize per packet.
        if (descs.length !== n) descs.length = n;
        return descs;
      }
      if (n > 2 * MAX_PACKET_DESCRIPTORS)
        throw new DescriptorFault(
          d.ref,
          `packet runs past ${2 * MAX_PACKET_DESCRIPTORS} descriptors (the hardware maximum) ${rxBytes < 0 ? "without LAST" : `before its S2M descriptors cover ${rxBytes} bytes`}`,
        );
      if (++slot === ring.slots) {
        slot = 0;
        phase = (phase + 1) % 4;
      }
    }
    return {
      engine: q.engine,
      queue: q.queue,
      at: this.ref(q, ring.name, ring.head),
      reason:
        rxBytes < 0
          ? `${ring.posted} ${ring.name} descriptor(s) posted, none with LAST: packet incomplete`
          : `${ring.posted} ${ring.name} descriptor(s) posted cover ${covered} of the packet's ${rxBytes} bytes: packet incomplete`,
    };
  }

  /**
   * The page holding the whole ring when it is plain memory in one page (its slots' descriptors are
   * then read in place); else undefined (fetched slot by slot). A miss of memory's number fast path
   * asks the region once, so a ring in another region than the last access still takes it. The
   * ring keeps the page (DeviceMemory.keptPageAt: two look-ups a packet saved).
   */
  private ringPage(ring: Ring): Uint8Array | undefined {
    const len = ring.slots * DESCRIPTOR_BYTES;
    const keep = ring.fetchPage;
    const page = this.memory.keptPageAt(keep, ring.baseNumber, len);
    if (page !== undefined) return page;
    try {
      this.memory.regionOf(ring.base, len, "descriptor fetch");
    } catch (e) {
      // Part of the ring is not memory: the per-slot fetch then names the slot that faults.
      if (e instanceof MemoryFault) return undefined;
      throw e;
    }
    return this.memory.keptPageAt(keep, ring.baseNumber, len);
  }

  /**
   * The descriptor in `slot` of a ring not in one page of plain memory (MMIO, a page boundary, a
   * page never written): read through memory, so an access that cannot be done names the slot.
   */
  private fetchSlot(q: DmaQueue, ring: Ring, slot: number): Descriptor {
    const ref = this.ref(q, ring.name, slot);
    try {
      const addr = ring.base + BigInt(slot * DESCRIPTOR_BYTES);
      return toDescriptor(ref, this.memory.read(addr, DESCRIPTOR_BYTES, "descriptor fetch"));
    } catch (e) {
      if (e instanceof MemoryFault)
        throw new DescriptorFault(ref, e.reason, e.addr, describeAddress(this.profile, e.addr));
      throw e;
    }
  }

  /**
   * The queue register at `addr`, in {@link located} (one object filled call after call: a doorbell
   * and two head reads a packet come here, and each caller reads it at once); undefined when none.
   */
  private locate(addr: bigint): Located | undefined {
    // Number arithmetic and no closure: a doorbell and two head reads per packet come through here.
    const engine = this.engineOf(addr);
    if (engine < 0) return undefined;
    const off = this.hitOffset;
    const block = this.profile.queuesPerEngine * QUEUE_BLOCK_BYTES;
    const name =
      off >= M2S_QUEUES_OFFSET && off < M2S_QUEUES_OFFSET + block
        ? "tx"
        : off >= S2M_QUEUES_OFFSET && off < S2M_QUEUES_OFFSET + block
          ? "rx"
          : undefined;
    if (!name) return undefined;
    const queue = Math.floor(
      (off - (name === "tx" ? M2S_QUEUES_OFFSET : S2M_QUEUES_OFFSET)) / QUEUE_BLOCK_BYTES,
    );
    const idx = engine * this.profile.queuesPerEngine + queue;
    const q = this.queueAt(idx);
    const at = this.located ?? { q, idx, ring: q.tx, name, reg: undefined, off };
    this.located = at;
    at.q = q;
    at.idx = idx;
    at.ring = name === "tx" ? q.tx : q.rx;
    at.name = name;
    at.reg = queueRegAt(name, off % QUEUE_BLOCK_BYTES);
    at.off = off;
    return at;
  }

  /**
   * Which engine's register space the byte at `addr` is in (its offset there in {@link hitOffset}),
   * or −1 outside every engine. Every register address is below 2^53: exact as a Number.
   */
  private engineOf(addr: bigint): number {
    const a = Number(addr);
    for (const [first, base, end] of this.csrSpans) {
      if (a >= base && a < end) {
        const k = Math.floor((a - base) / this.engineStride);
        this.hitOffset = a - base - k * this.engineStride;
        return first + k;
      }
    }
    return -1;
  }

  /** A udma_qos_ctrl write sets its queue's class (Trn3; elsewhere the register is only stored). */
  private qosWrite(addr: bigint, v: number): void {
    if (!this.qosClass) return;
    const engine = this.engineOf(addr);
    if (engine < 0) return;
    const queue = qosQueueAt(this.hitOffset, this.profile.queuesPerEngine);
    if (queue !== undefined) this.qosClass[engine * this.profile.queuesPerEngine + queue] = qosClassOf(v);
  }

  private csrWrite(addr: bigint, v: number): void {
    const at = this.locate(addr);
    if (!at) {
      this.csrValues.set(addr, v);
      this.qosWrite(addr, v);
      return;
    }
    const { q, idx, ring, name } = at;
    if (at.reg === "drtp_inc") ring.doorbell = v;
    else q.shadow.set(at.off, v);
    switch (at.reg) {
      case "cfg":
        // udma_q_enable sets / clears EN_PREF and EN_SCHEDULING together; a ring runs with both.
        ring.enabled = (v & QUEUE_CFG_ENABLE) === QUEUE_CFG_ENABLE;
        break;
      case "q_sw_ctrl":
        if ((v & Q_SW_CTRL_RST_Q) !== 0) this.resetRing(q, ring);
        break;
      case "drbp_lo":
        ring.baseLo = v;
        this.resetRing(q, ring);
        break;
      case "drbp_hi":
        ring.baseHi = v;
        break;
      case "drl":
        ring.slots = v;
        break;
      case "drtp_inc": {
        const bad = ring.misconfiguration();
        const why = bad
          ? `doorbell on a misconfigured ring: ${bad}`
          : ring.posted + v > ring.slots - 1
            ? `doorbell for ${v} descriptors with ${ring.posted} posted overflows a ring of ${ring.slots} slots`
            : undefined;
        if (why) {
          q.fault = new DescriptorFault(this.ref(q, name, ring.head), why);
          this.doorbellFaults.push(q.fault);
        } else ring.posted += v;
        if (ring.posted > 0 && !q.fault) this.post(idx);
        break;
      }
      default:
        break;
    }
  }

  /** A queue reset (q_sw_ctrl RST_Q; MODEL: also a new ring base): the ring starts over, faults clear. */
  private resetRing(q: DmaQueue, ring: Ring): void {
    ring.reset();
    q.fault = undefined;
    q.stall = undefined;
  }

  private csrRead(addr: bigint): number {
    const at = this.locate(addr);
    if (at) {
      if (at.reg === "drhp") return at.ring.head;
      if (at.reg === "drtp") return at.ring.tail;
      if (at.reg === "status") return at.q.status;
      if (at.reg === "drtp_inc") return at.ring.doorbell;
      return at.q.shadow.get(at.off) ?? 0;
    }
    return this.csrValues.get(addr) ?? 0;
  }
}

/** `list` (a new one when undefined) with `item` pushed on. */
function added<T>(list: T[] | undefined, item: T): T[] {
  const out = list ?? [];
  out.push(item);
  return out;
}

/** An M2S chain opens with FIRST and has none inside. @throws DescriptorFault */
function checkFirst(d: Descriptor, k: number): void {
  if (k === 0 && !isFirst(d))
    throw new DescriptorFault(d.ref, "packet does not open with FIRST (len_ctrl bit 26)");
  if (k > 0 && isFirst(d))
    throw new DescriptorFault(
      d.ref,
      "FIRST (len_ctrl bit 26) inside a packet: the previous descriptor lacks LAST",
    );
}
