/**
 * Execute a planned packet against device memory with the real numerics. Reads happen first, every
 * destination is checked for everything that could refuse it before the first byte is written
 * (preflight.ts), so a faulting packet leaves memory, registers and semaphores as they were.
 *
 * MODEL (docs/FIDELITY.md "accumulator start"): ADD / MIN / MAX load the first source
 * (the accumulator starts at the ALU identity: −0, +inf, −inf); FMA starts from a cleared stored
 * buffer, +0 (seed 000 §9.2: acc = s0·scale0 + 0).
 */
import type { ArchProfile } from "../hal/arch-profile.js";
import {
  type AluOp,
  aluApplyEncoded,
  aluApplyEncodedThenEncode,
  aluClamp,
  aluConstantToF32,
  aluFma,
  aluIdentity,
  aluLoadEncoded,
  aluReduceEncoded,
  decodeToF32,
  type EncodedSource,
  encodeFromF32,
  fmaF32,
  type OverflowPolicy,
  RNE,
  type Rounding,
  type SrStream,
  WasmArena,
  wasmHasDtype,
} from "../numerics/index.js";
import { Dtype, dtypeBytes, dtypeName } from "../spec/dtype.js";
import { FmaOperand } from "../spec/enums.js";
import { GCE_HEADER_BYTES, gcePayloadBytes } from "../spec/gce-header.js";
import { type Descriptor, fault } from "./descriptor.js";
import { resolveEmbeddedSem, type SemWrite } from "./embedded-sem-write.js";
import type { EngineEvent, Work, WorkKind } from "./events.js";
import { DescriptorFault } from "./faults.js";
import { gceCompress, gceDecompress, gceHeader, readGceHeader } from "./gce-codec.js";
import { type DeviceMemory, MemoryFault, pageOffset } from "./memory.js";
import { describeAddress } from "./memory-map.js";
import { type CcePlan, type CopyPlan, type PacketPlan, type Segment, segmentAddr } from "./packet-plan.js";
import { type KernelScratch, kernelScratch } from "./page-arenas.js";
import { checkWritable } from "./preflight.js";
import type { TransposePlan } from "./transpose-plan.js";

/** The fma-desc operands of seed 000 §3.1 (a = input, b = scale, c = stored): one kernel step. */
function isPlainFma(fma: NonNullable<CcePlan["sources"][number]["fma"]>): boolean {
  return (
    fma.a === FmaOperand.INPUT_BUFFER && fma.b === FmaOperand.SCALE && fma.c === FmaOperand.STORED_BUFFER
  );
}

/** A compute packet's result before it is delivered. */
interface CceResult {
  /** The result is `outBytes` bytes of `out` from byte `outAt`. */
  readonly out: Uint8Array;
  readonly outAt: number;
  readonly outBytes: number;
  /** `out` is the destination itself (the result was encoded straight into it). */
  readonly inPlace: boolean;
  /** GCE compress: where the header goes. */
  readonly header: Segment | undefined;
  readonly elements: number;
  readonly bytesRead: number;
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };
const EMPTY = new Uint8Array(0);
/** Bytes in place in device memory: `bytes` (a page, or a view of one) from `byteOffset`. */
interface Place {
  readonly bytes: Uint8Array;
  readonly byteOffset: number;
}

/** A packet's event: what it did, then where it ran (run()) and when (the device). */
type Done = Mutable<EngineEvent>;

/**
 * A packet's event with every field in its one literal: fields added to an object after its literal
 * live out of it, in a property array grown (and copied) as they come — three times a packet.
 * Two literals, as a copy's event has no `op` key at all.
 */
