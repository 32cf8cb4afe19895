/**
 * Turn one packet's fetched TX and RX chains into an execution plan, reading only the descriptor
 * bytes, exactly as src/spec/packet-model.ts lays them out:
 *
 *   TX: [seed-init] [min-max constant] { [fma-desc | …] udma-tx }×sources [gradient-desc] [replication-desc]×k
 *   RX: udma-rx × k' (has_meta: buf2_ptr_lo is the S2M meta-control: add-meta, or ext-meta for a combo)
 *
 * A compute descriptor (W0 bit 23) is identified by its position and W1/W2 (packet-model.ts): before
 * the first source a seed-init (W2 = 0, W1 sub_desc 2 | 3) or the MIN/MAX constant (W2 bit 25); right
 * before a source of an FMA packet its fma-desc; after the last source the gradient-desc (W1 op 4
 * optype 5) and replication-desc (W1 op 1 optype 2). Anything else is a fault naming the descriptor.
 */
import type { ArchProfile } from "../hal/arch-profile.js";
import type { AluOp } from "../numerics/index.js";
import { type Dtype, dtypeBytes, dtypeName, isDtype, MIN_MAX_CONSTANT_DTYPES } from "../spec/dtype.js";
import { FmaOperand, SdmaCceType } from "../spec/enums.js";
import {
  ADD_META,
  FMA_DESC,
  GRADIENT_DESC,
  MIN_MAX_DESC,
  REPLICATION_META_CLASS,
  SEED_INIT_DESC,
} from "../spec/layouts/index.js";
import { COMBO_MEMBER, DEFAULT_COPY_META, SUB_DESCRIPTOR } from "../spec/tables.js";
import {
  type Descriptor,
  dataLength,
  fault,
  field,
  hasDmb,
  hasMeta,
  hasMore,
  metaAccumDt,
  metaInDt,
  metaLast,
  metaOp,
  metaOptype,
  metaOutDt,
  metaWrbar,
  metaWriteBarrier,
  pointer,
} from "./descriptor.js";
import { hasEmbeddedSem } from "./embedded-sem-write.js";
import {
  type FencePlan,
  isTransposeFlush,
  isTransposeTx,
  planTranspose,
  type TransposePlan,
} from "./transpose-plan.js";

/** A buffer one descriptor reads or writes. */
export interface Segment {
  readonly desc: Descriptor;
  readonly addr: bigint;
  readonly len: number;
}

export interface CopyPlan {
  readonly kind: "copy";
  readonly tx: readonly Segment[];
  readonly rx: readonly Segment[];
  /** RX descriptors carrying a MARIANA embedded-semaphore write (len_ctrl bit 31), in RX order. */
  readonly sems: readonly Descriptor[];
  readonly barrier: boolean;
}

export interface FmaOperands {
  readonly a: number;
  readonly b: number;
  readonly c: number;
  readonly scale: number;
}

export interface Source extends Segment {
  readonly inDt: Dtype;
  readonly elements: number;
  /** FMA: the operand selectors and scale of this source's fma-desc. */
  readonly fma?: FmaOperands;
}

export interface CcePlan {
  readonly kind: "cce";
  readonly op: AluOp;
  readonly sources: readonly Source[];
  readonly elements: number;
  readonly outDt: Dtype;
  readonly rx: readonly Segment[];
  /** Seed-init with the seed-enable bits: reseed the queue's SR stream and round stochastically. */
  readonly seed?: number;
  /** MIN/MAX constant clamp: value already converted to FP32. */
  readonly constant?: { readonly desc: Descriptor; readonly dt: Dtype; readonly word: number };
  readonly gce?: {
    readonly desc: Descriptor;
    readonly mode: "compress" | "decompress";
    readonly blockLog2: number;
    readonly headerAddr: bigint;
  };
  /** Extra destinations (replication-desc), each written with the RX bytes. */
  readonly replicas: readonly Segment[];
  readonly combo: boolean;
  readonly barrier: boolean;
}

