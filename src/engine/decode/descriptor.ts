/**
 * A descriptor as the engine fetched it: 16 bytes from ring memory, its four words, and where it
 * came from. Field meaning comes from the spec layouts (src/spec/layouts) and the ring model
 * (src/spec/packet-model.ts); every field is read through a reader compiled from its layout.
 */

import { bytesArg, intArg } from "../../bits/arg-check.js";
import { type FieldReader, LayoutDefinitionError, wordAt } from "../../bits/index.js";
import {
  ADD_META,
  COPY_META,
  EXT_META,
  FMA_META,
  GCE_META,
  MIN_MAX_META,
  UDMA_RX,
  UDMA_TX,
} from "../../spec/layouts/index.js";
import { DescriptorFault, type DescriptorRef } from "./faults.js";

export interface Descriptor {
  readonly ref: DescriptorRef;
  readonly bytes: Uint8Array;
  readonly w0: number;
  readonly w1: number;
  readonly w2: number;
  readonly w3: number;
}

/** Split 16 fetched bytes into words. @throws FieldError for bytes that are not 16 or more. */
export function toDescriptor(ref: DescriptorRef, bytes: Uint8Array): Descriptor {
  intArg("toDescriptor", "bytes.length", bytesArg("toDescriptor", "bytes", bytes).length, {
    min: 16,
    max: Number.MAX_SAFE_INTEGER,
  });
  return {
    ref,
    bytes,
    w0: wordAt(bytes, 0),
    w1: wordAt(bytes, 4),
    w2: wordAt(bytes, 8),
    w3: wordAt(bytes, 12),
  };
}

/**
 * Every field the engine reads, as a reader compiled from its layout (shift and mask fixed at load):
 * moving a bit in src/spec/layouts moves it here too. No bit position is written in src/engine.
 */
const LEN = {
  length: UDMA_TX.field("len_ctrl.length"),
  hasMeta: UDMA_TX.field("len_ctrl.has_meta"),
  ringId: UDMA_TX.field("len_ctrl.ring_id"),
  first: UDMA_TX.field("len_ctrl.first"),
  last: UDMA_TX.field("len_ctrl.last"),
  dmb: UDMA_TX.field("len_ctrl.dmb"),
};
const BUF_PTR = UDMA_TX.field("buf_ptr");
/** The byte offset of a TX data descriptor's meta-control word (W1), for the meta layouts. */
export const META_CTRL_BYTE = UDMA_TX.leaf("meta_ctrl").bit >> 3;
if (BUF_PTR.word !== 2 || BUF_PTR.leaf.width !== 64 || UDMA_RX.leaf("buf1_ptr").bit !== BUF_PTR.leaf.bit)
  throw new LayoutDefinitionError("udma-tx buf_ptr / udma-rx buf1_ptr are not W2..W3, where pointer() reads");
/** The op class of any meta-control word (public view): op 25:23, optype 22:20, write barrier. */
const META = {
  op: COPY_META.field("op"),
  optype: COPY_META.field("optype"),
  writeBarrier: COPY_META.field("write_barrier"),
};
/** The CCE meta-control fields every op's word shares (the layouts check they agree, below). */
const CCE = {
  inDt: FMA_META.field("in_dt"),
  outDt: ADD_META.field("out_dt"),
  accumDt: ADD_META.field("accum_dt"),
  last: ADD_META.field("last"),
  wrbar: ADD_META.field("wrbar"),
  more: ADD_META.field("more"),
};
for (const l of [FMA_META, MIN_MAX_META, GCE_META]) {
  for (const [name, r] of [
    ["in_dt", CCE.inDt],
    ["accum_dt", CCE.accumDt],
    ["last", CCE.last],
    ["wrbar", CCE.wrbar],
    ["more", CCE.more],
  ] as const) {
    if (l.leaf(name).bit !== r.leaf.bit)
      throw new LayoutDefinitionError(
        `${l.name}(${name}) is not where the engine reads it (${ADD_META.name})`,
      );
  }
}
if (
  MIN_MAX_META.leaf("out_dt").bit !== CCE.outDt.leaf.bit ||
  EXT_META.leaf("mid_dt").bit !== CCE.outDt.leaf.bit
)
  throw new LayoutDefinitionError("min-max-meta out_dt / ext-meta mid_dt are not where add-meta out_dt is");