function doneOf(
  kind: WorkKind,
  op: AluOp | undefined,
  bytesRead: number,
  bytesWritten: number,
  sources: number,
  destinations: number,
): Done {
  // Where and when: placeholders, set by run() and the device.
  if (op === undefined) {
    return {
      kind,
      bytesRead,
      bytesWritten,
      sources,
      destinations,
      engine: 0,
      queue: 0,
      descriptors: 0,
      txSlot: 0,
      rxSlot: 0,
      barrier: false,
      start: 0,
      end: 0,
    };
  }
  return {
    kind,
    op,
    bytesRead,
    bytesWritten,
    sources,
    destinations,
    engine: 0,
    queue: 0,
    descriptors: 0,
    txSlot: 0,
    rxSlot: 0,
    barrier: false,
    start: 0,
    end: 0,
  };
}

/** A segment's address as a Number for memory's number fast path (the plan's, else converted). */
function numberAt(s: Segment): number {
  return s.at ?? Number(segmentAddr(s));
}

/** The accumulator's first value (MODEL above). */
export function accumulatorStart(op: AluOp): number {
  return op === "fma" ? 0 : aluIdentity(op);
}

/**
 * Reusable buffers, grown on demand: no allocation per element, little per packet. `bytes` is plain
 * staging for copies, transposes and GCE payloads; the kernel scratch is the executor's own
 * WasmArena, used when a packet's first source is not in a device-memory arena (page-arenas.ts) or
 * the packet is larger than that arena's scratch. Made on first use.
 */
class Scratch {
  private bytes = new Uint8Array(1 << 16);
  private kernel: KernelScratch | undefined;

  /** `n` bytes of plain staging (valid until the next call). */
  staging(n: number): Uint8Array {
    if (this.bytes.length < n) this.bytes = new Uint8Array(n);
    return this.bytes.subarray(0, n);
  }

  /** The executor's kernel scratch, grown to hold the request. */
  need(elements: number, outBytes: number, inBytes = 0): KernelScratch {
    const k = this.kernel;
    if (k && k.acc.length >= elements && k.out.length >= outBytes && k.input.length >= inBytes) return k;
    // At least a max-size packet's worth, so a run makes its arena once.
    const count = Math.max(elements, k?.acc.length ?? 0, 1 << 14);
    const io = Math.ceil(Math.max(outBytes, inBytes, k?.out.length ?? 0, 1 << 16) / 16) * 16;
    this.kernel = kernelScratch(new WasmArena(8 * count + 2 * io), 0, count, io);
    return this.kernel;
  }
}

export interface ExecContext {
  readonly profile: ArchProfile;
  readonly memory: DeviceMemory;
  readonly overflow: OverflowPolicy;
}

export class Executor {
  private readonly scratch = new Scratch();
  /** The two sources of {@link reduceTwo}, reused packet after packet (numerics keeps no reference). */
  private readonly pair: [Mutable<EncodedSource>, Mutable<EncodedSource>] = [
    { dt: Dtype.FP32, bytes: EMPTY, byteOffset: 0, scale: 0 },
    { dt: Dtype.FP32, bytes: EMPTY, byteOffset: 0, scale: 0 },
  ];

  /** The arena buffer {@link kernelScratch} last looked up, and its scratch (undefined: none). */
  private lastArena: ArrayBufferLike | undefined;
  private lastArenaScratch: KernelScratch | undefined;
  /** A compute packet's result, filled packet after packet (deliver uses it at once). */
  private readonly result: Mutable<CceResult> = {
    out: EMPTY,
    outAt: 0,
    outBytes: 0,
    inPlace: false,
    header: undefined,
    elements: 0,
    bytesRead: 0,
  };
  /** Where a compute packet's result is encoded in place (set per packet by `destination`). */
  private readonly place: Mutable<Place> = { bytes: EMPTY, byteOffset: 0 };

  constructor(private readonly ctx: ExecContext) {}

