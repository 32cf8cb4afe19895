/**
 * The reasons an S3D3 word can be invalid: one stable code per rule of is_valid_sb2sb_collective
 * (aws_neuron_isa_tpb_s3d3_collective.h, dbg_is_valid_sb2sb_collective @0x363a90, seed 002 §4.5).
 * Codes are part of the public API (CLI `--json`); never rename one.
 */

/** Each rule: the code, the libnrt predicate it reproduces, and where the seed states it. */
export const S3D3_RULES = {
  "arch-no-sb2sb": "has_valid_nc_sb2sb_collective: NC ≥ V3 (seed 002 §5)",
  "header-opcode": "dbg_has_valid_neuron_header: opcode == SB2SB_COLLECTIVE 0xBF (seed 002 §1, §2)",
  "header-inst-word-len": "dbg_has_valid_neuron_header: inst_word_len == 16 (MODEL)",
  "header-debug-cmd": "dbg_has_valid_neuron_header: debug_cmd is a DEBUG_CMD_LEVELS value (MODEL)",
  "events-wait-mode": "dbg_has_valid_neuron_events: wait_mode is a WAIT_MODE value (MODEL)",
  "events-update-mode": "dbg_has_valid_neuron_events: update_mode is an UPDATE_MODE value (MODEL)",
  "dtype-invalid": "is_valid_enum(Dtype) and ≠ INVALID, for in_dtype and out_dtype (seed 002 §5)",
  "dtype-mismatch": "dtype_equality_check: in_dtype == out_dtype (seed 002 §5)",
  "lnc-size-fmt-invalid": "has_valid_LncSizefmt: is_valid_enum(LncSizeFmt) (seed 002 §7.1)",
  "lnc-size-fmt-unsupported": "has_valid_LncSizefmt: ≠ LNC4 and ≠ LNC8 (seed 002 §7.1, §4.5)",
  "active-channels-range": "check_active_ports: 1 ≤ n ≤ POOLING_NUM_CHANNELS 128 (seed 002 §7.2)",
  "tensor-num-elem-zero": "tensor3d_valid: every num_elem[d] ≥ 1 unless a shape register (seed 002 §3.3)",
  "tensor-addr-psum":
    "tensor_start_addr_valid(AllowedInPSUM::False): partition offset bit 25 clear (seed 002 §3.3)",
  "src-too-many-elements": "size_check_src: t3d_element_count(src) ≤ 256 (seed 002 §3.4)",
  "element-count-guard": "the 0xffff element-count guard @0x364014 (seed 002 §4.5; reading is MODEL)",
  "reserved-nonzero": "reserved0 (14..15), reserved1 (34..47) and ADDR_REG4.reserved0 are zero",
} as const;

/** A stable reason code. */
export type S3d3ReasonCode = keyof typeof S3D3_RULES;

/** Every code, in the order the validator checks them. */
export const S3D3_REASON_CODES = Object.keys(S3D3_RULES) as readonly S3d3ReasonCode[];

/** One reason a word is invalid. `field` is the layout's dotted field name (or `arch`). */
export interface S3d3Reason {
  readonly code: S3d3ReasonCode;
  readonly field: string;
  readonly message: string;
}

/** The validator's answer: valid exactly when there are no reasons. */
export interface S3d3Verdict {
  readonly valid: boolean;
  readonly reasons: readonly S3d3Reason[];
}
