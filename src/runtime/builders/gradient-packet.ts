/**
 * The GCE gradient packet (al_sdma_m2m_build_gradient_packet @0x454990, seed 000 §5.2): reduce N
 * sources and compress the result, or expand one compressed payload; a compression header travels
 * beside the payload (format: spec/gce-header.ts). The three -EINVAL messages are the seed's
 * .rodata strings; which condition reaches each is MODEL (docs/FIDELITY.md).
 */
import { type Einval, einval, FieldError, SdmakitError } from "../../bits/errors.js";
import { Dtype, dtypeBytes } from "../../spec/dtype.js";
import { GCE_HEADER, GCE_HEADER_ALIGN, gcePayloadBytes } from "../../spec/gce-header.js";
import {
  ADD_META,
  GCE_META,
  GRADIENT_DESC,
  SEED_INIT_DESC,
  UDMA_RX,
  UDMA_TX,
} from "../../spec/layouts/index.js";
import { cceDescriptors, type PacketSlot } from "../../spec/ring-packet.js";
import {
  GceMode,
  gradientDescriptorFields,
  seedInitDescriptorFields,
} from "../descriptors/compute-descriptors.js";
import { chain, type DescriptorItem, descriptor, type Packet } from "../descriptors/descriptor.js";
import { awsHalGetSdmaMaxCceElements } from "../descriptors/gates.js";
import { buildAddMetaCtrl, buildGradientMetaCtrl } from "../descriptors/meta-ctrl.js";
import { kbinDtypeToSdmaDtype } from "../descriptors/remaps.js";
import type { Vring, WrittenDescriptor } from "../rings/vring.js";

/** The seed's GCE strings (0x82391a, 0x823948, 0x823982); %s is "" or "de", %lx the address. */
export const GCE_MESSAGES = {
  headerAddr: (mode: GceMode, addr: bigint) =>
    `invalid ${mode === GceMode.DECOMPRESS ? "de" : ""}compression header addr ${addr.toString(16)}`,
  decompressionHeader: "Failed to build decompression header",
  bufferPacket: "Failed to build buffer packet for gce op",
} as const;

/** The compressed payload's stream dtype (the codec's codes, MODEL). */
export const GCE_PAYLOAD_DTYPE = Dtype.FP8_E4;

export interface GceRequest {
  readonly mode: GceMode;
  /** COMPRESS: the tensors to reduce (1..the profile's cap); DECOMPRESS: the one payload. */
  readonly sources: readonly bigint[];
  readonly dest: bigint;
  readonly headerAddr: bigint;
  /** Values of the uncompressed tensor. */
  readonly elements: number;
  /** kbin dtypes: of the sources (COMPRESS) / of the expanded result (DECOMPRESS). */
  readonly dtype: number;
  /** Default fp32. */
  readonly accumDtype?: number;
  readonly blockLog2: number;
  readonly dmb?: boolean;
  readonly wrbar?: boolean;
}

/**
 * libnrt al_sdma_m2m_build_gradient_packet @0x454990, seed 000 §5.2 (packet body MODEL).
 * Build a GCE packet and post it; in DECOMPRESS mode first write the decompression header at
 * `headerAddr`.
 * @throws SdmaAssertError helper.c:0x1AF for a dtype outside 1..15; RingFullError when the rings
 * have no room (nothing written).
 * @returns the descriptors written, or -EINVAL with one of {@link GCE_MESSAGES}.
 */
