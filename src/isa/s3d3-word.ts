/**
 * The 64-byte S3D3 collective word (opcode 0xBF, NEURON_ISA_TPB_S3D3_COLLECTIVE_STRUCT, seed 002 §2)
 * as a typed value, decoded and encoded through the one declared layout `s3d3`.
 */
import { writeBigBits } from "../bits/bitfield.js";
import { FieldError } from "../bits/errors.js";
import type { Fields } from "../bits/layout.js";
import { S3D3 } from "../spec/layouts/isa.js";
import { type Addr4, addr4FromU32, addr4ToU32 } from "./addr4.js";

/** NEURON_ISA_TPB_HEADER (common.h:411). */
export interface S3d3Header {
  readonly opcode: number;
  readonly instWordLen: number;
  readonly debugCmd: number;
  readonly debugHint: number;
}

/** NEURON_ISA_TPB_EVENTS (common.h:418): wait before issue, update on completion (seed 002 §6). */
export interface S3d3Events {
  readonly waitMode: number;
  readonly waitIdx: number;
  readonly updateMode: number;
  readonly updateIdx: number;
  readonly semaphoreValue: number;
}

/** Three values, one per dimension d ∈ {0, 1, 2}. */
export type Triple = readonly [number, number, number];

/** NEURON_ISA_TPB_TENSOR3D (common.h:649, seed 002 §3): base + 3 signed strides + 3 unsigned counts. */
export interface Tensor3d {
  readonly startAddr: Addr4;
  /** int16 strides, in elements; negative = reverse traversal. */
  readonly stepElem: Triple;
  /** uint16 element counts. */
  readonly numElem: Triple;
}

/** NEURON_ISA_TPB_S3D3_COLLECTIVE_STRUCT, every byte accounted for (seed 002 §2). */
export interface S3d3Word {
  readonly header: S3d3Header;
  readonly events: S3d3Events;
  /** NEURON_ISA_TPB_DTYPE, byte 12. */
  readonly inDtype: number;
  /** NEURON_ISA_TPB_DTYPE, byte 13; must equal inDtype (dtype_equality_check). */
  readonly outDtype: number;
  /** Bytes 14..15 (u16 LE). */
  readonly reserved0: number;
  /** src_mem_pattern, bytes 16..31. */
  readonly src: Tensor3d;
  /** NEURON_ISA_TPB_LNC_SIZE_FMT, byte 32. */
  readonly lncSizeFmt: number;
  /** Byte 33: SDMA pooling channels, 1..128. */
  readonly numActiveChannels: number;
  /** Bytes 34..47 (112 bits LE; the header comment's "35-47" is off by one). */
  readonly reserved1: bigint;
  /** dst_mem_pattern, bytes 48..63. */
  readonly dst: Tensor3d;
}

/** The size of one S3D3 word. */
export const S3D3_BYTES = S3D3.bytes;

type PatternName = "src_mem_pattern" | "dst_mem_pattern";

function tensorOf(f: Fields, p: PatternName): Tensor3d {
  const n = (k: string) => f[`${p}.${k}`] as number;
  return {
    startAddr: addr4FromU32(n("start_addr.addr_immediate")),
    stepElem: [n("step_elem.0"), n("step_elem.1"), n("step_elem.2")],
    numElem: [n("num_elem.0"), n("num_elem.1"), n("num_elem.2")],
  };
}

/**
 * Decode a 64-byte S3D3 word.
 * @throws DecodeError when fewer than 64 bytes are available at `offset`.
 * @example decodeS3d3(fromHex(hex)).src.numElem // [16, 4, 1]
 */
export function decodeS3d3(bytes: Uint8Array, offset = 0): S3d3Word {
  const f = S3D3.decode(bytes, offset);
  const n = (k: string) => f[k] as number;
  return {
    header: {
      opcode: n("header.opcode"),
      instWordLen: n("header.inst_word_len"),
      debugCmd: n("header.debug_cmd"),
      debugHint: n("header.debug_hint"),
    },
    events: {
      waitMode: n("events.wait_mode"),
      waitIdx: n("events.wait_idx"),
      updateMode: n("events.update_mode"),
      updateIdx: n("events.update_idx"),
      semaphoreValue: n("events.semaphore_value"),
    },
    inDtype: n("in_dtype"),
    outDtype: n("out_dtype"),
    reserved0: n("reserved0"),
    src: tensorOf(f, "src_mem_pattern"),
    lncSizeFmt: n("lnc_size_fmt"),
    numActiveChannels: n("num_active_channels"),
    reserved1: f.reserved1 as bigint,
    dst: tensorOf(f, "dst_mem_pattern"),
  };
}

function tensorFields(t: Tensor3d, p: PatternName): Record<string, unknown> {
  return {
    [`${p}.start_addr.addr_immediate`]: addr4ToU32(t.startAddr, `${p}.start_addr`),
    [`${p}.step_elem`]: t.stepElem,
    [`${p}.num_elem`]: t.numElem,
  };
}

/**
 * Encode a typed S3D3 word into its 64 bytes. Reserved fields are written as given, so an invalid
 * word (for a test or a demonstration) is encodable; the validator says what is wrong with it.
 * @throws FieldError naming the field when a value does not fit its bits.
 */
export function encodeS3d3(w: S3d3Word): Uint8Array {
  const out = new Uint8Array(S3D3_BYTES);
  // The layout refuses unknown enum codes and non-zero reserved bits; a typed word may hold them (so
  // an invalid word can be built and shown to the validator), so those fields are written raw.
  S3D3.encodeInto(
    {
      "header.opcode": w.header.opcode,
      "header.inst_word_len": w.header.instWordLen,
      "header.debug_cmd": w.header.debugCmd,
      "header.debug_hint": w.header.debugHint,
      "events.wait_mode": w.events.waitMode,
      "events.wait_idx": w.events.waitIdx,
      "events.update_mode": w.events.updateMode,
      "events.update_idx": w.events.updateIdx,
      "events.semaphore_value": w.events.semaphoreValue,
      ...tensorFields(w.src, "src_mem_pattern"),
      num_active_channels: w.numActiveChannels,
      ...tensorFields(w.dst, "dst_mem_pattern"),
    },
    out,
  );
  writeRaw(out, "in_dtype", w.inDtype);
  writeRaw(out, "out_dtype", w.outDtype);
  writeRaw(out, "lnc_size_fmt", w.lncSizeFmt);
  writeRaw(out, "reserved0", w.reserved0);
  writeRaw(out, "reserved1", w.reserved1);
  return out;
}

/** Write a field's bits without the layout's enum / reserved checks, only its width. */
function writeRaw(out: Uint8Array, name: string, value: number | bigint): void {
  const leaf = S3D3.leaf(name);
  const max = (1n << BigInt(leaf.width)) - 1n;
  const big = typeof value === "bigint" ? value : Number.isSafeInteger(value) ? BigInt(value) : -1n;
  if (big < 0n || big > max) throw new FieldError(S3D3.name, name, value, `0..${max}`);
  writeBigBits(out, 0, leaf.bit, leaf.width, big);
}