export type PacketPlan = CopyPlan | CcePlan | TransposePlan | FencePlan;

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/** The meta-control op of a CCE compute word and of a plain copy (the layouts' constants). */
const CCE_OP = ADD_META.leaf("op").value as number;
const COPY_OP = metaOp(DEFAULT_COPY_META);
const OPS: Readonly<Record<number, AluOp>> = {
  [SdmaCceType.ADD]: "add",
  [SdmaCceType.FMA]: "fma",
  [SdmaCceType.MAX]: "max",
  [SdmaCceType.MIN]: "min",
};
/** The compute-descriptor fields the planner reads, compiled from their layouts. */
const SEED_SUB = SEED_INIT_DESC.field("sub_desc");
const SEED_W2 = SEED_INIT_DESC.field("reserved_w2");
const SEED = SEED_INIT_DESC.field("seed");
const MM_SUB = MIN_MAX_DESC.field("sub_desc");
const MM_CONST_DT = MIN_MAX_DESC.field("const_dt");
const MM_CONSTANT = MIN_MAX_DESC.field("constant");
const GCE_MODE = GRADIENT_DESC.field("mode");
const GCE_BLOCK_LOG2 = GRADIENT_DESC.field("block_log2");
const GCE_HEADER_ADDR = GRADIENT_DESC.field("header_addr");
const FMA_A = FMA_DESC.field("a_sel");
const FMA_B = FMA_DESC.field("b_sel");
const FMA_C = FMA_DESC.field("c_sel");
const FMA_SCALE = FMA_DESC.field("scale");
/** sub_desc 3: the descriptor loads its sub-descriptor (seed-init's seed, min-max's constant). */
const SUB_DESC_LOAD = 3;

/** min-max-desc const_dt = the constant's SDMA dtype & 7 (seed 000 §2.4): int32 0, uint32 1, fp32 2. */
const CONST_DTYPES: ReadonlyMap<number, Dtype> = new Map(
  MIN_MAX_CONSTANT_DTYPES.map((dt) => [dt % 2 ** MM_CONST_DT.leaf.width, dt]),
);

function dataSegment(d: Descriptor): Segment {
  return { desc: d, addr: pointer(d), len: dataLength(d) };
}

function checkDtype(d: Descriptor, what: string, dt: number): Dtype {
  if (!isDtype(dt)) fault(d, `${what} ${dt} is not a dtype (1..15)`);
  return dt as Dtype;
}

/** Plan a packet from its TX and RX chains. @throws DescriptorFault naming the offending descriptor. */
export function planPacket(
  profile: ArchProfile,
  tx: readonly Descriptor[],
  rx: readonly Descriptor[],
): PacketPlan {
  const sems = rx.some(hasEmbeddedSem) ? rx.filter(hasEmbeddedSem) : NO_DESCRIPTORS;
  if (sems.length > 0 && !profile.hasMarianaSlice)
    fault(
      sems[0] as Descriptor,
      `embedded-semaphore write (S2M len_ctrl bit 31) on ${profile.codename}: the facility is MARIANA-only`,
    );
  const transpose = tx.some(isTransposeTx);
  const compute = !transpose && tx.some((d) => hasMeta(d) || metaOp(d.w1) === CCE_OP);
  const flush = !transpose && !compute && isTransposeFlush(tx, rx);
  if (sems.length > 0 && (transpose || compute || flush)) {
    const what = transpose
      ? "transpose packet (its RX W1 is v51)"
      : compute
        ? "compute packet (its RX W1 is the S2M meta)"
        : "transpose flush";
    fault(sems[0] as Descriptor, `embedded-semaphore write (S2M len_ctrl bit 31) on a ${what}`);
  }
  if (transpose) return planTranspose(profile, tx, rx);
  if (compute) return planCce(profile, tx, rx);
  if (flush) return { kind: "fence", tx: tx[0] as Descriptor, rx: rx[0] as Descriptor };
  return planCopy(tx, rx, sems);
}

/** Shared empty list: most packets carry no embedded-semaphore write. */
const NO_DESCRIPTORS: readonly Descriptor[] = [];

function planCopy(
  tx: readonly Descriptor[],
  rx: readonly Descriptor[],
  sems: readonly Descriptor[],
): CopyPlan {
  for (const d of tx) {
    if (metaOp(d.w1) !== COPY_OP)
      fault(d, `meta_ctrl 0x${d.w1.toString(16)} has op ${metaOp(d.w1)}: neither copy (2) nor CCE (4)`);
  }
  for (const d of rx)
    if (hasMeta(d)) fault(d, "plain-copy RX descriptor carries an S2M meta-control (has_meta)");
  const txs = tx.map(dataSegment);
  const rxs = rx.map(dataSegment);
  const total = (s: Segment[]) => s.reduce((n, x) => n + x.len, 0);
  if (total(txs) !== total(rxs)) {
    fault(rx[0] as Descriptor, `TX chain moves ${total(txs)} bytes but RX chain receives ${total(rxs)}`);
  }
  return {
    kind: "copy",
    tx: txs,
    rx: rxs,
    sems,
    barrier: tx.some(hasDmb) || tx.some((d) => d.w1 !== DEFAULT_COPY_META && metaWriteBarrier(d.w1)),
  };
}