  /**
   * Run a plan for queue `queue` of `engine`, whose stochastic-rounding stream is `sr`; returns the
   * work done. @throws DescriptorFault.
   */
  run(plan: PacketPlan, engine: number, queue: number, descriptors: number, sr: SrStream): Work {
    let done: Done;
    if (plan.kind === "copy") done = this.copy(plan, engine);
    else if (plan.kind === "cce") done = this.cce(plan, sr);
    else if (plan.kind === "transpose") done = this.transpose(plan);
    else done = doneOf("fence", undefined, 0, 0, 0, 0);
    // One object shape for every packet: the done part gets the rest assigned field by field (no
    // spread, no Object.assign of a temporary: both build objects on V8's slow path). The device
    // sets the ring slots.
    const work = done;
    work.engine = engine;
    work.queue = queue;
    work.descriptors = descriptors;
    work.barrier = plan.kind === "fence" || plan.kind === "transpose" ? false : plan.barrier;
    return work;
  }

  /**
   * The CAYMAN SBUF transpose (transpose-plan.ts): element k of each row to partition P + k. Every
   * row is read and every element's destination checked before the first write.
   */
  private transpose(plan: TransposePlan): Done {
    const { elem, cols, rows } = plan;
    const stride = BigInt(this.ctx.profile.sbufPartitionStride);
    let total = 0;
    for (const r of rows) total += r.len;
    const buf = this.scratch.staging(total);
    const targets: Segment[] = [];
    let off = 0;
    for (const r of rows) {
      this.read(r.tx, r.src, buf.subarray(off, off + r.len));
      off += r.len;
      for (let k = 0; k < cols; k++) {
        const addr = r.window + BigInt(r.partition + k) * stride + BigInt(r.offset);
        targets.push({ desc: r.rx, addr, len: elem });
      }
    }
    this.checkWrites(targets);
    for (let i = 0; i < targets.length; i++) {
      const t = targets[i] as Segment;
      this.write(t.desc, segmentAddr(t), buf.subarray(i * elem, (i + 1) * elem));
    }
    return doneOf("transpose", undefined, total, total, rows.length, targets.length);
  }

  /** A plain copy; then, MARIANA, the embedded-semaphore writes its RX descriptors carry. */
  private copy(plan: CopyPlan, engine: number): Done {
    const total = plan.tx.reduce((n, s) => n + s.len, 0);
    // One segment to one: page to page (direct), else through staging.
    const direct = this.directCopy(plan);
    const buf = direct ?? this.scratch.staging(total);
    let off = 0;
    if (direct === undefined) {
      for (const s of plan.tx) {
        this.read(s.desc, segmentAddr(s), buf.subarray(off, off + s.len));
        off += s.len;
      }
    }
    this.checkWrites(plan.rx);
    const sems: SemWrite[] = [];
    for (const d of plan.sems) {
      const w = resolveEmbeddedSem(this.ctx.profile, this.ctx.memory, engine, d);
      if (w) sems.push(w);
    }
    this.checkWrites(sems);
    if (!direct || !this.overwrite(plan.rx[0] as Segment, direct))
      this.scatter(plan.rx, buf.subarray(0, total));
    // strong_ord_wr: each semaphore changes only after all of the packet's data has landed.
    for (const w of sems) this.writeU32(w.desc, w.addr, w.value);
    return doneOf("copy", undefined, total, total, plan.tx.length, plan.rx.length);
  }

  /**
   * A copy of one TX segment to one RX segment of as many bytes: the source in place, when it lies
   * in an allocated page of plain memory (so reading it cannot fault); else undefined. One RX
   * segment only: its one write copies as if through a buffer when the spans overlap (TypedArray
   * set), where a chain's first write could change what a later one reads.
   */
  private directCopy(plan: CopyPlan): Uint8Array | undefined {
    if (plan.tx.length !== 1 || plan.rx.length !== 1) return undefined;
    const s = plan.tx[0] as Segment;
    if ((plan.rx[0] as Segment).len !== s.len) return undefined;
    const a = numberAt(s);
    const page = this.ctx.memory.pageAt(a, s.len);
    return page?.subarray(pageOffset(a), pageOffset(a) + s.len);
  }