export function addGradientPacket(vring: Vring, r: GceRequest): WrittenDescriptor[] | Einval {
  const dtype = kbinDtypeToSdmaDtype(r.dtype);
  const accumDt = kbinDtypeToSdmaDtype(r.accumDtype ?? Dtype.FP32);
  if (r.headerAddr === 0n || r.headerAddr % BigInt(GCE_HEADER_ALIGN) !== 0n || r.headerAddr >= 2n ** 64n) {
    return einval(GCE_MESSAGES.headerAddr(r.mode, r.headerAddr));
  }
  const maxElements = awsHalGetSdmaMaxCceElements(vring.profile.arch);
  const sourcesOk =
    r.mode === GceMode.DECOMPRESS
      ? r.sources.length === 1
      : r.sources.length >= 1 && r.sources.length <= vring.profile.maxCceSources;
  const blockOk = Number.isInteger(r.blockLog2) && r.blockLog2 >= 0 && r.blockLog2 <= 15;
  if (!sourcesOk || !blockOk || !Number.isInteger(r.elements) || r.elements < 1 || r.elements > maxElements) {
    return einval(GCE_MESSAGES.bufferPacket);
  }
  const payloadBytes = gcePayloadBytes(r.elements, r.blockLog2);
  const compress = r.mode === GceMode.COMPRESS;
  const txBytes = compress ? r.elements * dtypeBytes(dtype) : payloadBytes;
  const rxBytes = compress ? payloadBytes : r.elements * dtypeBytes(dtype);
  const packet = buildGradientPacket(vring, r, {
    txDt: compress ? dtype : GCE_PAYLOAD_DTYPE,
    accumDt,
    txBytes,
    rxBytes,
  });
  vring.checkRoom(packet);
  if (!compress) {
    try {
      const header = GCE_HEADER.encode({
        elements: r.elements,
        dtype,
        block_log2: r.blockLog2,
        payload_bytes: payloadBytes,
      });
      vring.memory.write(r.headerAddr, header, "GCE decompression header");
    } catch (e) {
      // An unmapped header address (DeviceFault) or a value the header cannot hold (FieldError).
      if (!(e instanceof SdmakitError)) throw e;
      return einval(GCE_MESSAGES.decompressionHeader);
    }
  }
  return vring.post(packet);
}

interface Streams {
  readonly txDt: Dtype;
  readonly accumDt: Dtype;
  readonly txBytes: number;
  readonly rxBytes: number;
}

/** The GCE packet, walking the ring-packet grammar (spec/ring-packet.ts) for the "gce" op. */
function buildGradientPacket(vring: Vring, r: GceRequest, s: Streams): Packet {
  const lastSource = r.sources.length - 1;
  const outDt = r.mode === GceMode.COMPRESS ? GCE_PAYLOAD_DTYPE : kbinDtypeToSdmaDtype(r.dtype);
  const item = (slot: PacketSlot): DescriptorItem => {
    switch (slot.kind) {
      case "seed-init":
        return descriptor(
          SEED_INIT_DESC,
          seedInitDescriptorFields({ seed_enable: true, seed: vring.srSeed }),
        );
      case "source": {
        const last = slot.index === lastSource;
        const meta = buildGradientMetaCtrl({
          in_dt: s.txDt,
          scale_dt: Dtype.FP32,
          accum_dt: s.accumDt,
          last,
          wrbar: last && (r.wrbar ?? false),
        });
        return descriptor(
          UDMA_TX,
          { "len_ctrl.length": s.txBytes, meta_ctrl: meta, buf_ptr: r.sources[slot.index] as bigint },
          GCE_META,
        );
      }
      case "gradient":
        return descriptor(
          GRADIENT_DESC,
          gradientDescriptorFields({ mode: r.mode, block_log2: r.blockLog2, header_addr: r.headerAddr }),
        );
      case "rx":
        return descriptor(
          UDMA_RX,
          {
            "len_ctrl.length": s.rxBytes,
            "len_ctrl.has_meta": true,
            buf2_ptr_lo: buildAddMetaCtrl({ out_dt: outDt, accum_dt: s.accumDt }),
            buf1_ptr: r.dest,
          },
          ADD_META,
        );
      default:
        throw new FieldError("gce-request", "packet", slot.kind, "a descriptor of the GCE grammar");
    }
  };
  const slots = cceDescriptors({
    op: "gce",
    sources: r.sources.length,
    dests: 1,
    sr: vring.stochasticRounding,
  });
  return { tx: chain("tx", slots.tx.map(item), r.dmb ?? false), rx: chain("rx", slots.rx.map(item)) };
}
