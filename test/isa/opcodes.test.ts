import { describe, expect, it } from "vitest";
import { isPoolEngineOpcode, isPseudoOp, isPseudoOpByTopBits, PSEUDO_OPCODES } from "../../src/isa/index.js";
import { Opcode } from "../../src/spec/index.js";

describe("opcodes (seed 002 §1)", () => {
  it("pins the gcc-probed values", () => {
    expect(Opcode.SB2SB_COLLECTIVE).toBe(0xbf);
    expect(Opcode.PSEUDO_TRIGGER_ALL_REDUCE).toBe(0xc7);
    expect(Opcode.PSEUDO_TRIGGER_COLLECTIVE).toBe(0xc8);
    expect([Opcode.PSEUDO_TRIGGER_COLLECTIVE2, Opcode.PSEUDO_TRIGGER_COLLECTIVE2_EXT]).toEqual([0xd9, 0xda]);
  });

  it("0xBF is real: below the 0b110 block, absent from is_pseudo_op's list", () => {
    expect(0xbf >>> 5).toBe(0b101);
    expect(isPseudoOpByTopBits(0xbf)).toBe(false);
    expect(isPseudoOp(0xbf)).toBe(false);
  });

  it("both readings of is_pseudo_op agree on every opcode the seed names", () => {
    for (const op of Object.values(Opcode)) expect(isPseudoOp(op)).toBe(isPseudoOpByTopBits(op));
    for (const op of PSEUDO_OPCODES) expect(isPseudoOpByTopBits(op)).toBe(true);
  });

  it("the top-bits reading covers exactly 0xC0..0xDF", () => {
    const hits = Array.from({ length: 256 }, (_, i) => i).filter(isPseudoOpByTopBits);
    expect(hits[0]).toBe(0xc0);
    expect(hits.at(-1)).toBe(0xdf);
    expect(hits).toHaveLength(32);
  });

  it("0xBF runs on the POOL engine; the pseudo triggers do not", () => {
    expect(isPoolEngineOpcode(0xbf)).toBe(true);
    for (const op of PSEUDO_OPCODES) expect(isPoolEngineOpcode(op)).toBe(false);
  });
});