  /**
   * Write `data` over the whole of a checked segment in an allocated page of plain memory, with no
   * view made and nothing stale set first (pageToOverwrite); false when it is not such a page.
   */
  private overwrite(d: Segment, data: Uint8Array): boolean {
    const b = numberAt(d);
    const page = this.ctx.memory.pageToOverwrite(b, d.len);
    if (page === undefined) return false;
    page.set(data, pageOffset(b));
    this.ctx.memory.overwritten(b, d.len);
    return true;
  }

  /** A compute packet: the result (decompressed, or reduced from the sources), then delivered. */
  private cce(plan: CcePlan, sr: SrStream): Done {
    const rounding: Rounding = plan.seed === undefined ? RNE : { mode: "sr", rng: sr };
    if (plan.seed !== undefined) sr.reseed(plan.seed);
    const r =
      plan.gce?.mode === "decompress" ? this.decompress(plan, rounding) : this.compute(plan, rounding);
    return this.deliver(plan, r);
  }

  /** GCE decompress: the header checked against the packet, the payload expanded (seed 000 §5.2). */
  private decompress(plan: CcePlan, rounding: Rounding): CceResult {
    const { desc, headerAddr, blockLog2 } = plan.gce as NonNullable<CcePlan["gce"]>;
    const src = plan.sources[0] as CcePlan["sources"][number];
    const header = readGceHeader(this.read(desc, headerAddr, new Uint8Array(GCE_HEADER_BYTES)));
    if (typeof header === "string") fault(desc, header, headerAddr);
    if (header.blockLog2 !== blockLog2)
      fault(
        desc,
        `header block_log2 ${header.blockLog2} differs from the gradient-desc's ${blockLog2}`,
        headerAddr,
      );
    if (header.dtype !== plan.outDt)
      fault(
        desc,
        `header expands to ${dtypeName(header.dtype)}, the S2M meta out_dt is ${dtypeName(plan.outDt)}`,
        headerAddr,
      );
    const payloadBytes = gcePayloadBytes(header.elements, blockLog2);
    if (header.payloadBytes !== payloadBytes || src.len !== payloadBytes) {
      fault(
        src.desc,
        `payload is ${src.len} bytes, header says ${header.payloadBytes}, ${header.elements} values need ${payloadBytes}`,
      );
    }
    const elements = header.elements;
    const outBytes = elements * dtypeBytes(plan.outDt);
    this.checkOutputs(plan, elements, outBytes, undefined);
    const k = this.scratch.need(elements, outBytes);
    const payload = this.read(src.desc, segmentAddr(src), this.scratch.staging(payloadBytes));
    gceDecompress(payload, elements, blockLog2, k.acc);
    const out = k.out.subarray(0, outBytes);
    encodeFromF32(plan.outDt, k.acc, 0, elements, out, 0, rounding, this.ctx.overflow);
    const bytesRead = payloadBytes + GCE_HEADER_BYTES;
    return { out, outAt: 0, outBytes, inPlace: false, header: undefined, elements, bytesRead };
  }

