/**
 * The TPB opcodes of the collective family and the two predicates that classify them (seed 002 §1):
 * which opcodes are host-only pseudo-ops, and which may run on the POOL engine.
 */
import { Opcode } from "../spec/enums.js";

export { Opcode };

/** NEURON_ISA_TPB_OPCODE_SB2SB_COLLECTIVE: the one real HW instruction of the family (seed 002 §1). */
export const OPCODE_SB2SB_COLLECTIVE = Opcode.SB2SB_COLLECTIVE;

/** The pseudo opcodes the upper-three-bits rule covers: 0b110x_xxxx = 0xC0..0xDF (common.h:263). */
const PSEUDO_TOP3 = 0b110;

/**
 * The pseudo-op test as the comment at common.h:263 states it: "upper three bits of the opcode
 * equal to 0b110", i.e. 0xC0..0xDF. Seed 002 §1.
 * @example isPseudoOpByTopBits(0xc7) // true; isPseudoOpByTopBits(0xbf) // false
 */
export function isPseudoOpByTopBits(opcode: number): boolean {
  return opcode >>> 5 === PSEUDO_TOP3 && opcode <= 0xff;
}

/**
 * The opcodes `is_pseudo_op()` lists explicitly (aws_neuron_isa_tpb_instr_assert.h:594-626) whose
 * values seed 002 gives. MODEL: the seed names PSEUDO_DMATRIGGER and "…" without values, so the list
 * holds only the four valued members; SB2SB_COLLECTIVE is absent, as in the header.
 */
export const PSEUDO_OPCODES: ReadonlySet<number> = new Set([
  Opcode.PSEUDO_TRIGGER_ALL_REDUCE,
  Opcode.PSEUDO_TRIGGER_COLLECTIVE,
  Opcode.PSEUDO_TRIGGER_COLLECTIVE2,
  Opcode.PSEUDO_TRIGGER_COLLECTIVE2_EXT,
]);

/**
 * `is_pseudo_op()` (instr_assert.h:594-626), the explicit-list predicate, seed 002 §1. Agrees with
 * {@link isPseudoOpByTopBits} on every opcode the seed names.
 * @example isPseudoOp(0xbf) // false
 */
export function isPseudoOp(opcode: number): boolean {
  return PSEUDO_OPCODES.has(opcode);
}

/**
 * The opcodes with a value in seed 002 that the POOL branch of neuron_isa_check_opcode_on_engine
 * (instr_assert.h:692-741) accepts. MODEL: the branch also lists COPY, CAST, GATHER,
 * TENSOR_TENSOR_ARITH_OP, … whose values the seed does not give; they are not modelled.
 */
export const POOL_ENGINE_OPCODES: ReadonlySet<number> = new Set([Opcode.SB2SB_COLLECTIVE]);

/**
 * The POOL branch of neuron_isa_check_opcode_on_engine (instr_assert.h:692-741), seed 002 §1: 0xBF
 * runs on the POOL engine (the "Pool/Q7 iDMA engine"); the pseudo triggers never reach an engine.
 * @example isPoolEngineOpcode(0xbf) // true; isPoolEngineOpcode(0xc7) // false
 */
export function isPoolEngineOpcode(opcode: number): boolean {
  return POOL_ENGINE_OPCODES.has(opcode);
}