/** The TX chain split around its data descriptors (the sources). */
interface Chain {
  readonly tx: readonly Descriptor[];
  readonly data: readonly Descriptor[];
  readonly firstData: number;
  readonly lastData: number;
}

/** A compute packet, read step by step in ring-packet grammar order (spec/ring-packet.ts). */
function planCce(profile: ArchProfile, tx: readonly Descriptor[], rx: readonly Descriptor[]): CcePlan {
  const data = tx.filter((d) => !hasMeta(d));
  if (data.length === 0) fault(tx[0] as Descriptor, "compute packet has no source (udma-tx data descriptor)");
  const c: Chain = {
    tx,
    data,
    firstData: tx.indexOf(data[0] as Descriptor),
    lastData: tx.indexOf(data[data.length - 1] as Descriptor),
  };
  const { optype, op } = sourceOp(data);
  const { seed, constant, seedInit } = planPrologue(c, op);
  const { gce, replicas } = planEpilogue(profile, c, optype === SdmaCceType.GCE);
  const sources = planSources(c, op, optype, gce?.mode === "decompress");
  const { combo, outDt } = planRx(profile, c, rx, { seedInit, seed, replicas });
  return assembleCcePlan({ c, rx, op, sources, outDt, combo, replicas, seed, constant, gce });
}

/** The op: every source's meta-control must agree (GCE sources reduce by ADD). */
function sourceOp(data: readonly Descriptor[]): { optype: number; op: AluOp } {
  let optype = -1;
  for (const d of data) {
    if (metaOp(d.w1) !== CCE_OP)
      fault(d, `source meta_ctrl 0x${d.w1.toString(16)} has op ${metaOp(d.w1)}, not CCE (4)`);
    const t = metaOptype(d.w1);
    if (t !== SdmaCceType.GCE && OPS[t] === undefined)
      fault(d, `source meta_ctrl optype ${t} is not ADD/FMA/MAX/MIN/GCE`);
    if (optype >= 0 && t !== optype)
      fault(d, `source optype ${t} differs from the packet's first source (${optype})`);
    optype = t;
  }
  return { optype, op: optype === SdmaCceType.GCE ? "add" : (OPS[optype] as AluOp) };
}

/**
 * Prologue: seed-init, then the MIN/MAX constant; the descriptor right before a source is its prefix.
 * Seed-init W1: 0x6000000 loads the seed (also as a combo head), 0x4000000 is the combo-member flag
 * alone; which packets are combos is said by the EXT S2M meta ({@link planRx}).
 */
function planPrologue(
  c: Chain,
  op: AluOp,
): { seed?: number; constant?: CcePlan["constant"]; seedInit?: Descriptor } {
  const out: { seed?: number; constant?: CcePlan["constant"]; seedInit?: Descriptor } = {};
  for (let i = 0; i < c.firstData - (op === "fma" ? 1 : 0); i++) {
    const d = c.tx[i] as Descriptor;
    if (field(d, SEED_W2) === 0 && i === 0 && (d.w1 === SUB_DESCRIPTOR || d.w1 === COMBO_MEMBER)) {
      out.seedInit = d;
      if (field(d, SEED_SUB) === SUB_DESC_LOAD) out.seed = field(d, SEED);
    } else if (MIN_MAX_DESC.matches(d.bytes) && field(d, MM_SUB) === SUB_DESC_LOAD) {
      if (op !== "min" && op !== "max")
        fault(d, `constant (min-max) descriptor in a ${op.toUpperCase()} packet`);
      const cdt = CONST_DTYPES.get(field(d, MM_CONST_DT));
      if (cdt === undefined)
        fault(d, `min-max const_dt ${field(d, MM_CONST_DT)} is not int32 (0), uint32 (1) or fp32 (2)`);
      out.constant = { desc: d, dt: cdt, word: field(d, MM_CONSTANT) };
    } else {
      fault(
        d,
        `compute descriptor W1 0x${d.w1.toString(16)} W2 0x${d.w2.toString(16)} is neither seed-init nor a MIN/MAX constant`,
      );
    }
  }
  return out;
}