  /**
   * Reduce the sources (FMA, or ADD / MIN / MAX), clamp to the constant, compress for GCE. Every
   * destination is checked before any compute, so the result can go straight into a single one.
   */
  private compute(plan: CcePlan, rounding: Rounding): CceResult {
    const { elements, gce } = plan;
    const outBytes = gce ? gcePayloadBytes(elements, gce.blockLog2) : elements * dtypeBytes(plan.outDt);
    const header = gce ? { desc: gce.desc, addr: gce.headerAddr, len: GCE_HEADER_BYTES } : undefined;
    this.checkOutputs(plan, elements, outBytes, header);
    let maxIn = 0;
    for (const s of plan.sources) if (s.len > maxIn) maxIn = s.len;
    const place = this.place;
    const inPlace = !gce && this.destination(plan.rx, outBytes, place);
    const k = this.kernelScratch(
      inPlace ? place.bytes : this.peek(plan.sources[0] as Segment),
      elements,
      maxIn,
      outBytes,
    );
    const outAt = inPlace ? place.byteOffset : 0;
    const r = this.result;
    r.out = inPlace ? place.bytes : k.out;
    r.outAt = outAt;
    r.outBytes = outBytes;
    r.inPlace = inPlace;
    r.header = header;
    r.elements = elements;
    // Nothing (a constant clamp, a GCE compress) between the reduce and the encode: two sources
    // go through one numerics call, the result encoded straight into place.
    if (!plan.constant && !gce && this.reduceTwo(plan, k, elements, r.out, outAt, rounding)) {
      r.bytesRead = (plan.sources[0] as Segment).len + (plan.sources[1] as Segment).len;
      return r;
    }
    const out = r.out.subarray(outAt, outAt + outBytes);
    r.bytesRead =
      plan.op === "fma"
        ? this.fmaSources(plan, k)
        : this.reduce(plan, k, elements, plan.constant || gce ? undefined : out, rounding);
    if (plan.constant) {
      const { dt, word } = plan.constant;
      aluClamp(plan.op as "min" | "max", k.acc, aluConstantToF32(dt, word), elements);
    }
    if (gce) gceCompress(k.acc, elements, gce.blockLog2, rounding, out, k.src);
    else if (plan.op === "fma" || plan.constant)
      encodeFromF32(plan.outDt, k.acc, 0, elements, out, 0, rounding, this.ctx.overflow);
    return r;
  }

  /** acc ← Σ FMA over the sources from a cleared accumulator (MODEL above); returns the bytes read. */
  private fmaSources(plan: CcePlan, k: KernelScratch): number {
    const { elements } = plan;
    let bytesRead = 0;
    k.acc.fill(accumulatorStart("fma"), 0, elements);
    for (const s of plan.sources) {
      bytesRead += s.len;
      if (s.fma && isPlainFma(s.fma)) {
        const bytes = this.sourceForKernel(s, k);
        aluApplyEncoded("fma", k.acc, s.inDt, bytes, 0, elements, k.src, s.fma.scale);
        continue;
      }
      decodeToF32(s.inDt, this.source(s), 0, elements, k.src, 0);
      this.fma(k, s.fma, elements);
    }
    return bytesRead;
  }

  /** Write the result: GCE header, RX chain (unless computed in place), every replica; the work done. */
  private deliver(plan: CcePlan, r: CceResult): Done {
    const { header, outBytes } = r;
    // Computed in place (destination): the kernel has written all of the span.
    if (r.inPlace) this.ctx.memory.overwritten(numberAt(plan.rx[0] as Segment), outBytes);
    if (header && plan.gce)
      this.write(header.desc, segmentAddr(header), gceHeader(r.elements, plan.outDt, plan.gce.blockLog2));
    if (!r.inPlace || plan.replicas.length > 0) {
      const out = r.out.subarray(r.outAt, r.outAt + outBytes);
      if (!r.inPlace) this.scatter(plan.rx, out);
      for (const rep of plan.replicas) this.write(rep.desc, segmentAddr(rep), out);
    }
    const kind = plan.gce ? (plan.gce.mode === "compress" ? "gce-compress" : "gce-decompress") : "cce";
    const written = outBytes * (1 + plan.replicas.length) + (header?.len ?? 0);
    const destinations = plan.rx.length + plan.replicas.length;
    return doneOf(kind, plan.op, r.bytesRead, written, plan.sources.length, destinations);
  }

