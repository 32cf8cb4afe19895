/**
 * Execute a planned packet against device memory with the real numerics. Reads happen first, every
 * destination is checked for everything that could refuse it before the first byte is written
 * (preflight.ts), so a faulting packet leaves memory, registers and semaphores as they were.
 * The engine keeps the semantics — what is read, checked, computed and delivered — and numerics
 * the how: a compute packet is one reduceInto call over spans of device memory (numerics/reduce.ts,
 * which also holds the MODEL of the accumulator's start).
 */
import type { ArchProfile } from "../../hal/arch-profile.js";
import {
  type OverflowPolicy,
  type ReduceOptions,
  type ReduceSource,
  type Rounding,
  reduceInto,
  type Span,
  type SrRounding,
  type SrStream,
} from "../../numerics/index.js";
import { Dtype, dtypeBytes, dtypeName } from "../../spec/dtype.js";
import { GCE_HEADER_BYTES, gcePayloadBytes } from "../../spec/gce-header.js";
import { fault } from "../decode/descriptor.js";
import { resolveEmbeddedSem, type SemWrite } from "../decode/embedded-sem-write.js";
import {
  type CcePlan,
  type CopyPlan,
  type PacketPlan,
  type Segment,
  segmentAddr,
} from "../decode/packet-plan.js";
import type { TransposePlan } from "../decode/transpose-plan.js";
import { type DeviceMemory, pageNumber, pageOffset } from "../memory/memory.js";
import { type Done, doneOf, type Reused } from "./done.js";
import type { Work } from "./events.js";
import { gceCompress, gceExpand, gceHeader, readGceHeader } from "./gce-codec.js";
import { numberAt, PacketIo, type Place } from "./packet-io.js";

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
/** A copy's semaphore writes when its RX descriptors carry none (never written to). */
const NO_SEMS: SemWrite[] = [];
/** Round to nearest even: every packet without a seed-init (numerics' RNE, as a value here). */
const RNE: Rounding = { mode: "rne" };

export interface ExecContext {
  readonly profile: ArchProfile;
  readonly memory: DeviceMemory;
  readonly overflow: OverflowPolicy;
}

/** A source span for numerics, filled in packet after packet. */
type SourceSpan = Mutable<ReduceSource>;

export class Executor {
  /**
   * Fill one event object in place packet after packet instead of making one each (the device
   * sets this while nothing keeps the events: Device.runCount). Each is valid until the next packet.
   */
  reuseWork = false;
  /** The objects filled in place (reuseWork), of doneOf's two shapes. */
  private readonly reused: Reused = {
    plain: doneOf("copy", undefined, 0, 0, 0, 0),
    withOp: doneOf("cce", "add", 0, 0, 0, 0),
  };
  private readonly io: PacketIo;
  /** The source spans of a packet of n sources, reused packet after packet (numerics keeps none). */
  private readonly spans: SourceSpan[][] = [];
  /**
   * The pages checkWrites found for a packet's RX segments and replicas (PacketIo.checkWrites),
   * for its writes: each segment looked up once. Valid for the packet being run.
   */
  private readonly rxPages: (Uint8Array | undefined)[] = [];
  private readonly replicaPages: (Uint8Array | undefined)[] = [];
  /** A direct copy's source in place (set per packet). */
  private readonly from: Place = { bytes: EMPTY, offset: 0 };
  /** The output span of a compute packet (set per packet). */
  private readonly out: Mutable<Span> = { dtype: Dtype.FP32, bytes: EMPTY, offset: 0, count: 0 };
  private readonly options: Mutable<ReduceOptions>;
  /** GCE compress: the FP32 result before it is compressed. */
  private values = new Float32Array(1 << 14);
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

  /** The objects to fill in place, when reuseWork is on. */
  private reuse(): Reused | undefined {
    return this.reuseWork ? this.reused : undefined;
  }

  constructor(private readonly ctx: ExecContext) {
    this.io = new PacketIo(ctx.profile, ctx.memory);
    this.options = { rounding: RNE, overflow: ctx.overflow, constant: undefined };
  }

