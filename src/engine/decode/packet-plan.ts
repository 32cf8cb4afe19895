/**
 * Turn one packet's fetched TX and RX chains into an execution plan, reading only the descriptor
 * bytes, exactly as src/spec/packet-model.ts lays them out:
 *
 *   TX: [seed-init] [min-max constant] { [fma-desc | …] udma-tx }×sources [gradient-desc] [replication-desc]×k
 *   RX: udma-rx × k' (has_meta: buf2_ptr_lo is the S2M meta-control: add-meta, or ext-meta for a combo)
 *
 * A compute packet's TX chain is read through the ring-packet grammar (spec/ring-packet.ts
 * matchCceTx): each grammar step, in order, recognises its descriptor from the bytes where the
 * grammar allows it (seed-init W1 sub_desc 2 | 3 with W2 = 0, the MIN/MAX constant W2 bit 25, fma-desc
 * op 4 optype 1, gradient op 4 optype 5, replication op 1 optype 2); a chain that departs from it is a
 * fault naming the descriptor. The device plans each shape once (plan-cache.ts).
 */
import type { ArchProfile } from "../../hal/arch-profile.js";
import type { AluOp, FmaOperands } from "../../numerics/index.js";
import { type Dtype, dtypeBytes, dtypeName, isDtype, MIN_MAX_CONSTANT_DTYPES } from "../../spec/dtype.js";
import { FmaOperand, SdmaCceType } from "../../spec/enums.js";
import { ADD_META, FMA_DESC, GRADIENT_DESC, MIN_MAX_DESC, SEED_INIT_DESC } from "../../spec/layouts/index.js";
import {
  cceDescriptors,
  type DescriptorKind,
  matchCceTx,
  type PacketOp,
  type PacketShape,
  type PacketSlot,
  SUB_DESC_LOAD,
  txKindOf,
} from "../../spec/ring-packet.js";
import { DEFAULT_COPY_META } from "../../spec/tables.js";
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
  pointerNumber,
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
  /**
   * Where it is, when not its descriptor's pointer (a transpose target, a GCE header, a semaphore):
   * read it through {@link segmentAddr}. A data segment keeps no bigint: the engine's fast paths
   * take `at`, and a plan-cache hit would make one per segment per packet for nothing.
   */
  readonly addr?: bigint;
  /** The address as a Number for memory's number fast path (descriptor.ts pointerNumber), when known. */
  readonly at?: number;
  readonly len: number;
}

/** A segment's address: its own, else its descriptor's pointer. */
export function segmentAddr(s: Segment): bigint {
  return s.addr ?? pointer(s.desc);
}