  /**
   * ADD / MIN / MAX straight from the source bytes; returns the bytes read. The first source of
   * several loads the accumulator (= identity fill + apply, one pass); a lone source is applied to
   * the identity so its NaNs come out canonical; with `out`, the last source is fused with the
   * output encode (nothing — a constant clamp, a GCE compress — comes between them). Same bits as
   * decode + ALU + encode: numerics pins each fused kernel to its unfused steps.
   */
  private reduce(
    plan: CcePlan,
    k: KernelScratch,
    elements: number,
    out: Uint8Array | undefined,
    rounding: Rounding,
  ): number {
    const op = plan.op as "add" | "min" | "max";
    const n = plan.sources.length;
    let bytesRead = 0;
    for (let i = 0; i < n; i++) {
      const s = plan.sources[i] as CcePlan["sources"][number];
      const bytes = this.sourceForKernel(s, k);
      bytesRead += s.len;
      if (i === 0 && n > 1) {
        aluLoadEncoded(k.acc, s.inDt, bytes, 0, elements);
        continue;
      }
      if (i === 0) k.acc.fill(aluIdentity(op), 0, elements);
      if (i === n - 1 && out) {
        const { outDt } = plan;
        aluApplyEncodedThenEncode(
          op,
          k.acc,
          s.inDt,
          bytes,
          0,
          elements,
          k.src,
          outDt,
          out,
          0,
          rounding,
          this.ctx.overflow,
        );
      } else aluApplyEncoded(op, k.acc, s.inDt, bytes, 0, elements, k.src);
    }
    return bytesRead;
  }

  /**
   * Two sources (ADD / MIN / MAX, or FMA with plain operands: seed 000 §9.2, b·s1 + (a·s0 + 0)):
   * the whole reduce and its encode in one numerics call (aluReduceEncoded: one kernel pass with no
   * accumulator — `add2_<dt>`, `fma2_<dt>` — when both are of the output dtype). A source outside
   * `k`'s arena is read into its spare buffers first (`k.input`, then `k.out` unless the result goes
   * there), so the kernel still runs in place; false, having done nothing, when they do not hold it
   * or a source is not a plain FMA.
   */
  private reduceTwo(
    plan: CcePlan,
    k: KernelScratch,
    elements: number,
    out: Uint8Array,
    outAt: number,
    rounding: Rounding,
  ): boolean {
    const sources = plan.sources;
    if (sources.length !== 2) return false;
    // Indexed, not destructured: this runs for every compute packet.
    const s0 = sources[0] as CcePlan["sources"][number];
    const s1 = sources[1] as CcePlan["sources"][number];
    const fma = plan.op === "fma";
    if (fma && !(s0.fma && isPlainFma(s0.fma) && s1.fma && isPlainFma(s1.fma))) return false;
    const p0 = this.pair[0];
    const p1 = this.pair[1];
    const arena = k.acc.buffer;
    const inA = this.inPlace(s0, p0) && p0.bytes.buffer === arena;
    const inB = this.inPlace(s1, p1) && p1.bytes.buffer === arena;
    if (!inA || !inB) {
      const spare = out === k.out ? undefined : k.out;
      if (!inA && !inB && (spare === undefined || spare.length < s1.len)) return false;
      if (!inA) this.stage(s0, p0, k.input);
      if (!inB) this.stage(s1, p1, inA ? k.input : (spare as Uint8Array));
    }
    p0.dt = s0.inDt;
    p0.scale = fma ? (s0.fma?.scale ?? 0) : 0;
    p1.dt = s1.inDt;
    p1.scale = fma ? (s1.fma?.scale ?? 0) : 0;
    const { acc, src } = k;
    aluReduceEncoded(
      plan.op,
      acc,
      this.pair,
      elements,
      src,
      plan.outDt,
      out,
      outAt,
      rounding,
      this.ctx.overflow,
    );
    return true;
  }

  /** Read a source into the start of `buffer` (a kernel scratch buffer) and point `into` there. */
  private stage(s: Segment, into: Mutable<Place>, buffer: Uint8Array): void {
    const a = numberAt(s);
    const page = this.ctx.memory.pageAt(a, s.len);
    if (page !== undefined) {
      const from = pageOffset(a);
      buffer.set(page.subarray(from, from + s.len));
      into.bytes = buffer;
    } else into.bytes = this.read(s.desc, segmentAddr(s), buffer.subarray(0, s.len));
    into.byteOffset = 0;
  }