  /**
   * Run a plan for queue `queue` of `engine`, whose stochastic rounding is `sr` (its stream the
   * queue's); returns the work done. @throws DescriptorFault.
   */
  run(plan: PacketPlan, engine: number, queue: number, descriptors: number, sr: SrRounding<SrStream>): Work {
    let done: Done;
    if (plan.kind === "copy") done = this.copy(plan, engine);
    else if (plan.kind === "cce") done = this.cce(plan, sr);
    else if (plan.kind === "transpose") done = this.transpose(plan);
    else done = doneOf("fence", undefined, 0, 0, 0, 0, this.reuse());
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
    const io = this.io;
    const stride = BigInt(this.ctx.profile.sbufPartitionStride);
    let total = 0;
    for (const r of rows) total += r.len;
    const buf = io.staging.get(total);
    const targets: Segment[] = [];
    let off = 0;
    for (const r of rows) {
      io.read(r.tx, r.src, buf.subarray(off, off + r.len));
      off += r.len;
      for (let k = 0; k < cols; k++) {
        const addr = r.window + BigInt(r.partition + k) * stride + BigInt(r.offset);
        targets.push({ desc: r.rx, addr, len: elem });
      }
    }
    io.checkWrites(targets);
    for (let i = 0; i < targets.length; i++) {
      const t = targets[i] as Segment;
      io.write(t.desc, segmentAddr(t), buf.subarray(i * elem, (i + 1) * elem));
    }
    return doneOf("transpose", undefined, total, total, rows.length, targets.length, this.reuse());
  }

  /** A plain copy; then, MARIANA, the embedded-semaphore writes its RX descriptors carry. */
  private copy(plan: CopyPlan, engine: number): Done {
    const io = this.io;
    let total = 0;
    for (const s of plan.tx) total += s.len;
    // One segment to one: page to page (direct), page pieces to page pieces across a page boundary
    // (paged), else read into staging first.
    const from = this.from;
    const direct = io.directCopy(plan.tx, plan.rx, from);
    const paged = !direct && io.pagesCopyable(plan.tx, plan.rx);
    const staged = !direct && !paged ? io.staging.get(total) : undefined;
    if (staged !== undefined) {
      let off = 0;
      for (const s of plan.tx) {
        io.read(s.desc, segmentAddr(s), staged.subarray(off, off + s.len));
        off += s.len;
      }
    }
    io.checkWrites(plan.rx, this.rxPages);
    const sems: SemWrite[] = plan.sems.length === 0 ? NO_SEMS : [];
    for (const d of plan.sems) {
      const w = resolveEmbeddedSem(this.ctx.profile, this.ctx.memory, engine, d);
      if (w) sems.push(w);
    }
    io.checkWrites(sems);
    const rx0 = plan.rx[0] as Segment;
    if (paged) io.copyPages(plan.tx[0] as Segment, rx0);
    else if (direct) io.putFrom(rx0, from.bytes, from.offset, total, this.rxPages[0]);
    else io.scatter(plan.rx, staged as Uint8Array);
    // strong_ord_wr: each semaphore changes only after all of the packet's data has landed.
    for (const w of sems) io.writeU32(w.desc, w.addr, w.value);
    return doneOf("copy", undefined, total, total, plan.tx.length, plan.rx.length, this.reuse());
  }

  /** A compute packet: the result (decompressed, or reduced from the sources), then delivered. */
  private cce(plan: CcePlan, sr: SrRounding<SrStream>): Done {
    const rounding: Rounding = plan.seed === undefined ? RNE : sr;
    if (plan.seed !== undefined) sr.rng.reseed(plan.seed);
    const r =
      plan.gce?.mode === "decompress" ? this.decompress(plan, rounding) : this.compute(plan, rounding);
    return this.deliver(plan, r);
  }

  /** GCE decompress: the header checked against the packet, the payload expanded (seed 000 §5.2). */
  private decompress(plan: CcePlan, rounding: Rounding): CceResult {
    const { desc, headerAddr, blockLog2 } = plan.gce as NonNullable<CcePlan["gce"]>;
    const src = plan.sources[0] as CcePlan["sources"][number];
    const header = readGceHeader(this.io.read(desc, headerAddr, new Uint8Array(GCE_HEADER_BYTES)));
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
    const payload = this.io.read(src.desc, segmentAddr(src), this.io.staging.get(payloadBytes));
    const out = this.io.result.get(outBytes);
    gceExpand(payload, { elements, blockLog2, dtype: plan.outDt }, out, {
      rounding,
      overflow: this.ctx.overflow,
    });
    const bytesRead = payloadBytes + GCE_HEADER_BYTES;
    return { out, outAt: 0, outBytes, inPlace: false, header: undefined, elements, bytesRead };
  }

