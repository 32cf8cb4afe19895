/**
 * The CCE compute packets: add_dma_packet_cce → vring_add_dma_packet_cce_int and its op arms
 * (seed 000 §2–§5.1), producing the descriptor chains of spec/packet-model.ts.
 */
import { MAX_U32, uintArg } from "../../bits/arg-check.js";
import { type Einval, einval, FieldError, isEinval, SdmaAssertError } from "../../bits/errors.js";
import type { ArchProfile } from "../../hal/arch-profile.js";
import {
  Dtype,
  dtypeBytes,
  dtypeName,
  MIN_MAX_CONSTANT_DTYPES,
  SDMA_DATA_TYPE_SIZE,
} from "../../spec/dtype.js";
import { FmaOperand, SdmaCceType } from "../../spec/enums.js";
import {
  ADD_META,
  EXT_META,
  FMA_DESC,
  FMA_META,
  MIN_MAX_DESC,
  MIN_MAX_META,
  REPLICATION_DESC,
  SEED_INIT_DESC,
  UDMA_RX,
  UDMA_TX,
} from "../../spec/layouts/index.js";
import { MAX_PACKET_DESCRIPTORS } from "../../spec/packet-model.js";
import { cceDescriptors, type PacketOp, type PacketShape, type PacketSlot } from "../../spec/ring-packet.js";
import { CCE_INFO_MAX_SOURCES, COMBO_MORE } from "../../spec/tables.js";
import { type CceInfo, fmaScale } from "../descriptors/cce-info.js";
import {
  fmaDescriptorFields,
  minMaxDescriptorFields,
  replicationDescriptorFields,
  seedInitDescriptorFields,
} from "../descriptors/compute-descriptors.js";
import { chain, type DescriptorItem, descriptor, type Packet } from "../descriptors/descriptor.js";
import { awsHalGetSdmaMaxCceElements } from "../descriptors/gates.js";
import {
  buildAddMetaCtrl,
  buildCceExtMetaCtrl,
  buildFmaMetaCtrl,
  buildMinMaxMetaCtrl,
} from "../descriptors/meta-ctrl.js";
import { kbinCceOpToSdmaCceOp, kbinDtypeToSdmaDtype } from "../descriptors/remaps.js";
import type { Vring, WrittenDescriptor } from "../rings/vring.js";
import { CcePacketTemplate, type PacketTemplate, TemplateCache } from "./cce-template.js";

/** The source file of the vring asserts. */
export const VRING_C = "tdrv/vring.c";
const CCE_INT = "vring_add_dma_packet_cce_int";

/** The -EINVAL messages of this path, as libnrt logs them (seed 000 §4.1, §4.3, §5.1). */
export const CCE_MESSAGES = {
  replication: "CCE replication not supported for v1/v2 archs",
  minMaxDtype: (dt: string) => `Unsupported data type for min/max op ${dt}`,
  concatenation: "CCE concatenation not supported",
} as const;

/** What add_dma_packet_cce is asked (kbin op and kbin dtypes, as the caller has them). */
export interface CceRequest {
  /** KbinDmaDescOp: FMA 1, ADD 2, MIN 3, MAX 4. */
  readonly op: number;
  readonly sources: readonly bigint[];
  readonly dests: readonly bigint[];
  /** Bytes of each source (elements × the input dtype's size). */
  readonly size: number;
  readonly inDtype: number;
  /** Default fp32. */
  readonly accumDtype?: number;
  /** Default: the input dtype. */
  readonly outDtype?: number;
  readonly dmb?: boolean;
  readonly wrbar?: boolean;
  readonly cceInfo: CceInfo | null;
}

/** The same request after the remaps: SDMA op and SDMA dtypes. */
export interface CceTransfer extends Omit<CceRequest, "op" | "inDtype" | "accumDtype" | "outDtype"> {
  readonly op: SdmaCceType;
  readonly inDtype: Dtype;
  readonly accumDtype: Dtype;
  readonly outDtype: Dtype;
}

/** A CCE packet with the grammar slot (kind, source or destination index) of each descriptor. */
export interface CcePacket extends Packet {
  readonly slots: { readonly tx: readonly PacketSlot[]; readonly rx: readonly PacketSlot[] };
}

/** The ring's stochastic-rounding settings the builders read (vring->stochastic_rounding_en). */
export interface SrSettings {
  readonly stochasticRounding: boolean;
  readonly srSeed: number;
}