/** Epilogue: the gradient-desc (GCE packets), then the replication descriptors. */
function planEpilogue(
  profile: ArchProfile,
  c: Chain,
  isGce: boolean,
): { gce?: CcePlan["gce"]; replicas: Segment[] } {
  let gce: CcePlan["gce"];
  const replicas: Segment[] = [];
  for (let i = c.lastData + 1; i < c.tx.length; i++) {
    const d = c.tx[i] as Descriptor;
    if (GRADIENT_DESC.matches(d.bytes) && replicas.length === 0 && !gce) {
      if (!isGce) fault(d, "gradient-desc in a packet whose sources are not GCE");
      const mode = field(d, GCE_MODE);
      if (mode !== 1 && mode !== 2)
        fault(d, `gradient-desc mode ${mode} is neither COMPRESS (1) nor DECOMPRESS (2)`);
      gce = {
        desc: d,
        mode: mode === 1 ? "compress" : "decompress",
        blockLog2: field(d, GCE_BLOCK_LOG2),
        headerAddr: gceHeaderAddr(d),
      };
    } else if (
      metaOp(d.w1) === REPLICATION_META_CLASS.op &&
      metaOptype(d.w1) === REPLICATION_META_CLASS.optype
    ) {
      if (!profile.hasCceReplication)
        fault(d, `replication descriptor on ${profile.codename}: CCE replication needs arch > 2`);
      replicas.push({ desc: d, addr: pointer(d), len: 0 });
    } else {
      fault(
        d,
        `compute descriptor W1 0x${d.w1.toString(16)} after the last source is neither gradient nor replication`,
      );
    }
  }
  if (isGce && !gce) fault(c.tx[c.lastData] as Descriptor, "GCE sources without a gradient-desc after them");
  return gce === undefined ? { replicas } : { gce, replicas };
}

/** A gradient-desc's header_addr (through its layout). */
export const gceHeaderAddr = (d: Descriptor): bigint => GCE_HEADER_ADDR.read(d.bytes);

/** The FMA operands of an fma-desc. */
function fmaOperands(d: Descriptor): FmaOperands {
  if (!hasMeta(d)) fault(d, "FMA source without its fma-desc before it");
  if (!FMA_DESC.matches(d.bytes)) fault(d, `fma-desc W1 0x${d.w1.toString(16)} is not op 4 optype 1`);
  const fma = { a: field(d, FMA_A), b: field(d, FMA_B), c: field(d, FMA_C), scale: FMA_SCALE.read(d.bytes) };
  for (const [k, v] of Object.entries(fma)) {
    if (k !== "scale" && v > FmaOperand.SCALE)
      fault(d, `fma-desc ${k}_sel ${v} is not an operand (0 stored, 1 input, 2 scale)`);
  }
  return fma;
}

/** The sources, each with its fma-desc for FMA; `packed`: a GCE decompress payload. */
function planSources(c: Chain, op: AluOp, optype: number, packed: boolean): Source[] {
  const sources: Source[] = [];
  if (op === "fma" && c.firstData === 0)
    fault(c.data[0] as Descriptor, "FMA source without its fma-desc before it");
  for (let i = c.firstData - (op === "fma" ? 1 : 0); i <= c.lastData; i++) {
    let d = c.tx[i] as Descriptor;
    let fma: FmaOperands | undefined;
    if (op === "fma") {
      fma = fmaOperands(d);
      i++;
      d = c.tx[i] as Descriptor;
    }
    if (hasMeta(d)) fault(d, "compute descriptor where a source (udma-tx) was expected");
    // ADD's meta has no in_dt: its 15:12 nibble is the dtype the stream delivers (packet-model.ts).
    const inDt = checkDtype(d, "source dtype", optype === SdmaCceType.ADD ? metaOutDt(d.w1) : metaInDt(d.w1));
    checkDtype(d, "accum dtype", metaAccumDt(d.w1));
    const seg = dataSegment(d);
    // A GCE decompress source is a payload (scales + codes), sized by its header, not by in_dt.
    if (!packed && seg.len % dtypeBytes(inDt) !== 0)
      fault(d, `length ${seg.len} is not a whole number of ${dtypeName(inDt)} elements`);
    if (metaLast(d.w1) !== (i === c.lastData)) {
      fault(
        d,
        i === c.lastData
          ? "final source's meta-control lacks the last bit (7)"
          : "meta-control last bit (7) set before the final source",
      );
    }
    const elements = packed ? 0 : seg.len / dtypeBytes(inDt);
    const source: Source = { desc: seg.desc, addr: seg.addr, len: seg.len, inDt, elements };
    sources.push(fma ? { ...source, fma } : source);
  }
  return sources;
}