  /**
   * Point `into` at a segment's bytes in place — a page of device memory and the offset in it,
   * through memory's number fast path (no bigint, no view made) — or, that missing, the view
   * {@link peek} gives; false when memory cannot give them in place. @throws DescriptorFault.
   */
  private inPlace(s: Segment, into: Mutable<Place>): boolean {
    const a = numberAt(s);
    const page = this.ctx.memory.pageAt(a, s.len);
    if (page !== undefined) {
      into.bytes = page;
      into.byteOffset = pageOffset(a);
      return true;
    }
    const view = this.peek(s);
    if (view === undefined) return false;
    into.bytes = view;
    into.byteOffset = 0;
    return true;
  }

  /** The RX chain must take exactly what the packet produces; every destination must be writable. */
  private checkOutputs(plan: CcePlan, elements: number, outBytes: number, header: Segment | undefined): void {
    let rxBytes = 0;
    for (const s of plan.rx) rxBytes += s.len;
    if (outBytes !== rxBytes) {
      fault(
        (plan.rx[0] as Segment).desc,
        `RX chain receives ${rxBytes} bytes but the packet produces ${outBytes} (${elements} × ${dtypeName(plan.outDt)}${plan.gce?.mode === "compress" ? ", compressed" : ""})`,
      );
    }
    if (header) this.checkWrites([header]);
    this.checkWrites(plan.rx);
    this.checkWrites(plan.replicas);
  }

  /**
   * The kernel scratch to reduce in: the one sharing a WebAssembly arena with `view` (the
   * destination, else the first source: its page's arena), so the buffers in that arena are read
   * and written in place; else the executor's own.
   */
  private kernelScratch(
    view: Uint8Array | undefined,
    elements: number,
    maxIn: number,
    outBytes: number,
  ): KernelScratch {
    let k: KernelScratch | undefined;
    if (view !== undefined) {
      // An arena's scratch never changes (page-arenas.ts): the last one found is kept.
      if (view.buffer !== this.lastArena) {
        this.lastArena = view.buffer;
        this.lastArenaScratch = this.ctx.memory.kernelScratchFor(view);
      }
      k = this.lastArenaScratch;
    }
    if (k && k.acc.length >= elements && k.input.length >= maxIn && k.out.length >= outBytes) return k;
    return this.scratch.need(elements, outBytes, maxIn);
  }

  /**
   * Point `into` at the destination in place when it is one writable span of plain memory (already
   * checked; a page never written is allocated now); false otherwise. What is stale in the span is
   * not set first: the kernel writes every byte of it (outBytes = elements × the output's bytes)
   * after every source is read (each source read sets its own span, so one that overlaps the
   * destination reads right), and {@link deliver} then reports it overwritten; a fault before the
   * kernel (every destination is checked first, a source read) leaves it untouched and still stale.
   */
  private destination(rx: readonly Segment[], outBytes: number, into: Mutable<Place>): boolean {
    const only = rx.length === 1 ? (rx[0] as Segment) : undefined;
    if (!only || only.len !== outBytes) return false;
    const a = numberAt(only);
    const page = this.ctx.memory.pageToOverwrite(a, only.len);
    if (page !== undefined) {
      into.bytes = page;
      into.byteOffset = pageOffset(a);
      return true;
    }
    try {
      const view = this.ctx.memory.poke(segmentAddr(only), only.len, "write", true);
      if (view === undefined) return false;
      into.bytes = view;
      into.byteOffset = 0;
      return true;
    } catch (e) {
      this.rethrow(only.desc, e);
    }
  }

