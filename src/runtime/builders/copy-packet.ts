/**
 * The plain copy (DDMA) packet of add_dma_packet (seed 000 §6; public UDMA model): one TX descriptor
 * per ≤ 64 KiB chunk of the source (meta_ctrl 0x01080003, has_meta clear) and one RX descriptor per
 * chunk of the destination (len_ctrl's declaration writes a 65536-byte chunk as 0).
 */
import { addrArg, MAX_ADDRESS } from "../../bits/arg-check.js";
import { FieldError } from "../../bits/errors.js";
import { COPY_META, UDMA_RX, UDMA_TX } from "../../spec/layouts/index.js";
import { MAX_DESCRIPTOR_BYTES, MAX_PACKET_DESCRIPTORS } from "../../spec/packet-model.js";
import type { PacketSlot } from "../../spec/ring-packet.js";
import { chain, descriptor, type Packet } from "../descriptors/descriptor.js";
import { copyMetaCtrl } from "../descriptors/meta-ctrl.js";
import type { Vring, WrittenDescriptor } from "../rings/vring.js";
import { type PacketTemplate, TemplateChain } from "./cce-template.js";

/** The largest plain copy one packet moves: 64 descriptors of 64 KiB. */
export const MAX_COPY_BYTES = MAX_PACKET_DESCRIPTORS * MAX_DESCRIPTOR_BYTES;

export interface CopyRequest {
  readonly src: bigint;
  readonly dst: bigint;
  readonly size: number;
  /** M2S data memory barrier: len_ctrl bit 30 on the first TX descriptor. */
  readonly dmb?: boolean;
  /** Write barrier: copy meta_ctrl bit 26 on the last TX descriptor (MODEL). */
  readonly wrbar?: boolean;
}

/** Split `size` bytes into ≤ 64 KiB chunks: [offset, length] pairs. */
export function chunks(size: number): [number, number][] {
  const out: [number, number][] = [];
  for (let off = 0; off < size; off += MAX_DESCRIPTOR_BYTES)
    out.push([off, Math.min(MAX_DESCRIPTOR_BYTES, size - off)]);
  return out;
}

/**
 * The descriptors of a plain copy.
 * @throws FieldError when size is not 1..4 MiB or an address does not fit 64 bits.
 * @example buildCopyPacket({ src: 0x1000n, dst: 0x2000n, size: 65536 }) // 1 TX + 1 RX, length 0
 */
export function buildCopyPacket(r: CopyRequest): Packet {
  if (!Number.isInteger(r.size) || r.size < 1 || r.size > MAX_COPY_BYTES) {
    throw new FieldError("copy-request", "size", r.size, `1..${MAX_COPY_BYTES} bytes`);
  }
  for (const end of ["src", "dst"] as const) {
    addrArg("copy-request", end, r[end]);
    if (r[end] + BigInt(r.size) > MAX_ADDRESS + 1n)
      throw new FieldError("copy-request", end, r[end], `an address whose ${r.size} bytes end by 2^64`);
  }
  const parts = chunks(r.size);
  const tx = parts.map(([off, len], i) =>
    descriptor(
      UDMA_TX,
      {
        "len_ctrl.length": len,
        meta_ctrl: copyMetaCtrl((r.wrbar ?? false) && i === parts.length - 1),
        buf_ptr: r.src + BigInt(off),
      },
      COPY_META,
    ),
  );
  const rx = parts.map(([off, len]) =>
    descriptor(UDMA_RX, { "len_ctrl.length": len, buf1_ptr: r.dst + BigInt(off) }),
  );
  return { tx: chain("tx", tx, r.dmb ?? false), rx: chain("rx", rx) };
}

/**
 * libnrt add_dma_packet @0x22ff20 → vring_add_dma_packet, seed 000 §6: build the copy and post it.
 * @throws FieldError for a bad request; RingFullError when the rings have no room.
 */
export function addDmaPacket(vring: Vring, r: CopyRequest): WrittenDescriptor[] {
  return vring.post(buildCopyPacket(r));
}

/**
 * A plain copy compiled once per shape (size, DMB, write barrier) — everything but the addresses
 * (cce-template.ts's chains): posting patches each chunk's source and destination into the words
 * and writes them, no layout encode and no object a descriptor.
 */