export interface CopyPlan {
  readonly kind: "copy";
  readonly tx: readonly Segment[];
  readonly rx: readonly Segment[];
  /** RX descriptors carrying a MARIANA embedded-semaphore write (len_ctrl bit 31), in RX order. */
  readonly sems: readonly Descriptor[];
  readonly barrier: boolean;
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
  /** MIN/MAX constant clamp: its dtype and word (numerics reduceInto converts it to FP32). */
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
const SEED = SEED_INIT_DESC.field("seed");
const MM_CONST_DT = MIN_MAX_DESC.field("const_dt");
const MM_CONSTANT = MIN_MAX_DESC.field("constant");
const GCE_MODE = GRADIENT_DESC.field("mode");
const GCE_BLOCK_LOG2 = GRADIENT_DESC.field("block_log2");
const GCE_HEADER_ADDR = GRADIENT_DESC.field("header_addr");
const FMA_A = FMA_DESC.field("a_sel");
const FMA_B = FMA_DESC.field("b_sel");
const FMA_C = FMA_DESC.field("c_sel");
const FMA_SCALE = FMA_DESC.field("scale");

/** min-max-desc const_dt = the constant's SDMA dtype & 7 (seed 000 §2.4): int32 0, uint32 1, fp32 2. */
const CONST_DTYPES: ReadonlyMap<number, Dtype> = new Map(
  MIN_MAX_CONSTANT_DTYPES.map((dt) => [dt % 2 ** MM_CONST_DT.leaf.width, dt]),
);

function dataSegment(d: Descriptor): Segment {
  return { desc: d, at: pointerNumber(d), len: dataLength(d) };
}

function checkDtype(d: Descriptor, what: string, dt: number): Dtype {
  if (!isDtype(dt)) fault(d, `${what} ${dt} is not a dtype (1..15)`);
  return dt as Dtype;
}

/** A TX chain the CCE reduces (a compute descriptor, or a source whose meta op is CCE); not a transpose. */
function isComputeChain(tx: readonly Descriptor[]): boolean {
  for (const d of tx) if (hasMeta(d) || metaOp(d.w1) === CCE_OP) return true;
  return false;
}

/**
 * How many bytes the S2M side of a packet receives, from its TX chain — what delimits the packet's
 * RX descriptors, which carry no FIRST / LAST (aws-neuron-driver udma.h): the TX chain's data bytes
 * for a copy, a transpose or a flush; 0 for a compute packet, whose result lands in one RX
 * descriptor (spec/ring-packet.ts CCE_RX_GRAMMAR; MODEL: its byte count depends on the output
 * dtype that descriptor carries).
 */
export function rxStreamBytes(tx: readonly Descriptor[]): number {
  if (!tx.some(isTransposeTx) && isComputeChain(tx)) return 0;
  let n = 0;
  for (const d of tx) n += dataLength(d);
  return n;
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
  const compute = !transpose && isComputeChain(tx);
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

/**
 * The bytes of a chain's segments. A function, not a closure a packet: tsx (the bench's and the
 * tests' runner) names each closure it makes with an Object.defineProperty.
 */
function segmentBytes(s: readonly Segment[]): number {
  let n = 0;
  for (const x of s) n += x.len;
  return n;
}

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
  if (segmentBytes(txs) !== segmentBytes(rxs)) {
    fault(
      rx[0] as Descriptor,
      `TX chain moves ${segmentBytes(txs)} bytes but RX chain receives ${segmentBytes(rxs)}`,
    );
  }
  return {
    kind: "copy",
    tx: txs,
    rx: rxs,
    sems,
    barrier: tx.some(hasDmb) || tx.some((d) => d.w1 !== DEFAULT_COPY_META && metaWriteBarrier(d.w1)),
  };
}

/** The TX chain and its data descriptors (the sources). */
interface Chain {
  readonly tx: readonly Descriptor[];
  readonly data: readonly Descriptor[];
}

/** What the grammar-read TX chain holds besides its sources. */
interface TxParts {
  seedInit?: Descriptor;
  seed?: number;
  constant?: CcePlan["constant"];
  gce?: CcePlan["gce"];
  readonly replicas: Segment[];
  readonly sources: Source[];
}

/**
 * A compute packet: the op from its sources' meta-control, the TX chain read through the ring-packet
 * grammar (spec/ring-packet.ts matchCceTx: which descriptor is what), each part checked, the RX side,
 * and last the check that the grammar, given the shape read, spells exactly this chain.
 */
function planCce(profile: ArchProfile, tx: readonly Descriptor[], rx: readonly Descriptor[]): CcePlan {
  const data = tx.filter((d) => !hasMeta(d));
  if (data.length === 0) fault(tx[0] as Descriptor, "compute packet has no source (udma-tx data descriptor)");
  const c: Chain = { tx, data };
  const { optype, op } = sourceOp(data);
  const packetOp: PacketOp = optype === SdmaCceType.GCE ? "gce" : op;
  const match = matchCceTx(
    packetOp,
    tx.map((d) => d.bytes),
  );
  if ("at" in match) grammarFault(c, match, packetOp);
  const parts = readSlots(profile, c, match.slots, optype);
  const { combo, outDt } = planRx(profile, c, rx, parts);
  checkGrammarShape(tx, match.slots, {
    op: packetOp,
    sources: parts.sources.length,
    dests: 1 + parts.replicas.length,
    sr: parts.seed !== undefined,
    useConst: parts.constant !== undefined,
    combo,
  });
  return assembleCcePlan({ c, rx, op, outDt, combo, ...parts });
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

/** The fault for a TX chain that departs from the grammar, named for what is there instead. */
function grammarFault(
  c: Chain,
  m: { readonly at: number; readonly expected: DescriptorKind | "end" },
  op: PacketOp,
): never {
  const last = c.tx[c.tx.length - 1] as Descriptor;
  const d = c.tx[m.at];
  if (d === undefined) {
    if (m.expected === "gradient") fault(last, "GCE sources without a gradient-desc after them");
    fault(last, `TX chain ends where the ring-packet grammar expects a ${m.expected} descriptor`);
  }
  const is = txKindOf(d.bytes);
  const words = `W1 0x${d.w1.toString(16)} W2 0x${d.w2.toString(16)}`;
  const beforeSources = m.at < c.tx.indexOf(c.data[0] as Descriptor);
  const afterSources = m.at > c.tx.indexOf(c.data[c.data.length - 1] as Descriptor);
  if (is === "source") {
    if (m.expected === "fma") fault(d, "FMA source without its fma-desc before it");
    fault(d, `source (udma-tx) where the ring-packet grammar expects a ${m.expected} descriptor`);
  }
  if (is === "min-max") fault(d, `constant (min-max) descriptor in a ${op.toUpperCase()} packet`);
  if (is === "gradient" && op !== "gce") fault(d, "gradient-desc in a packet whose sources are not GCE");
  if (m.expected === "fma") fault(d, `fma-desc ${words} is not op 4 optype 1`);
  if (beforeSources) fault(d, `compute descriptor ${words} is neither seed-init nor a MIN/MAX constant`);
  if (afterSources)
    fault(
      d,
      `compute descriptor W1 0x${d.w1.toString(16)} after the last source is neither gradient nor replication`,
    );
  if (m.expected === "source") fault(d, "compute descriptor where a source (udma-tx) was expected");
  fault(d, `${is ?? "unknown compute"} descriptor where the ring-packet grammar expects ${m.expected}`);
}

/** Each grammar slot's descriptor read and checked: seed, constant, FMA operands, sources, GCE, replicas. */
function readSlots(profile: ArchProfile, c: Chain, slots: readonly PacketSlot[], optype: number): TxParts {
  const parts: TxParts = { replicas: [], sources: [] };
  const lastSource = c.tx.indexOf(c.data[c.data.length - 1] as Descriptor);
  // The gradient-desc follows the sources but says how to read them: a decompress source is a payload.
  const gradient = slots.findIndex((s) => s.kind === "gradient");
  if (gradient >= 0) parts.gce = gradientOf(c.tx[gradient] as Descriptor);
  const packed = parts.gce?.mode === "decompress";
  let fma: FmaOperands | undefined;
  for (let i = 0; i < slots.length; i++) {
    const d = c.tx[i] as Descriptor;
    switch ((slots[i] as PacketSlot).kind) {
      case "seed-init":
        parts.seedInit = d;
        if (field(d, SEED_SUB) === SUB_DESC_LOAD) parts.seed = field(d, SEED);
        break;
      case "min-max":
        parts.constant = constantOf(d);
        break;
      case "fma":
        fma = fmaOperands(d);
        break;
      case "source":
        parts.sources.push(sourceOf(d, optype, i === lastSource, packed, fma));
        fma = undefined;
        break;
      case "gradient":
        break;
      case "replication":
        if (!profile.hasCceReplication)
          fault(d, `replication descriptor on ${profile.codename}: CCE replication needs arch > 2`);
        parts.replicas.push({ desc: d, at: pointerNumber(d), len: 0 });
        break;
      default:
        fault(d, `${(slots[i] as PacketSlot).kind} descriptor on the TX ring`);
    }
  }
  return parts;
}

/** The MIN/MAX constant of a min-max-desc. */
function constantOf(d: Descriptor): NonNullable<CcePlan["constant"]> {
  const cdt = CONST_DTYPES.get(field(d, MM_CONST_DT));
  if (cdt === undefined)
    fault(d, `min-max const_dt ${field(d, MM_CONST_DT)} is not int32 (0), uint32 (1) or fp32 (2)`);
  return { desc: d, dt: cdt, word: field(d, MM_CONSTANT) };
}

/** The GCE direction, block and header of a gradient-desc. */
function gradientOf(d: Descriptor): NonNullable<CcePlan["gce"]> {
  const mode = field(d, GCE_MODE);
  if (mode !== 1 && mode !== 2)
    fault(d, `gradient-desc mode ${mode} is neither COMPRESS (1) nor DECOMPRESS (2)`);
  return {
    desc: d,
    mode: mode === 1 ? "compress" : "decompress",
    blockLog2: field(d, GCE_BLOCK_LOG2),
    headerAddr: gceHeaderAddr(d),
  };
}

/** A gradient-desc's header_addr (through its layout). */
export const gceHeaderAddr = (d: Descriptor): bigint => GCE_HEADER_ADDR.read(d.bytes);

/** The FMA operands of an fma-desc. */
function fmaOperands(d: Descriptor): FmaOperands {
  const fma = { a: field(d, FMA_A), b: field(d, FMA_B), c: field(d, FMA_C), scale: FMA_SCALE.read(d.bytes) };
  for (const [k, v] of Object.entries(fma)) {
    if (k !== "scale" && v > FmaOperand.SCALE)
      fault(d, `fma-desc ${k}_sel ${v} is not an operand (0 stored, 1 input, 2 scale)`);
  }
  return fma;
}

/** One source: its dtype and element count from its meta-control, the last bit where it belongs. */
function sourceOf(
  d: Descriptor,
  optype: number,
  last: boolean,
  packed: boolean,
  fma: FmaOperands | undefined,
): Source {
  // ADD's meta has no in_dt: its 15:12 nibble is the dtype the stream delivers (packet-model.ts).
  const inDt = checkDtype(d, "source dtype", optype === SdmaCceType.ADD ? metaOutDt(d.w1) : metaInDt(d.w1));
  checkDtype(d, "accum dtype", metaAccumDt(d.w1));
  const seg = dataSegment(d);
  // A GCE decompress source is a payload (scales + codes), sized by its header, not by in_dt.
  if (!packed && seg.len % dtypeBytes(inDt) !== 0)
    fault(d, `length ${seg.len} is not a whole number of ${dtypeName(inDt)} elements`);
  if (metaLast(d.w1) !== last) {
    fault(
      d,
      last
        ? "final source's meta-control lacks the last bit (7)"
        : "meta-control last bit (7) set before the final source",
    );
  }
  const elements = packed ? 0 : seg.len / dtypeBytes(inDt);
  const source: Source = {
    desc: seg.desc,
    at: seg.at as number,
    len: seg.len,
    inDt,
    elements,
  };
  return fma ? { ...source, fma } : source;
}

/**
 * The shape read from the chain, given back to the grammar, must spell the chain descriptor for
 * descriptor (a seed-init in a packet that neither loads a seed nor is a combo, for one).
 */
function checkGrammarShape(
  tx: readonly Descriptor[],
  slots: readonly PacketSlot[],
  shape: PacketShape,
): void {
  const want = cceDescriptors(shape).tx;
  for (let i = 0; i < Math.max(want.length, slots.length); i++) {
    const have = slots[i]?.kind;
    const kind = want[i]?.kind;
    if (have !== kind)
      fault(
        (tx[i] ?? tx[tx.length - 1]) as Descriptor,
        `TX chain departs from the ring-packet grammar for this packet: ${have ?? "nothing"} where it has ${kind ?? "nothing"}`,
      );
  }
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
    replicas: p.replicas.map((r) => ({ desc: r.desc, at: r.at as number, len: rxBytes })),
    combo: p.combo,
    barrier: p.c.tx.some(hasDmb) || p.c.data.some((d) => metaWrbar(d.w1)),
  };
  // Optional parts assigned, not spread in: a conditional spread builds the plan on V8's slow path.
  if (p.seed !== undefined) plan.seed = p.seed;
  if (p.constant !== undefined) plan.constant = p.constant;
  if (gce !== undefined) plan.gce = gce;
  return plan;
}