/** The descriptor word a field sits in (W0..W3). */
export function wordOf(d: Descriptor, r: FieldReader<unknown>): number {
  switch (r.word & 3) {
    case 0:
      return d.w0;
    case 1:
      return d.w1;
    case 2:
      return d.w2;
    default:
      return d.w3;
  }
}

/** The raw bits of one descriptor field (a field inside one of W0..W3). */
export const field = (d: Descriptor, r: FieldReader<unknown>): number => r.ofWord(wordOf(d, r));

/** len_ctrl ring_id. */
export const ringId = (d: Descriptor): number => LEN.ringId.ofWord(d.w0);
export const isFirst = (d: Descriptor): boolean => LEN.first.isSet(d.w0);
export const isLast = (d: Descriptor): boolean => LEN.last.isSet(d.w0);
/** W0 has_meta: a compute descriptor (TX) / an S2M meta-control in buf2_ptr_lo (RX). */
export const hasMeta = (d: Descriptor): boolean => LEN.hasMeta.isSet(d.w0);
/** len_ctrl DMB (meta_idx bit 6 of a compute descriptor is the same bit). */
export const hasDmb = (d: Descriptor): boolean => LEN.dmb.isSet(d.w0);
/** The combo more-bit in W1 (seed 000 §5.1). */
export const hasMore = (d: Descriptor): boolean => CCE.more.isSet(d.w1);
/** A data descriptor's byte count: len_ctrl length (its declaration reads a raw 0 as 65536, GROUND_TRUTH). */
export const dataLength = (d: Descriptor): number => LEN.length.ofWord(d.w0);
/**
 * {@link pointer} as a Number, for the engine's number fast paths: exact below 2^53; above, a
 * value ≥ 2^53 that no memory region's fast path takes (DeviceMemory.pageAt), so never misread.
 */
export const pointerNumber = (d: Descriptor): number => d.w3 * 2 ** 32 + d.w2;
/**
 * The 64-bit pointer of a data descriptor (udma-tx buf_ptr, udma-rx buf1_ptr: W2 low, W3 high):
 * one bigint from the exact Number when below 2^53 (the plan cache binds three a packet; the
 * shift-and-or makes four), else from the words.
 */
export function pointer(d: Descriptor): bigint {
  const n = pointerNumber(d);
  return n <= Number.MAX_SAFE_INTEGER ? BigInt(n) : (BigInt(d.w3) << 32n) | BigInt(d.w2);
}

/** Meta-control word fields, read through the meta-ctrl layouts. */
export const metaOp = (w: number): number => META.op.ofWord(w);
export const metaOptype = (w: number): number => META.optype.ofWord(w);
export const metaWriteBarrier = (w: number): boolean => META.writeBarrier.isSet(w);
/** in_dt (FMA / MIN-MAX / GCE): the source stream's dtype. */
export const metaInDt = (w: number): number => CCE.inDt.ofWord(w);
/** out_dt (ADD / MIN-MAX; ext-meta's mid_dt): the dtype of the stream an ADD word tags. */
export const metaOutDt = (w: number): number => CCE.outDt.ofWord(w);
export const metaAccumDt = (w: number): number => CCE.accumDt.ofWord(w);
export const metaLast = (w: number): boolean => CCE.last.isSet(w);
export const metaWrbar = (w: number): boolean => CCE.wrbar.isSet(w);

/** Throw a fault naming the descriptor. */
export function fault(d: Descriptor, reason: string, addr?: bigint): never {
  throw new DescriptorFault(d.ref, reason, addr);
}
