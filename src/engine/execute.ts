/**
 * Execute a planned packet against device memory with the real numerics. Reads happen first, every
 * destination is checked before the first byte is written, so a faulting packet leaves memory as it
 * was (a semaphore write is the one MMIO side effect, and it is the packet's last write).
 *
 * MODEL (docs/fidelity/engine.md "accumulator start"): ADD / MIN / MAX load the first source
 * (the accumulator starts at the ALU identity: −0, +inf, −inf); FMA starts from a cleared stored
 * buffer, +0 (seed 000 §9.2: acc = s0·scale0 + 0).
 */
import type { ArchProfile } from "../hal/arch-profile.js";
import {
  type AluOp,
  aluAdd,
  aluClamp,
  aluConstantToF32,
  aluFma,
  aluIdentity,
  aluMax,
  aluMin,
  decodeToF32,
  encodeFromF32,
  fmaF32,
  type OverflowPolicy,
  RNE,
  type Rounding,
  type SrStream,
} from "../numerics/index.js";
import { dtypeBytes, dtypeName } from "../spec/dtype.js";
import { FmaOperand } from "../spec/enums.js";
import { GCE_HEADER_BYTES, gcePayloadBytes } from "../spec/gce-header.js";
import { type Descriptor, fault } from "./descriptor.js";
import { resolveEmbeddedSem, type SemWrite } from "./embedded-sem-write.js";
import type { Work } from "./events.js";
import { DescriptorFault } from "./faults.js";
import { gceCompress, gceDecompress, gceHeader, readGceHeader } from "./gce-codec.js";
import { type DeviceMemory, MemoryFault } from "./memory.js";
import { describeAddress } from "./memory-map.js";
import type { CcePlan, CopyPlan, PacketPlan, Segment } from "./packet-plan.js";
import type { TransposePlan } from "./transpose-plan.js";

/** What a packet did, before the executor adds where it ran. */
type Done = Pick<Work, "kind" | "op" | "bytesRead" | "bytesWritten" | "sources" | "destinations">;

/** The accumulator's first value (MODEL above). */
export function accumulatorStart(op: AluOp): number {
  return op === "fma" ? 0 : aluIdentity(op);
}

/** Reusable buffers, grown on demand: no allocation per element, little per packet. */
class Scratch {
  bytes = new Uint8Array(1 << 16);
  out = new Uint8Array(1 << 16);
  acc = new Float32Array(1 << 14);
  src = new Float32Array(1 << 14);

  need(bytes: number, elements: number, outBytes: number): void {
    if (this.bytes.length < bytes) this.bytes = new Uint8Array(bytes);
    if (this.out.length < outBytes) this.out = new Uint8Array(outBytes);
    if (this.acc.length < elements) {
      this.acc = new Float32Array(elements);
      this.src = new Float32Array(elements);
    }
  }
}

export interface ExecContext {
  readonly profile: ArchProfile;
  readonly memory: DeviceMemory;
  readonly overflow: OverflowPolicy;
}

export class Executor {
  private readonly scratch = new Scratch();

  constructor(private readonly ctx: ExecContext) {}