  /** acc ← FMA(acc, src) over `n` elements, honouring the fma-desc's operand selectors. */
  private fma(k: KernelScratch, fma: CcePlan["sources"][number]["fma"], n: number): void {
    const { acc, src } = k;
    if (fma === undefined) throw new Error("unreachable: FMA source without operands");
    if (isPlainFma(fma)) {
      aluFma(acc, src, fma.scale, n);
      return;
    }
    // General selectors: each operand is the stored accumulator, this source, or (any other
    // selector) the scale. Resolved once per packet, not per element.
    const scale = Math.fround(fma.scale);
    const arrayOf = (sel: number): Float32Array | undefined =>
      sel === FmaOperand.STORED_BUFFER ? acc : sel === FmaOperand.INPUT_BUFFER ? src : undefined;
    const a = arrayOf(fma.a);
    const b = arrayOf(fma.b);
    const c = arrayOf(fma.c);
    for (let i = 0; i < n; i++) {
      acc[i] = fmaF32(
        a ? (a[i] as number) : scale,
        b ? (b[i] as number) : scale,
        c ? (c[i] as number) : scale,
      );
    }
  }

  /** Write `data` across the RX segments in order. */
  private scatter(rx: readonly Segment[], data: Uint8Array): void {
    let off = 0;
    for (const s of rx) {
      this.write(s.desc, segmentAddr(s), data.subarray(off, off + s.len));
      off += s.len;
    }
  }

  private checkWrites(segs: readonly Segment[]): void {
    for (const s of segs) {
      // An allocated page of plain memory (memory's number fast path) takes any write.
      // A test only: what is stale there stays so until the write (pageToOverwrite).
      if (this.ctx.memory.pageToOverwrite(numberAt(s), s.len) !== undefined) continue;
      try {
        checkWritable(this.ctx.memory, segmentAddr(s), s.len);
      } catch (e) {
        this.rethrow(s.desc, e);
      }
    }
  }

  /**
   * A source's bytes for the ALU: in place when they already share `k`'s arena or the kernels do not
   * decode the dtype (wasmHasDtype: none today); else read into `k.input`, so the kernel decodes them
   * in place rather than through a staging copy.
   */
  private sourceForKernel(s: Segment & { readonly inDt: Dtype }, k: KernelScratch): Uint8Array {
    if (!wasmHasDtype(s.inDt)) return this.source(s);
    const view = this.peek(s);
    if (view && view.buffer === k.acc.buffer) return view;
    return this.read(s.desc, segmentAddr(s), k.input.subarray(0, s.len));
  }

  /** The source bytes in place (DeviceMemory.peek), or undefined. */
  private peek(s: Segment): Uint8Array | undefined {
    try {
      return this.ctx.memory.peek(segmentAddr(s), s.len, "read");
    } catch (e) {
      this.rethrow(s.desc, e);
    }
  }

  /** A source's bytes: in place when memory can give them without a copy, else into scratch. */
  private source(s: Segment): Uint8Array {
    return this.peek(s) ?? this.read(s.desc, segmentAddr(s), this.scratch.staging(s.len));
  }

  private read(desc: Descriptor, addr: bigint, into: Uint8Array): Uint8Array {
    try {
      this.ctx.memory.readInto(addr, into, "read");
    } catch (e) {
      this.rethrow(desc, e);
    }
    return into;
  }

  private writeU32(desc: Descriptor, addr: bigint, value: number): void {
    try {
      this.ctx.memory.writeU32(addr, value);
    } catch (e) {
      this.rethrow(desc, e);
    }
  }

  private write(desc: Descriptor, addr: bigint, data: Uint8Array): void {
    try {
      this.ctx.memory.write(addr, data, "write");
    } catch (e) {
      this.rethrow(desc, e);
    }
  }

  /** Turn a memory fault into a fault naming the descriptor, the address and what is there. */
  private rethrow(desc: Descriptor, e: unknown): never {
    if (e instanceof MemoryFault)
      throw new DescriptorFault(desc.ref, e.reason, e.addr, describeAddress(this.ctx.profile, e.addr));
    throw e;
  }
}