class CopyPacketTemplate implements PacketTemplate {
  private readonly tx: TemplateChain;
  private readonly rx: TemplateChain;
  /** Each chunk's offset, and the chunk addresses of the packet being posted (reused). */
  private readonly offsets: readonly bigint[];
  private readonly srcs: bigint[];
  private readonly dsts: bigint[];
  /** The chunk addresses as Numbers ({@link postAt}). */
  private readonly srcsAt: Float64Array;
  private readonly dstsAt: Float64Array;

  constructor(packet: Packet, size: number) {
    this.offsets = chunks(size).map(([off]) => BigInt(off));
    const slots = (kind: "source" | "rx", layout: PacketSlot["layout"]): PacketSlot[] =>
      this.offsets.map((_, index) => ({ kind, layout, index }));
    this.tx = new TemplateChain("tx", packet.tx, slots("source", UDMA_TX));
    this.rx = new TemplateChain("rx", packet.rx, slots("rx", UDMA_RX));
    this.srcs = this.offsets.map(() => 0n);
    this.dsts = this.offsets.map(() => 0n);
    this.srcsAt = new Float64Array(this.offsets.length);
    this.dstsAt = new Float64Array(this.offsets.length);
  }

  postAt(vring: Vring, sources: Float64Array, dests: Float64Array): boolean {
    if (sources.length !== 1 || dests.length !== 1) return false;
    const src = sources[0] as number;
    const dst = dests[0] as number;
    for (let k = 0; k < this.offsets.length; k++) {
      const off = Number(this.offsets[k]);
      this.srcsAt[k] = src + off;
      this.dstsAt[k] = dst + off;
    }
    if (!this.tx.patchAt(this.srcsAt, this.dstsAt) || !this.rx.patchAt(this.srcsAt, this.dstsAt))
      return false;
    vring.postEncoded(this.tx, this.rx);
    return true;
  }

  /** Post with these addresses; false (nothing written) when an address is not a u64. @throws RingFullError */
  post(vring: Vring, src: bigint, dst: bigint): boolean {
    const n = this.offsets.length;
    for (let k = 0; k < n; k++) {
      const off = this.offsets[k] as bigint;
      this.srcs[k] = k === 0 ? src : src + off;
      this.dsts[k] = k === 0 ? dst : dst + off;
    }
    if (!this.tx.patch(this.srcs, this.dsts) || !this.rx.patch(this.srcs, this.dsts)) return false;
    vring.postEncoded(this.tx, this.rx);
    return true;
  }
}

/** Copy templates kept at most (a new shape past this starts the cache over). */
const COPY_TEMPLATES_MAX = 64;
/**
 * The copy templates, by shape, shared by every vring: a copy's bytes depend on the request alone
 * (buildCopyPacket), so a shape is compiled once, not once per queue and run.
 */
const COPY_TEMPLATES = new Map<number, CopyPacketTemplate>();

/**
 * {@link addDmaPacket} for a host that does not read the descriptors back: the same bytes, posted
 * from a template of the request's shape on this vring (compiled from the first such request).
 * @throws FieldError for a bad request; RingFullError when the rings have no room.
 */
export function postDmaPacket(vring: Vring, r: CopyRequest): void {
  const t = copyTemplate(r);
  if (!t.post(vring, r.src, r.dst)) vring.post(buildCopyPacket(r));
}

/** The template a copy of `r`'s shape is posted from, on any vring (compiled from `r` when new). */
export function copyTemplateOf(r: CopyRequest): PacketTemplate {
  return copyTemplate(r);
}

/** @throws FieldError for a request the builder refuses. */
function copyTemplate(r: CopyRequest): CopyPacketTemplate {
  const key = r.size * 4 + (r.dmb === true ? 2 : 0) + (r.wrbar === true ? 1 : 0);
  let t = COPY_TEMPLATES.get(key);
  if (t === undefined) {
    const packet = buildCopyPacket(r);
    // A request the layouts refuse (an address past 64 bits) throws here, as addDmaPacket would.
    t = new CopyPacketTemplate(packet, r.size);
    if (COPY_TEMPLATES.size >= COPY_TEMPLATES_MAX) COPY_TEMPLATES.clear();
    COPY_TEMPLATES.set(key, t);
  }
  return t;
}