/**
 * libnrt add_dma_packet_cce @0x2307d0, seed 000 §2.1: remap op and dtypes, then
 * vring_add_dma_packet_cce_int.
 * @throws SdmaAssertError helper.c:0x1C0 (op not FMA/ADD/MIN/MAX), helper.c:0x1AF (dtype not 1..15),
 * and the FMA asserts of {@link vringAddDmaPacketCceInt}.
 * @throws FieldError for a malformed request; RingFullError when the rings have no room.
 * @returns the descriptors written, or -EINVAL with libnrt's message.
 */
export function addDmaPacketCce(vring: Vring, r: CceRequest): WrittenDescriptor[] | Einval {
  const cache = templatesOf(vring);
  const hit = cache.get(r)?.post(vring, r.sources, r.dests);
  if (hit !== undefined) return hit;
  const packet = buildCcePacket(vring.profile, vring, remapCceRequest(r));
  if ("status" in packet) return packet;
  const template = new CcePacketTemplate(r, packet);
  cache.set(template);
  return template.post(vring, r.sources, r.dests) ?? vring.post(packet);
}

/**
 * {@link addDmaPacketCce} for a host that does not read the descriptors back: a request of a shape
 * seen before on the vring is posted from its template with no object made per descriptor; the
 * first of a shape goes through addDmaPacketCce (which compiles its template).
 * @throws as addDmaPacketCce.
 * @returns undefined once posted, or -EINVAL with libnrt's message.
 */
export function postDmaPacketCce(vring: Vring, r: CceRequest): Einval | undefined {
  if (templatesOf(vring).get(r)?.postQuiet(vring, r.sources, r.dests) === true) return undefined;
  const written = addDmaPacketCce(vring, r);
  return isEinval(written) ? written : undefined;
}

/** The template a request of `r`'s shape is posted from on this vring, once one has been posted. */
export function cceTemplateOf(vring: Vring, r: CceRequest): PacketTemplate | undefined {
  return templatesOf(vring).get(r);
}

/**
 * Each vring's packet templates (cce-template.ts): a request of a shape seen before is posted from
 * its template, bytes identical to building it afresh (test/runtime/cce-template.test.ts).
 */
const TEMPLATES = new WeakMap<Vring, TemplateCache>();

/**
 * The template caches vrings share: a packet's bytes depend on the request, the profile and the
 * ring's stochastic-rounding settings only (buildCcePacket; the seed is in the seed-init
 * descriptor), so vrings alike in these — every queue of a run without SR, and the queues of every
 * run after the first — post a shape from the one template compiled for it (the main job's 256
 * queues compiled each shape afresh, run after run: ≈ 14 µs a leg).
 */
const SHARED_TEMPLATES = new WeakMap<ArchProfile, Map<number, TemplateCache>>();
/** Shared caches a profile keeps at most (an SR seed is per queue and run; past this it starts over). */
const SHARED_CACHES_PER_PROFILE = 4096;

/** A vring's template cache: the one shared by vrings of its profile and SR settings. */
function templatesOf(vring: Vring): TemplateCache {
  const own = TEMPLATES.get(vring);
  if (own !== undefined) return own;
  let bySeed = SHARED_TEMPLATES.get(vring.profile);
  if (bySeed === undefined) {
    bySeed = new Map();
    SHARED_TEMPLATES.set(vring.profile, bySeed);
  }
  // Without SR the seed is not in the bytes (the seed-init descriptor is not built).
  const key = vring.stochasticRounding ? vring.srSeed : -1;
  let cache = bySeed.get(key);
  if (cache === undefined) {
    if (bySeed.size >= SHARED_CACHES_PER_PROFILE) bySeed.clear();
    cache = new TemplateCache();
    bySeed.set(key, cache);
  }
  TEMPLATES.set(vring, cache);
  return cache;
}

/** The kbin → SDMA remaps of a request (asserts as libnrt's helpers). */
export function remapCceRequest(r: CceRequest): CceTransfer {
  // Field by field, not a spread of the request (a spread per packet was 20 % of building one).
  const t: { -readonly [K in keyof CceTransfer]: CceTransfer[K] } = {
    op: kbinCceOpToSdmaCceOp(r.op),
    sources: r.sources,
    dests: r.dests,
    size: r.size,
    inDtype: kbinDtypeToSdmaDtype(r.inDtype),
    accumDtype: kbinDtypeToSdmaDtype(r.accumDtype ?? Dtype.FP32),
    outDtype: kbinDtypeToSdmaDtype(r.outDtype ?? r.inDtype),
    cceInfo: r.cceInfo,
  };
  if (r.dmb !== undefined) t.dmb = r.dmb;
  if (r.wrbar !== undefined) t.wrbar = r.wrbar;
  return t;
}

