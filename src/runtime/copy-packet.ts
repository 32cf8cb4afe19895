/**
 * The plain copy (DDMA) packet of add_dma_packet (seed 000 §6; public UDMA model): one TX descriptor
 * per ≤ 64 KiB chunk of the source (meta_ctrl 0x01080003, has_meta clear) and one RX descriptor per
 * chunk of the destination; 65536 is written as 0 in the 16-bit length.
 */
import { FieldError } from "../bits/errors.js";
import { COPY_META, UDMA_RX, UDMA_TX } from "../spec/layouts/index.js";
import { MAX_DESCRIPTOR_BYTES, MAX_PACKET_DESCRIPTORS } from "../spec/packet-model.js";
import { chain, type Packet } from "./descriptor.js";
import { copyMetaCtrl } from "./meta-ctrl.js";
import type { Vring, WrittenDescriptor } from "./vring.js";

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

/** The 16-bit length field's value: 65536 is written as 0. */
export function lengthField(bytes: number): number {
  return bytes === MAX_DESCRIPTOR_BYTES ? 0 : bytes;
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
  const parts = chunks(r.size);
  const tx = parts.map(([off, len], i) => ({
    layout: UDMA_TX,
    metaLayout: COPY_META,
    fields: {
      "len_ctrl.length": lengthField(len),
      meta_ctrl: copyMetaCtrl((r.wrbar ?? false) && i === parts.length - 1),
      buf_ptr: r.src + BigInt(off),
    },
  }));
  const rx = parts.map(([off, len]) => ({
    layout: UDMA_RX,
    fields: { "len_ctrl.length": lengthField(len), buf1_ptr: r.dst + BigInt(off) },
  }));
  return { tx: chain("tx", tx, r.dmb ?? false), rx: chain("rx", rx) };
}

/**
 * libnrt add_dma_packet @0x22ff20 → vring_add_dma_packet, seed 000 §6: build the copy and post it.
 * @throws FieldError for a bad request; RingFullError when the rings have no room.
 */
export function addDmaPacket(vring: Vring, r: CopyRequest): WrittenDescriptor[] {
  return vring.post(buildCopyPacket(r));
}