  /**
   * Run a plan for queue `queue` of `engine`, whose stochastic-rounding stream is `sr`; returns the
   * work done. @throws DescriptorFault.
   */
  run(plan: PacketPlan, engine: number, queue: number, descriptors: number, sr: SrStream): Work {
    let done: Done;
    let tx: Descriptor | undefined;
    let rx: Descriptor | undefined;
    if (plan.kind === "copy") {
      done = this.copy(plan, engine);
      tx = plan.tx[0]?.desc;
      rx = plan.rx[0]?.desc;
    } else if (plan.kind === "cce") {
      done = this.cce(plan, sr);
      tx = plan.sources[0]?.desc;
      rx = plan.rx[0]?.desc;
    } else if (plan.kind === "transpose") {
      done = this.transpose(plan);
      tx = plan.rows[0]?.tx;
      rx = plan.rows[0]?.rx;
    } else {
      done = { kind: "fence", bytesRead: 0, bytesWritten: 0, sources: 0, destinations: 0 };
      tx = plan.tx;
      rx = plan.rx;
    }
    // One object shape for every packet (the done part is assigned, not spread: faster in V8).
    return Object.assign(done, {
      engine,
      queue,
      descriptors,
      txSlot: tx?.ref.slot ?? 0,
      rxSlot: rx?.ref.slot ?? 0,
      barrier: plan.kind === "fence" || plan.kind === "transpose" ? false : plan.barrier,
    });
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
    this.scratch.need(total, 0, 0);
    const buf = this.scratch.bytes;
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
      this.write(t.desc, t.addr, buf.subarray(i * elem, (i + 1) * elem));
    }
    return {
      kind: "transpose",
      bytesRead: total,
      bytesWritten: total,
      sources: rows.length,
      destinations: targets.length,
    };
  }

  /** A plain copy; then, MARIANA, the embedded-semaphore writes its RX descriptors carry. */
  private copy(plan: CopyPlan, engine: number): Done {
    const total = plan.tx.reduce((n, s) => n + s.len, 0);
    this.scratch.need(total, 0, 0);
    const buf = this.scratch.bytes;
    let off = 0;
    for (const s of plan.tx) {
      this.read(s.desc, s.addr, buf.subarray(off, off + s.len));
      off += s.len;
    }
    this.checkWrites(plan.rx);
    const sems: SemWrite[] = [];
    for (const d of plan.sems) {
      const w = resolveEmbeddedSem(this.ctx.profile, this.ctx.memory, engine, d);
      if (w) sems.push(w);
    }
    this.checkWrites(sems);
    this.scatter(plan.rx, buf.subarray(0, total));
    // strong_ord_wr: each semaphore changes only after all of the packet's data has landed.
    for (const w of sems) this.writeU32(w.desc, w.addr, w.value);
    return {
      kind: "copy",
      bytesRead: total,
      bytesWritten: total,
      sources: plan.tx.length,
      destinations: plan.rx.length,
    };
  }

  private cce(plan: CcePlan, sr: SrStream): Done {
    const rounding: Rounding = plan.seed === undefined ? RNE : { mode: "sr", rng: sr };
    if (plan.seed !== undefined) sr.reseed(plan.seed);
    let rxBytes = 0;
    for (const s of plan.rx) rxBytes += s.len;
    let bytesRead = 0;
    let elements = plan.elements;
    let out: Uint8Array;
    let header: { desc: Descriptor; addr: bigint; len: number; bytes: Uint8Array } | undefined;

    if (plan.gce?.mode === "decompress") {
      const { desc, headerAddr, blockLog2 } = plan.gce;
      const header = readGceHeader(this.read(desc, headerAddr, new Uint8Array(GCE_HEADER_BYTES)));
      if (typeof header === "string") fault(desc, header, headerAddr);
      const src = plan.sources[0] as CcePlan["sources"][number];
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
      elements = header.elements;
      this.scratch.need(payloadBytes, elements, elements * dtypeBytes(plan.outDt));
      this.read(src.desc, src.addr, this.scratch.bytes.subarray(0, payloadBytes));
      bytesRead = payloadBytes + GCE_HEADER_BYTES;
      gceDecompress(this.scratch.bytes, elements, blockLog2, this.scratch.acc);
      out = this.encodeOut(plan, elements, rounding);
    } else {
      const outBytes = plan.gce
        ? gcePayloadBytes(elements, plan.gce.blockLog2)
        : elements * dtypeBytes(plan.outDt);
      let maxIn = 0;
      for (const s of plan.sources) if (s.len > maxIn) maxIn = s.len;
      this.scratch.need(maxIn, elements, outBytes);
      const { acc, src } = this.scratch;
      // ADD / MIN / MAX of two or more sources: the first source loads the accumulator directly
      // (identity ∘ x = x for every non-NaN x, and the next op turns any NaN canonical), saving a
      // fill and an ALU pass; one source goes through the ALU so its NaNs come out canonical.
      const load = plan.op !== "fma" && plan.sources.length > 1;
      if (!load) acc.fill(accumulatorStart(plan.op), 0, elements);
      for (let i = 0; i < plan.sources.length; i++) {
        const s = plan.sources[i] as CcePlan["sources"][number];
        const bytes = this.source(s);
        bytesRead += s.len;
        if (load && i === 0) decodeToF32(s.inDt, bytes, 0, elements, acc, 0);
        else {
          decodeToF32(s.inDt, bytes, 0, elements, src, 0);
          this.apply(plan.op, s.fma, elements);
        }
      }
      if (plan.constant) {
        const { dt, word } = plan.constant;
        aluClamp(plan.op as "min" | "max", acc, aluConstantToF32(dt, word), elements);
      }
      if (plan.gce) {
        const { desc, headerAddr, blockLog2 } = plan.gce;
        out = this.scratch.out.subarray(0, outBytes);
        gceCompress(acc, elements, blockLog2, rounding, out, src);
        const bytes = gceHeader(elements, plan.outDt, blockLog2);
        header = { desc, addr: headerAddr, len: bytes.length, bytes };
      } else {
        out = this.encodeOut(plan, elements, rounding);
      }
    }

    if (out.length !== rxBytes) {
      fault(
        (plan.rx[0] as Segment).desc,
        `RX chain receives ${rxBytes} bytes but the packet produces ${out.length} (${elements} × ${dtypeName(plan.outDt)}${plan.gce?.mode === "compress" ? ", compressed" : ""})`,
      );
    }
    if (header) this.checkWrites([header]);
    this.checkWrites(plan.rx);
    this.checkWrites(plan.replicas);
    if (header) this.write(header.desc, header.addr, header.bytes);
    this.scatter(plan.rx, out);
    for (const r of plan.replicas) this.write(r.desc, r.addr, out);
    const kind = plan.gce ? (plan.gce.mode === "compress" ? "gce-compress" : "gce-decompress") : "cce";
    const written = out.length * (1 + plan.replicas.length) + (header?.len ?? 0);
    return {
      kind,
      op: plan.op,
      bytesRead,
      bytesWritten: written,
      sources: plan.sources.length,
      destinations: plan.rx.length + plan.replicas.length,
    };
  }

  /** acc ← op(acc, src) over `n` elements; FMA honours the descriptor's operand selectors. */
  private apply(op: AluOp, fma: CcePlan["sources"][number]["fma"], n: number): void {
    const { acc, src } = this.scratch;
    if (op === "add") aluAdd(acc, src, n);
    else if (op === "min") aluMin(acc, src, n);
    else if (op === "max") aluMax(acc, src, n);
    else if (fma === undefined) throw new Error("unreachable: FMA source without operands");
    else if (
      fma.a === FmaOperand.INPUT_BUFFER &&
      fma.b === FmaOperand.SCALE &&
      fma.c === FmaOperand.STORED_BUFFER
    ) {
      aluFma(acc, src, fma.scale, n);
    } else {
      // General selectors: each operand is the stored accumulator, this source, or the scale.
      const scale = Math.fround(fma.scale);
      const pick = (sel: number, i: number): number =>
        sel === FmaOperand.STORED_BUFFER
          ? (acc[i] as number)
          : sel === FmaOperand.INPUT_BUFFER
            ? (src[i] as number)
            : scale;
      for (let i = 0; i < n; i++) acc[i] = fmaF32(pick(fma.a, i), pick(fma.b, i), pick(fma.c, i));
    }
  }

  private encodeOut(plan: CcePlan, elements: number, rounding: Rounding): Uint8Array {
    const bytes = elements * dtypeBytes(plan.outDt);
    this.scratch.need(0, elements, bytes);
    const out = this.scratch.out.subarray(0, bytes);
    encodeFromF32(plan.outDt, this.scratch.acc, 0, elements, out, 0, rounding, this.ctx.overflow);
    return out;
  }

  /** Write `data` across the RX segments in order. */
  private scatter(rx: readonly Segment[], data: Uint8Array): void {
    let off = 0;
    for (const s of rx) {
      this.write(s.desc, s.addr, data.subarray(off, off + s.len));
      off += s.len;
    }
  }

  private checkWrites(segs: readonly Segment[]): void {
    for (const s of segs) {
      try {
        this.ctx.memory.regionOf(s.addr, s.len, "write");
      } catch (e) {
        this.rethrow(s.desc, e);
      }
    }
  }

  /** A source's bytes: in place when memory can give them without a copy, else into scratch. */
  private source(s: Segment): Uint8Array {
    try {
      const view = this.ctx.memory.peek(s.addr, s.len, "read");
      if (view) return view;
    } catch (e) {
      this.rethrow(s.desc, e);
    }
    return this.read(s.desc, s.addr, this.scratch.bytes.subarray(0, s.len));
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