/**
 * libnrt vring_add_dma_packet_cce_int @0x311510, seed 000 §4.1: build the op's packet and post it.
 * @throws SdmaAssertError vring.c:0x3B8 (FMA without cce_info), vring.c:0x3BA (FMA scale not fp32).
 * @throws FieldError for a malformed request; RingFullError when the rings have no room.
 */
export function vringAddDmaPacketCceInt(vring: Vring, t: CceTransfer): WrittenDescriptor[] | Einval {
  const packet = buildCcePacket(vring.profile, vring, t);
  return "status" in packet ? packet : vring.post(packet);
}

/**
 * The descriptors of a CCE transfer, without writing them (the dispatch of
 * vring_add_dma_packet_cce_int): ADD → add packet, MIN/MAX → min-max packet, FMA → FMA packet;
 * num_dests > 1 → the combo packet on arch > 2, else -EINVAL "CCE replication not supported for
 * v1/v2 archs". MODEL: the seed's switch shows the num_dests test in the ADD arm only; sdmakit routes
 * every op with num_dests > 1 the same way rather than drop destinations silently.
 * @throws as {@link vringAddDmaPacketCceInt}.
 */
export function buildCcePacket(profile: ArchProfile, sr: SrSettings, t: CceTransfer): CcePacket | Einval {
  const shape = checkShape(profile, t);
  const arm = opArm(t, shape);
  if ("status" in arm) return arm;
  if (t.dests.length > 1) {
    if (!profile.hasCceReplication) return einval(CCE_MESSAGES.replication);
    return awsCaymanSdmaM2mBuildComboOp(profile, sr, t);
  }
  return assemble(sr, t, shape, arm, false);
}

/**
 * libnrt aws_cayman_sdma_m2m_build_combo_op @0x44a3f0, seed 000 §5.1: the EXT packet — a seed-init
 * first descriptor with the combo-member flag (the constant descriptor after it for MIN/MAX), the
 * per-source descriptors chained by the more-bit, one replication descriptor per extra destination.
 * @throws as {@link vringAddDmaPacketCceInt}.
 * @returns -EINVAL "CCE concatenation not supported" on arch ≤ 2 or when the chain overflows a packet
 * (more than 64 TX descriptors, GROUND_TRUTH).
 */
export function awsCaymanSdmaM2mBuildComboOp(
  profile: ArchProfile,
  sr: SrSettings,
  t: CceTransfer,
): CcePacket | Einval {
  if (!profile.hasCceReplication) return einval(CCE_MESSAGES.concatenation);
  const shape = checkShape(profile, t);
  const arm = opArm(t, shape);
  if ("status" in arm) return arm;
  const packet = assemble(sr, t, shape, arm, true);
  if (packet.tx.length > MAX_PACKET_DESCRIPTORS) return einval(CCE_MESSAGES.concatenation);
  return packet;
}

function opArm(t: CceTransfer, shape: Shape): OpArm | Einval {
  switch (t.op) {
    case SdmaCceType.FMA:
      return fmaArm(t, shape);
    case SdmaCceType.MIN:
    case SdmaCceType.MAX:
      return minMaxArm(t, shape);
    case SdmaCceType.ADD:
      return addArm(t, shape);
    default:
      throw new FieldError(
        "cce-transfer",
        "op",
        t.op,
        "ADD 0, FMA 1, MAX 2, MIN 3 (EXT and GCE are device-only)",
      );
  }
}

/** Stream dtypes and byte lengths of a transfer. */
interface Shape {
  readonly elements: number;
  /** dtype of the TX source streams and of the RX stream, after the u8 → u16 promotion. */
  readonly txDtype: Dtype;
  readonly rxDtype: Dtype;
  readonly txBytes: number;
  readonly rxBytes: number;
}

/** What an op arm contributes: a constant descriptor, per-source prefix, the meta-control word. */
interface OpArm {
  readonly constantDesc?: DescriptorItem;
  readonly perSourceDesc?: (i: number) => DescriptorItem;
  readonly meta: (last: boolean, wrbar: boolean) => number;
  readonly metaLayout: DescriptorItem["layout"];
}

