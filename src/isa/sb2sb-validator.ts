/**
 * is_valid_sb2sb_collective (aws_neuron_isa_tpb_s3d3_collective.h:53-103) and its host twin
 * dbg_is_valid_sb2sb_collective @0x363a90 (seed 002 §4.5), returning every reason a word fails.
 */
import { type ArchName, type ArchProfile, archProfile } from "../hal/arch-profile.js";
import { DTYPE_NAMES, isDtype } from "../spec/dtype.js";
import { LncSizeFmt, namesOf } from "../spec/enums.js";
import { POOLING_NUM_CHANNELS, S3D3_MAX_ELEMENTS } from "../spec/tables.js";
import { addr4FromU32, addr4HasShapeReg, addr4IsPsum, PARTITION_OFFSET_PSUM_BIT } from "./addr4.js";
import {
  DEBUG_CMD_NAMES,
  INST_WORD_LEN_DWORDS,
  UPDATE_MODE_NAMES,
  WAIT_MODE_NAMES,
} from "./header-events-model.js";
import { OPCODE_SB2SB_COLLECTIVE } from "./opcodes.js";
import type { S3d3Reason, S3d3ReasonCode, S3d3Verdict } from "./s3d3-reasons.js";
import { decodeS3d3, type PatternName, type S3d3Word, type Tensor3d, tensorOf } from "./s3d3-word.js";

/** Options of {@link isValidSb2sbCollective}. */
export interface Sb2sbValidateOptions {
  /** The NeuronCore generation: a profile, `trn1|trn2|trn3`, a codename or a hal_target value. */
  readonly arch: ArchProfile | ArchName | string | number;
}

/**
 * MODEL reading of the 0xffff guard (`cmp QWORD [...], 0xffff` @0x364014): t3d_element_count of
 * each pattern, computed wide (three u16 counts multiply to up to 2^48), must not exceed 0xffff.
 * For src it is implied by the 256 cap; for dst (which has no cap of its own) it is the only bound.
 */
export const ELEMENT_COUNT_GUARD = 0xffff;

const LNC_NAMES = namesOf(LncSizeFmt);

/**
 * t3d_element_count (common.h:1742-1744): num_elem[0] · num_elem[1] · num_elem[2], exact.
 * @example t3dElementCount({ ..., "num_elem.0": 16, "num_elem.1": 4, "num_elem.2": 2 }) // 128
 */
export function t3dElementCount(t: Tensor3d): number {
  return t["num_elem.0"] * t["num_elem.1"] * t["num_elem.2"];
}

/**
 * is_valid_sb2sb_collective, seed 002 §4.5 (dbg_is_valid_sb2sb_collective @0x363a90): check a 0xBF
 * word against every rule and return every reason it fails (the reference stops at the first; a
 * user wants them all). Bytes are decoded first.
 * @throws DecodeError when bytes are fewer than 64; UsageError for an unknown arch.
 * @example isValidSb2sbCollective(bytes, { arch: "trn2" }).reasons.map((r) => r.code)
 */
export function isValidSb2sbCollective(
  word: S3d3Word | Uint8Array,
  options: Sb2sbValidateOptions,
): S3d3Verdict {
  const w = word instanceof Uint8Array ? decodeS3d3(word) : word;
  const arch = typeof options.arch === "object" ? options.arch : archProfile(options.arch);
  const reasons: S3d3Reason[] = [];
  const fail = (code: S3d3ReasonCode, field: string, message: string) =>
    reasons.push({ code, field, message });

  if (!arch.hasSb2sb) {
    fail(
      "arch-no-sb2sb",
      "arch",
      `${arch.codename} (${arch.name}) has no SB2SB collective: needs NC ≥ V3 (CAYMAN / trn2 or later)`,
    );
  }
  checkHeaderAndEvents(w, fail);

  for (const [field, dt] of [
    ["in_dtype", w.in_dtype],
    ["out_dtype", w.out_dtype],
  ] as const) {
    if (!isDtype(dt)) {
      fail("dtype-invalid", field, `${field} = ${dt} is not a valid dtype (1..15)`);
    }
  }
  if (w.in_dtype !== w.out_dtype) {
    fail(
      "dtype-mismatch",
      "out_dtype",
      `in_dtype ${dtypeLabel(w.in_dtype)} ≠ out_dtype ${dtypeLabel(w.out_dtype)}: SB2SB does not convert`,
    );
  }
  if (w.reserved0 !== 0)
    fail("reserved-nonzero", "reserved0", `reserved0 (bytes 14..15) is 0x${w.reserved0.toString(16)}, not 0`);

  const lnc = LNC_NAMES[w.lnc_size_fmt];
  if (lnc === undefined) {
    fail(
      "lnc-size-fmt-invalid",
      "lnc_size_fmt",
      `lnc_size_fmt = ${w.lnc_size_fmt} is not an LNC_SIZE_FMT value (0..3)`,
    );
  } else if (w.lnc_size_fmt === LncSizeFmt.LNC4 || w.lnc_size_fmt === LncSizeFmt.LNC8) {
    fail(
      "lnc-size-fmt-unsupported",
      "lnc_size_fmt",
      `lnc_size_fmt ${lnc} is rejected: only LNC1 (self-test) and LNC2 (NC pair)`,
    );
  }
  if (w.num_active_channels === 0 || w.num_active_channels > POOLING_NUM_CHANNELS) {
    fail(
      "active-channels-range",
      "num_active_channels",
      `num_active_channels = ${w.num_active_channels} is out of range 1..${POOLING_NUM_CHANNELS}`,
    );
  }
  if (w.reserved1 !== 0n)
    fail("reserved-nonzero", "reserved1", `reserved1 (bytes 34..47) is 0x${w.reserved1.toString(16)}, not 0`);

  checkTensor(tensorOf(w, "src_mem_pattern"), "src_mem_pattern", "read", fail);
  const srcCount = t3dElementCount(tensorOf(w, "src_mem_pattern"));
  if (srcCount > S3D3_MAX_ELEMENTS) {
    fail(
      "src-too-many-elements",
      "src_mem_pattern.num_elem",
      `the source moves ${srcCount} elements; at most ${S3D3_MAX_ELEMENTS} per word`,
    );
  }
  checkTensor(tensorOf(w, "dst_mem_pattern"), "dst_mem_pattern", "write", fail);
  return { valid: reasons.length === 0, reasons };
}

