/**
 * NEURON_ISA_TPB_ADDR4 (common.h:499, seed 002 §3.2) as a typed value: an immediate partition
 * offset, or a register reference whose marker byte's top two bits say which kind.
 */
import { FieldError } from "../bits/errors.js";
import { type DecodeIssue, type Layout, reservedIssue } from "../bits/layout.js";
import { Addr4Marker } from "../spec/enums.js";
import { ADDR4 } from "../spec/layouts/isa.js";

/** How an ADDR4 names its address. */
export type Addr4Kind = "imm" | "addr_reg" | "shape_reg" | "addr_shape_reg";
/** The register-reference kinds. */
export type Addr4RegKind = Exclude<Addr4Kind, "imm">;

/** An immediate NEURON_ISA_TPB_PARTITION_OFFSET (common.h:447); the top two bits are the IMM marker 00. */
export interface Addr4Imm {
  readonly kind: "imm";
  /** 0 .. 2^30 − 1; bit 25 set = PSUM, clear = SBUF (common.h:462-466). */
  readonly partitionOffset: number;
}

/** NEURON_ISA_TPB_ADDR_REG4 {regnum, reserved0[2], marker}. */
export interface Addr4Reg {
  readonly kind: Addr4RegKind;
  readonly regnum: number;
  /** Bytes 1..2, reserved: must be 0 in a valid word (kept so decode → encode is bit-exact). */
  readonly reserved0: number;
  /** The marker's low six bits, which the seed does not name (kept for bit-exact round trips). */
  readonly markerLow: number;
}

export type Addr4 = Addr4Imm | Addr4Reg;

/** PARTITION_OFFSET bit 25: set means the offset is in PSUM, clear means SBUF (common.h:462-466). */
export const PARTITION_OFFSET_PSUM_BIT = 1 << 25;
/** An immediate's offset bits: everything below the two marker bits. */
const IMM_MAX = 2 ** 30 - 1;
const MARKER_MASK = 0xc0;
/** The register arm's fields, read and written at the ADDR4 layout's bit positions. */
const REGNUM = ADDR4.field("addr_reg.regnum");
const RESERVED0 = ADDR4.field("addr_reg.reserved0");
const MARKER = ADDR4.field("addr_reg.marker");

const KIND_OF_MARKER: Readonly<Record<number, Addr4Kind>> = {
  [Addr4Marker.IMM]: "imm",
  [Addr4Marker.SHAPE_REG]: "shape_reg",
  [Addr4Marker.ADDR_REG]: "addr_reg",
  [Addr4Marker.ADDR_SHAPE_REG]: "addr_shape_reg",
};
const MARKER_OF_KIND: Readonly<Record<Addr4Kind, number>> = {
  imm: Addr4Marker.IMM,
  shape_reg: Addr4Marker.SHAPE_REG,
  addr_reg: Addr4Marker.ADDR_REG,
  addr_shape_reg: Addr4Marker.ADDR_SHAPE_REG,
};

/**
 * Read an ADDR4 from its 32 raw bits (little-endian u32 of the 4 bytes).
 * @example addr4FromU32(0x80000005) // { kind: "addr_reg", regnum: 5, reserved0: 0, markerLow: 0 }
 */
export function addr4FromU32(raw: number): Addr4 {
  const marker = MARKER.ofWord(raw);
  const kind = KIND_OF_MARKER[marker & MARKER_MASK] as Addr4Kind;
  if (kind === "imm") return { kind, partitionOffset: raw >>> 0 };
  return {
    kind,
    regnum: REGNUM.ofWord(raw),
    reserved0: RESERVED0.ofWord(raw),
    markerLow: marker & ~MARKER_MASK & MARKER.mask,
  };
}

/**
 * The 32 raw bits of an ADDR4.
 * @throws FieldError when a part does not fit its bits (an immediate ≥ 2^30 would change the marker).
 */
export function addr4ToU32(a: Addr4, field = "start_addr"): number {
  const check = (name: string, v: number, max: number) => {
    if (!Number.isInteger(v) || v < 0 || v > max)
      throw new FieldError("addr4", `${field}.${name}`, v, `0..${max}`);
  };
  if (a.kind === "imm") {
    check("partitionOffset", a.partitionOffset, IMM_MAX);
    return a.partitionOffset;
  }
  check("regnum", a.regnum, REGNUM.mask);
  check("reserved0", a.reserved0, RESERVED0.mask);
  check("markerLow", a.markerLow, MARKER.mask & ~MARKER_MASK);
  const at = (r: typeof REGNUM, v: number) => v * 2 ** r.shift;
  return (
    (at(MARKER, MARKER_OF_KIND[a.kind] | a.markerLow) + at(RESERVED0, a.reserved0) + at(REGNUM, a.regnum)) >>>
    0
  );
}

/** True when the address is an immediate in PSUM (bit 25 set); register addresses are not known statically. */
export function addr4IsPsum(a: Addr4): boolean {
  return a.kind === "imm" && (a.partitionOffset & PARTITION_OFFSET_PSUM_BIT) !== 0;
}

/** True when the tensor's shape (num_elem) comes from a shape register, not the word. */
export function addr4HasShapeReg(a: Addr4): boolean {
  return a.kind === "shape_reg" || a.kind === "addr_shape_reg";
}

/**
 * A layout's `issues()` plus the check of each ADDR4's live arm, which the layout leaves to the reader
 * (it cannot know which union arm is live): when the marker says register, ADDR_REG4.reserved0
 * (bytes 1..2) must be zero; for an immediate those bits are address bits.
 */
export function issuesWithAddr4Arms(layout: Layout, bytes: Uint8Array): DecodeIssue[] {
  const out = layout.issues(bytes);
  for (const l of layout.leaves) {
    const prefix = /^(.*)addr_reg\.reserved0$/.exec(l.path)?.[1];
    if (prefix === undefined) continue;
    const marker = layout.read(`${prefix}addr_reg.marker`, bytes) as number;
    const value = layout.read(l.path, bytes) as number;
    if ((marker & MARKER_MASK) !== Addr4Marker.IMM && value !== 0) out.push(reservedIssue(l, value));
  }
  return out;
}