function checkShape(profile: ArchProfile, t: CceTransfer): Shape {
  const n = t.sources.length;
  const cap = Math.min(profile.maxCceSources, CCE_INFO_MAX_SOURCES);
  if (n < 1 || n > cap) {
    throw new FieldError(
      "cce-info",
      "num_sources",
      n,
      `1..${cap} (kbin_dma_desc_cce_info_t holds ${CCE_INFO_MAX_SOURCES}; ${profile.name} maxCceSources ${profile.maxCceSources})`,
    );
  }
  if (t.dests.length < 1) throw new FieldError("cce-request", "dests", t.dests.length, "1.. destinations");
  if (t.cceInfo !== null) {
    if (t.cceInfo.num_sources !== n)
      throw new FieldError(
        "cce-info",
        "num_sources",
        t.cceInfo.num_sources,
        `${n} (the source addresses given)`,
      );
    if (t.cceInfo.num_dests !== t.dests.length) {
      throw new FieldError(
        "cce-info",
        "num_dests",
        t.cceInfo.num_dests,
        `${t.dests.length} (the destination addresses given)`,
      );
    }
  }
  const inBytes = dtypeBytes(t.inDtype);
  const maxElements = awsHalGetSdmaMaxCceElements(profile.arch);
  if (
    !Number.isInteger(t.size) ||
    t.size < inBytes ||
    t.size % inBytes !== 0 ||
    t.size > maxElements * inBytes
  ) {
    throw new FieldError(
      "cce-request",
      "size",
      t.size,
      `a multiple of ${inBytes} in ${inBytes}..${maxElements * inBytes} bytes (1..${maxElements} ${dtypeName(t.inDtype)} elements, aws_hal_get_sdma_max_cce_elements)`,
    );
  }
  const elements = t.size / inBytes;
  // Seed 000 §4.2: a single 1-byte stream in and out goes through the 16-bit accumulation lane.
  const promote = n === 1 && t.inDtype === t.outDtype && SDMA_DATA_TYPE_SIZE[t.inDtype] === 1;
  if (promote && t.size % 2 !== 0) {
    throw new FieldError(
      "cce-request",
      "size",
      t.size,
      "an even byte count (the u8 → u16 lane promotion, seed 000 §4.2)",
    );
  }
  const txDtype = promote ? Dtype.UINT16 : t.inDtype;
  const rxDtype = promote ? Dtype.UINT16 : t.outDtype;
  return {
    elements,
    txDtype,
    rxDtype,
    txBytes: t.size,
    rxBytes: promote ? t.size : elements * dtypeBytes(t.outDtype),
  };
}

/** The ADD arm: libnrt al_sdma_m2m_build_add_packet @0x453210, seed 000 §4.1 (acc' = acc + src_i). */
function addArm(t: CceTransfer, s: Shape): OpArm {
  return {
    metaLayout: ADD_META,
    // ADD has no in_dt nibble: the TX word's out_dt carries the source stream's dtype (seed 000 §9.1).
    meta: (last, wrbar) => buildAddMetaCtrl({ out_dt: s.txDtype, accum_dt: t.accumDtype, last, wrbar }),
  };
}

/** The FMA arm: libnrt al_sdma_m2m_build_fma_packet @0x4538f0, seed 000 §3.2 (asserts vring.c:0x3B8 / 0x3BA). */
function fmaArm(t: CceTransfer, s: Shape): OpArm | Einval {
  const info = t.cceInfo;
  if (info === null) throw new SdmaAssertError(VRING_C, 0x3b8, CCE_INT, "cce_info != NULL");
  const scaleDt = kbinDtypeToSdmaDtype(info["fma_info.scale_dtype"] ?? 0);
  if (scaleDt !== Dtype.FP32) {
    throw new SdmaAssertError(
      VRING_C,
      0x3ba,
      CCE_INT,
      "sdma_scale_dtype == al_sdma_m2m_meta_ctrl_data_type_fp32",
    );
  }
  const scale = t.sources.map((_, i) => fmaScale(info, i));
  const missing = scale.indexOf(undefined);
  if (missing >= 0) {
    throw new FieldError("cce-info", `fma_info.scale.${missing}`, undefined, "a scale for every source");
  }
  return {
    metaLayout: FMA_META,
    perSourceDesc: (i) =>
      descriptor(
        FMA_DESC,
        fmaDescriptorFields({
          a_sel: FmaOperand.INPUT_BUFFER,
          b_sel: FmaOperand.SCALE,
          c_sel: FmaOperand.STORED_BUFFER,
          scale: scale[i] as number,
        }),
      ),
    meta: (last, wrbar) =>
      buildFmaMetaCtrl({ in_dt: s.txDtype, scale_dt: scaleDt, accum_dt: t.accumDtype, last, wrbar }),
  };
}