/**
 * The RX side and the combo (EXT) checks: a combo-member head, an EXT RX meta and the more-bit
 * chain must all agree.
 */
function planRx(
  profile: ArchProfile,
  c: Chain,
  rx: readonly Descriptor[],
  head: { seedInit?: Descriptor | undefined; seed?: number | undefined; replicas: readonly Segment[] },
): { combo: boolean; outDt: Dtype } {
  const rx0 = rx[0] as Descriptor;
  if (!hasMeta(rx0)) fault(rx0, "compute packet's RX descriptor has no S2M meta-control (has_meta clear)");
  const rxMeta = rx0.w1;
  if (metaOp(rxMeta) !== CCE_OP)
    fault(rx0, `S2M meta-control 0x${rxMeta.toString(16)} has op ${metaOp(rxMeta)}, not CCE (4)`);
  const combo = metaOptype(rxMeta) === SdmaCceType.EXT;
  if (!combo && metaOptype(rxMeta) !== SdmaCceType.ADD)
    fault(rx0, `S2M meta-control optype ${metaOptype(rxMeta)} is neither ADD-meta (0) nor EXT (4)`);
  if (combo && !profile.hasCceReplication)
    fault(rx0, `EXT combo packet on ${profile.codename}: CCE concatenation needs arch > 2`);
  if (combo && !head.seedInit)
    fault(c.tx[0] as Descriptor, "EXT combo packet does not open with a combo-member seed-init");
  if (!combo && head.seedInit && head.seed === undefined)
    fault(head.seedInit, "combo-member seed-init (0x4000000) in a packet whose S2M meta is not EXT");
  if (head.replicas.length > 0 && !combo)
    fault((head.replicas[0] as Segment).desc, "replication descriptor outside an EXT combo packet");
  for (const d of c.data) {
    const more = hasMore(d);
    if (combo && more === (d === c.data[c.data.length - 1])) {
      fault(
        d,
        more
          ? "combo more-bit (0x40000000) on the final source"
          : "combo more-bit (0x40000000) missing before the final source",
      );
    }
    if (!combo && more) fault(d, "combo more-bit (0x40000000) outside an EXT combo packet");
  }
  for (const d of rx.slice(1))
    if (hasMeta(d)) fault(d, "S2M meta-control on an RX descriptor after the first");
  const outDt = checkDtype(rx0, "output dtype", metaOutDt(rxMeta));
  checkDtype(rx0, "accum dtype", metaAccumDt(rxMeta));
  return { combo, outDt };
}

/** The plan from its parts, after the checks that need them all. */
function assembleCcePlan(p: {
  readonly c: Chain;
  readonly rx: readonly Descriptor[];
  readonly op: AluOp;
  readonly sources: readonly Source[];
  readonly outDt: Dtype;
  readonly combo: boolean;
  readonly replicas: readonly Segment[];
  readonly seed?: number | undefined;
  readonly constant?: CcePlan["constant"] | undefined;
  readonly gce?: CcePlan["gce"] | undefined;
}): CcePlan {
  const { sources, gce } = p;
  const elements = (sources[0] as Source).elements;
  for (const s of sources) {
    if (s.elements !== elements)
      fault(s.desc, `source has ${s.elements} elements, the first source ${elements}`);
  }
  if (gce && gce.mode === "decompress" && sources.length !== 1)
    fault(gce.desc, `GCE decompress takes one source, the packet has ${sources.length}`);
  const rxSegs = p.rx.map(dataSegment);
  const rxBytes = rxSegs.reduce((n, s) => n + s.len, 0);
  const plan: Mutable<CcePlan> = {
    kind: "cce",
    op: p.op,
    sources,
    elements,
    outDt: p.outDt,
    rx: rxSegs,
    replicas: p.replicas.map((r) => ({ desc: r.desc, addr: r.addr, len: rxBytes })),
    combo: p.combo,
    barrier: p.c.tx.some(hasDmb) || p.c.data.some((d) => metaWrbar(d.w1)),
  };
  // Optional parts assigned, not spread in: a conditional spread builds the plan on V8's slow path.
  if (p.seed !== undefined) plan.seed = p.seed;
  if (p.constant !== undefined) plan.constant = p.constant;
  if (gce !== undefined) plan.gce = gce;
  return plan;
}
