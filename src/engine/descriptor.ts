/**
 * A descriptor as the engine fetched it: 16 bytes from ring memory, its four words, and where it
 * came from. Field meaning comes from the spec layouts (src/spec/layouts) and the ring model
 * (src/spec/packet-model.ts); the bit positions below are the ones those declare.
 */

import {
  LEN_CTRL_FIRST,
  LEN_CTRL_HAS_META,
  LEN_CTRL_LAST,
  MAX_DESCRIPTOR_BYTES,
} from "../spec/packet-model.js";
import { COMBO_MORE } from "../spec/tables.js";
import { DescriptorFault, type DescriptorRef } from "./faults.js";

export interface Descriptor {
  readonly ref: DescriptorRef;
  readonly bytes: Uint8Array;
  readonly w0: number;
  readonly w1: number;
  readonly w2: number;
  readonly w3: number;
}

/** Split 16 fetched bytes into words. */
export function toDescriptor(ref: DescriptorRef, bytes: Uint8Array): Descriptor {
  return {
    ref,
    bytes,
    w0: wordAt(bytes, 0),
    w1: wordAt(bytes, 4),
    w2: wordAt(bytes, 8),
    w3: wordAt(bytes, 12),
  };
}

/** The little-endian u32 at byte `i` (no DataView: this runs for every descriptor fetched). */
function wordAt(b: Uint8Array, i: number): number {
  return (
    ((b[i] as number) |
      ((b[i + 1] as number) << 8) |
      ((b[i + 2] as number) << 16) |
      ((b[i + 3] as number) << 24)) >>>
    0
  );
}

/** len_ctrl ring_id (25:24). */
export const ringId = (d: Descriptor): number => (d.w0 >>> 24) & 3;
export const isFirst = (d: Descriptor): boolean => (d.w0 & LEN_CTRL_FIRST) !== 0;
export const isLast = (d: Descriptor): boolean => (d.w0 & LEN_CTRL_LAST) !== 0;
/** W0 bit 23: a compute descriptor (TX) / an S2M meta-control in buf2_ptr_lo (RX). */
export const hasMeta = (d: Descriptor): boolean => (d.w0 & LEN_CTRL_HAS_META) !== 0;
/** len_ctrl DMB (bit 30; meta_idx bit 6 of a compute descriptor is the same bit). */
export const hasDmb = (d: Descriptor): boolean => (d.w0 & (1 << 30)) !== 0;
/** The combo more-bit in W1 (seed 000 §5.1). */
export const hasMore = (d: Descriptor): boolean => (d.w1 & COMBO_MORE) !== 0;
/** A data descriptor's byte count: len_ctrl 15:0, 0 meaning 65536 (GROUND_TRUTH). */
export const dataLength = (d: Descriptor): number => d.w0 & 0xffff || MAX_DESCRIPTOR_BYTES;
/** The 64-bit pointer in W2..W3 (udma-tx buf_ptr, udma-rx buf1_ptr, replication dest, header). */
export const pointer = (d: Descriptor): bigint => (BigInt(d.w3) << 32n) | BigInt(d.w2);

/** Meta-control word fields (bit positions of src/spec/layouts/meta-ctrl.ts). */
export const metaOp = (w: number): number => (w >>> 23) & 7;
export const metaOptype = (w: number): number => (w >>> 20) & 7;
export const metaNibble = (w: number, bit: 8 | 12 | 16): number => (w >>> bit) & 0xf;
export const metaLast = (w: number): boolean => (w & 0x80) !== 0;
export const metaWrbar = (w: number): boolean => (w & 0x40) !== 0;

/** Throw a fault naming the descriptor. */
export function fault(d: Descriptor, reason: string, addr?: bigint): never {
  throw new DescriptorFault(d.ref, reason, addr);
}