  /**
   * Reduce the sources (numerics reduceInto: FMA, or ADD / MIN / MAX, then the constant) into the
   * destination, or compress the FP32 result for GCE. Every destination is checked before any
   * source is read, so the result can go straight into a single one.
   */
  private compute(plan: CcePlan, rounding: Rounding): CceResult {
    const { elements, gce } = plan;
    const outBytes = gce ? gcePayloadBytes(elements, gce.blockLog2) : elements * dtypeBytes(plan.outDt);
    const header = gce ? { desc: gce.desc, addr: gce.headerAddr, len: GCE_HEADER_BYTES } : undefined;
    this.checkOutputs(plan, elements, outBytes, header);
    const out = this.out;
    const inPlace = !gce && this.io.destination(plan.rx, outBytes, out, this.rxPages[0]);
    if (!inPlace) {
      out.bytes = this.io.result.get(outBytes);
      out.offset = 0;
    }
    const r = this.result;
    r.bytesRead = 0;
    const sources = this.sourceSpans(plan, r);
    const options = this.options;
    options.rounding = rounding;
    options.constant = plan.constant;
    out.count = elements;
    if (gce) {
      // The FP32 result, then block-scaled into the payload (gce-codec.ts).
      if (this.values.length < elements) this.values = new Float32Array(elements);
      const values = this.values.subarray(0, elements);
      const bytes = new Uint8Array(values.buffer, 0, 4 * elements);
      reduceInto(plan.op, sources, { dtype: Dtype.FP32, bytes, offset: 0, count: elements }, options);
      gceCompress(values, gce.blockLog2, rounding, out.bytes.subarray(0, outBytes));
    } else {
      out.dtype = plan.outDt;
      reduceInto(plan.op, sources, out, options);
    }
    r.out = out.bytes;
    r.outAt = out.offset;
    r.outBytes = outBytes;
    r.inPlace = inPlace;
    r.header = header;
    r.elements = elements;
    return r;
  }

  /**
   * The sources as spans of device memory — in place where memory gives them, else read into
   * staging — in order, so a faulting read faults as the packet's first read of it would; adds
   * the bytes read to `r`.
   */
  private sourceSpans(plan: CcePlan, r: Mutable<CceResult>): readonly ReduceSource[] {
    const n = plan.sources.length;
    let spans = this.spans[n];
    if (spans === undefined) {
      spans = Array.from(
        { length: n },
        (): SourceSpan => ({
          dtype: Dtype.FP32,
          bytes: EMPTY,
          offset: 0,
          count: 0,
          fma: undefined,
        }),
      );
      this.spans[n] = spans;
    }
    let staging: Uint8Array | undefined;
    let staged = 0;
    for (let i = 0; i < n; i++) {
      const s = plan.sources[i] as CcePlan["sources"][number];
      const span = spans[i] as SourceSpan;
      span.dtype = s.inDt;
      span.count = plan.elements;
      span.fma = s.fma;
      r.bytesRead += s.len;
      if (this.io.inPlace(s, span)) continue;
      staging ??= this.io.sources.get(plan.sources.reduce((t, x) => t + x.len, 0));
      span.bytes = this.io.read(s.desc, segmentAddr(s), staging.subarray(staged, staged + s.len));
      span.offset = 0;
      staged += s.len;
    }
    return spans;
  }

  /** Write the result: GCE header, RX chain (unless computed in place), every replica; the work done. */
  private deliver(plan: CcePlan, r: CceResult): Done {
    const { header, outBytes } = r;
    const io = this.io;
    // Computed in place (destination): the kernel has written all of the span.
    if (r.inPlace) {
      const a = numberAt(plan.rx[0] as Segment);
      this.ctx.memory.overwritten(pageNumber(a), pageOffset(a), outBytes);
    }
    if (header && plan.gce)
      io.write(header.desc, segmentAddr(header), gceHeader(r.elements, plan.outDt, plan.gce.blockLog2));
    if (!r.inPlace) io.scatter(plan.rx, r.out.subarray(r.outAt, r.outAt + outBytes));
    const reps = plan.replicas;
    for (let i = 0; i < reps.length; i++)
      io.putFrom(reps[i] as Segment, r.out, r.outAt, outBytes, this.replicaPages[i]);
    const kind = plan.gce ? (plan.gce.mode === "compress" ? "gce-compress" : "gce-decompress") : "cce";
    const written = outBytes * (1 + plan.replicas.length) + (header?.len ?? 0);
    const destinations = plan.rx.length + plan.replicas.length;
    return doneOf(kind, plan.op, r.bytesRead, written, plan.sources.length, destinations, this.reuse());
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
    if (header) this.io.checkWrites([header]);
    this.io.checkWrites(plan.rx, this.rxPages);
    this.io.checkWrites(plan.replicas, this.replicaPages);
  }
}