type Fail = (code: S3d3ReasonCode, field: string, message: string) => void;

/** dbg_has_valid_neuron_header + dbg_has_valid_neuron_events (seed 002 §4.5; the tables are MODEL). */
function checkHeaderAndEvents(w: S3d3Word, fail: Fail): void {
  const opcode = w["header.opcode"];
  if (opcode !== OPCODE_SB2SB_COLLECTIVE) {
    fail("header-opcode", "header.opcode", `opcode 0x${opcode.toString(16)} is not SB2SB_COLLECTIVE 0xbf`);
  }
  if (w["header.inst_word_len"] !== INST_WORD_LEN_DWORDS) {
    fail(
      "header-inst-word-len",
      "header.inst_word_len",
      `inst_word_len = ${w["header.inst_word_len"]}; a 64-byte word is ${INST_WORD_LEN_DWORDS} dwords`,
    );
  }
  if (DEBUG_CMD_NAMES[w["header.debug_cmd"]] === undefined) {
    fail(
      "header-debug-cmd",
      "header.debug_cmd",
      `debug_cmd = ${w["header.debug_cmd"]} is not a DEBUG_CMD_LEVELS value (${codes(DEBUG_CMD_NAMES)})`,
    );
  }
  if (WAIT_MODE_NAMES[w["events.wait_mode"]] === undefined) {
    fail(
      "events-wait-mode",
      "events.wait_mode",
      `wait_mode = ${w["events.wait_mode"]} is not a WAIT_MODE value (0..15)`,
    );
  }
  if (UPDATE_MODE_NAMES[w["events.update_mode"]] === undefined) {
    fail(
      "events-update-mode",
      "events.update_mode",
      `update_mode = ${w["events.update_mode"]} is not an UPDATE_MODE value (0..9, 17..25)`,
    );
  }
}

/**
 * tensor3d_valid(t, dtype, write, AllowedInPSUM::False, AllowedInSBUF::True) (common.h:1906) plus
 * the 0xffff guard. The dtype argument is checked once, by the dtype rule.
 */
function checkTensor(t: Tensor3d, p: PatternName, access: "read" | "write", fail: Fail): void {
  const a = addr4FromU32(t["start_addr.addr_immediate"]);
  if (!addr4HasShapeReg(a)) {
    [t["num_elem.0"], t["num_elem.1"], t["num_elem.2"]].forEach((n, d) => {
      if (n === 0)
        fail(
          "tensor-num-elem-zero",
          `${p}.num_elem.${d}`,
          `${p}.num_elem[${d}] is 0; every dimension needs ≥ 1 element`,
        );
    });
  }
  if (addr4IsPsum(a) && a.kind === "imm") {
    fail(
      "tensor-addr-psum",
      `${p}.start_addr`,
      `${p} (${access}) start 0x${a.partitionOffset.toString(16)} is in PSUM (bit 25 = 0x${PARTITION_OFFSET_PSUM_BIT.toString(16)} set); SB2SB is SBUF-only`,
    );
  }
  if (a.kind !== "imm" && a.reserved0 !== 0) {
    fail(
      "reserved-nonzero",
      `${p}.start_addr.addr_reg.reserved0`,
      `${p}.start_addr.addr_reg.reserved0 is 0x${a.reserved0.toString(16)}, not 0`,
    );
  }
  const count = t3dElementCount(t);
  if (count > ELEMENT_COUNT_GUARD) {
    fail(
      "element-count-guard",
      `${p}.num_elem`,
      `${p} has ${count} elements, more than the 0xffff guard allows`,
    );
  }
}

function dtypeLabel(dt: number): string {
  return `${DTYPE_NAMES[dt] ?? "?"} (${dt})`;
}

function codes(names: Readonly<Record<number, string>>): string {
  return Object.keys(names).join(", ");
}
