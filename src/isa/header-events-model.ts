/**
 * What a NEURON_ISA_TPB_HEADER and NEURON_ISA_TPB_EVENTS must hold to pass
 * dbg_has_valid_neuron_header / dbg_has_valid_neuron_events (seed 002 §4.5). Seed 002 gives both
 * structs' layouts but neither predicate's body nor the WAIT_MODE / UPDATE_MODE / DEBUG_CMD values,
 * so every table here is a MODEL choice, made once, from public reverse-engineering notes on the
 * same headers (docs/FIDELITY.md "header / events").
 */

/**
 * MODEL: inst_word_len of a 64-byte TPB instruction is 16 (dwords). Public notes: the compiler's
 * setupHeader writes 0x10 for every 64-byte record and has_valid_neuron_header checks it.
 */
export const INST_WORD_LEN_DWORDS = 16;

/** MODEL: NEURON_ISA_TPB_DEBUG_CMD_LEVELS (public notes): NONE, NOTIFY, START, END, START_END, INS_FIELD. */
export const DEBUG_CMD_NAMES: Readonly<Record<number, string>> = {
  0: "NONE",
  1: "NOTIFY",
  3: "START",
  5: "END",
  7: "START_END",
  9: "INS_FIELD",
};

/**
 * MODEL: NEURON_ISA_TPB_WAIT_MODE. Public notes name NONE 0, SEM_{EQ,LT,LE,GT,GE}_IMM 1..5, EVT_SET 6,
 * EVT_SET_THEN_CLEAR 7, EVT_CLEAR 14, EVT_CLEAR_THEN_SET 15 and "a *_REG family" without values; we
 * take 8..13 as that family (register-sourced compares), so the valid range is 0..15.
 */
export const WAIT_MODE_NAMES: Readonly<Record<number, string>> = {
  0: "NONE",
  1: "SEM_EQ_IMM",
  2: "SEM_LT_IMM",
  3: "SEM_LE_IMM",
  4: "SEM_GT_IMM",
  5: "SEM_GE_IMM",
  6: "EVT_SET",
  7: "EVT_SET_THEN_CLEAR",
  8: "REG_8",
  9: "REG_9",
  10: "REG_10",
  11: "REG_11",
  12: "REG_12",
  13: "REG_13",
  14: "EVT_CLEAR",
  15: "EVT_CLEAR_THEN_SET",
};

/** The `_READ` update modes (public notes); the `_COMPLETE` twin of mode m is m + 16. */
const UPDATE_READ_NAMES: Readonly<Record<number, string>> = {
  0: "NONE",
  1: "EVT_SET_READ",
  2: "EVT_CLR_READ",
  3: "SEM_INC_READ",
  4: "SEM_DEC_READ",
  5: "SEM_ADD_IMM_READ",
  6: "REG_6_READ",
  7: "SEM_SUB_IMM_READ",
  8: "REG_8_READ",
  9: "SEM_WR_IMM_READ",
};

/** The offset between a `_READ` update mode and its `_COMPLETE` twin. */
export const UPDATE_COMPLETE_OFFSET = 16;

/**
 * MODEL: NEURON_ISA_TPB_UPDATE_MODE. Public notes: NONE 0, EVT_SET/CLR_READ 1/2, SEM_INC/DEC_READ 3/4,
 * SEM_ADD/SUB/WR_IMM_READ 5/7/9, the matching `_COMPLETE` set at +16 (17..25) and unnamed `_REG_`
 * variants (taken as 6 and 8). Valid: 0..9 and 17..25.
 */
export const UPDATE_MODE_NAMES: Readonly<Record<number, string>> = {
  ...UPDATE_READ_NAMES,
  ...Object.fromEntries(
    Object.entries(UPDATE_READ_NAMES)
      .filter(([code]) => code !== "0")
      .map(([code, name]) => [Number(code) + UPDATE_COMPLETE_OFFSET, name.replace(/_READ$/, "_COMPLETE")]),
  ),
};