/** The MIN / MAX arm: libnrt al_sdma_m2m_build_min_max_packet @0x454130, seed 000 §4.1. */
function minMaxArm(t: CceTransfer, s: Shape): OpArm | Einval {
  const info = t.cceInfo;
  const useConst = info?.["min_max_info.use_constant"] ?? false;
  let constantDesc: OpArm["constantDesc"];
  if (useConst && info !== null) {
    const constDt = kbinDtypeToSdmaDtype(info["min_max_info.constant_dtype"] ?? 0);
    if (!MIN_MAX_CONSTANT_DTYPES.includes(constDt))
      return einval(CCE_MESSAGES.minMaxDtype(dtypeName(constDt)));
    // The constant's raw 32 bits (an int32, a uint32 or an FP32 word, by const_dt).
    const constant = uintArg(
      "cce-info",
      "min_max_info.constant",
      info["min_max_info.constant"] ?? 0,
      MAX_U32,
    );
    constantDesc = descriptor(
      MIN_MAX_DESC,
      minMaxDescriptorFields({ constant, length: s.txBytes, use_const: useConst, const_dt: constDt }),
    );
  }
  // MODEL (GROUND_TRUTH): bits 22:20 carry the MAX / MIN optype.
  const optype = t.op;
  return {
    metaLayout: MIN_MAX_META,
    ...(constantDesc === undefined ? {} : { constantDesc }),
    meta: (last, wrbar) =>
      buildMinMaxMetaCtrl({
        const_dt: optype,
        in_dt: s.txDtype,
        out_dt: s.rxDtype,
        accum_dt: t.accumDtype,
        last,
        wrbar,
        use_const: useConst,
      }),
  };
}

/** The grammar's name for a transfer's op. */
const PACKET_OP: Readonly<Record<number, PacketOp>> = {
  [SdmaCceType.ADD]: "add",
  [SdmaCceType.FMA]: "fma",
  [SdmaCceType.MIN]: "min",
  [SdmaCceType.MAX]: "max",
};

/**
 * The TX and RX chains, walking the ring-packet grammar (spec/ring-packet.ts). `combo`: the EXT
 * packet — seed-init always first with the combo-member flag, COMBO_MORE on every source's
 * meta-control but the last, replication descriptors at the end.
 */
function assemble(sr: SrSettings, t: CceTransfer, s: Shape, arm: OpArm, combo: boolean): CcePacket {
  const shape: PacketShape = {
    op: PACKET_OP[t.op] as PacketOp,
    sources: t.sources.length,
    dests: t.dests.length,
    sr: sr.stochasticRounding,
    useConst: arm.constantDesc !== undefined,
    combo,
  };
  const lastSource = t.sources.length - 1;
  const item = (slot: PacketSlot): DescriptorItem => {
    switch (slot.kind) {
      case "seed-init":
        return descriptor(
          SEED_INIT_DESC,
          seedInitDescriptorFields({
            seed_enable: sr.stochasticRounding,
            seed: sr.stochasticRounding ? sr.srSeed : 0,
            combo_member: combo,
          }),
        );
      case "min-max":
        return arm.constantDesc as DescriptorItem;
      case "fma":
        return (arm.perSourceDesc as (i: number) => DescriptorItem)(slot.index);
      case "source": {
        const last = slot.index === lastSource;
        const meta = arm.meta(last, last && (t.wrbar ?? false));
        return descriptor(
          UDMA_TX,
          {
            "len_ctrl.length": s.txBytes,
            meta_ctrl: combo && !last ? (meta | COMBO_MORE) >>> 0 : meta,
            buf_ptr: t.sources[slot.index] as bigint,
          },
          arm.metaLayout,
        );
      }
      case "replication":
        return descriptor(
          REPLICATION_DESC,
          replicationDescriptorFields({ mode: 1, dest: t.dests[slot.index] as bigint }),
        );
      case "rx":
        return descriptor(
          UDMA_RX,
          {
            "len_ctrl.length": s.rxBytes,
            "len_ctrl.has_meta": true,
            buf2_ptr_lo: combo
              ? buildCceExtMetaCtrl({ mid_dt: s.rxDtype, accum_dt: t.accumDtype })
              : buildAddMetaCtrl({ out_dt: s.rxDtype, accum_dt: t.accumDtype }),
            buf1_ptr: t.dests[0] as bigint,
          },
          combo ? EXT_META : ADD_META,
        );
      case "gradient":
        throw new FieldError(
          "cce-transfer",
          "op",
          t.op,
          "ADD, FMA, MIN or MAX (GCE packets are built by addGradientPacket)",
        );
    }
  };
  const slots = cceDescriptors(shape);
  return {
    tx: chain("tx", slots.tx.map(item), t.dmb ?? false),
    rx: chain("rx", slots.rx.map(item)),
    slots,
  };
}
