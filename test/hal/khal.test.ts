import { describe, expect, it } from "vitest";
import { isEinval, SdmaAssertError } from "../../src/bits/index.js";
import {
  createHalDevice,
  KHAL_SLOTS,
  khalCall,
  q7MemoryBase,
  slotState,
  UNSUPPORTED_RETURN,
} from "../../src/hal/index.js";
import { EMBEDDED_SEM } from "../../src/spec/index.js";

const EMBEDDED = [
  "init_embedded_sem",
  "embedded_sem_rd_address",
  "embedded_sem_wr_address",
  "embedded_sem_csr_index",
  "s2m_set_embedded_sem_fields",
] as const;
const STUBS = [
  "rdm_init",
  "rdm_queue_init",
  "rdm_queue_start",
  "q7_swap_table_init",
  "q7_swap_table_load",
  "q7_swap_table_release",
] as const;

describe("slot states per registrar", () => {
  it.each(["trn1", "trn2"])("%s: every slot of the band is absent", (arch) => {
    const dev = createHalDevice(arch);
    for (const s of KHAL_SLOTS) expect(slotState(dev.khal, s.name)).toBe("absent");
  });
  it("trn3: embedded-sem and the Q7 loader present; RDM and Q7 swap-table present-but-unsupported", () => {
    const dev = createHalDevice("trn3");
    for (const s of EMBEDDED) expect(slotState(dev.khal, s)).toBe("present");
    expect(slotState(dev.khal, "q7_ucode_eng_init")).toBe("present");
    for (const s of STUBS) expect(slotState(dev.khal, s)).toBe("unsupported");
  });
  it("the seed's slot offsets: init at kaena_khal+0x528, wr_address +0x538, RDM khal_arch +0x8/+0x10/+0x18", () => {
    const at = (n: string) => KHAL_SLOTS.find((s) => s.name === n)?.offset;
    expect([at("init_embedded_sem"), at("embedded_sem_wr_address")]).toEqual([0x528, 0x538]);
    expect([at("rdm_init"), at("rdm_queue_init"), at("rdm_queue_start")]).toEqual([0x8, 0x10, 0x18]);
  });
});

describe("trampolines", () => {
  it.each(["trn1", "trn2"])(
    "%s: aws_hal_sdma_init_embedded_sem is the NULL-slot assert at al_hal_sdma.c:0x28E",
    (arch) => {
      const dev = createHalDevice(arch);
      const err = (() => {
        try {
          khalCall(dev, "init_embedded_sem", 0x1000n);
        } catch (e) {
          return e;
        }
      })() as SdmaAssertError;
      expect(err).toBeInstanceOf(SdmaAssertError);
      expect([err.file, err.line, err.func, err.assertion]).toEqual([
        "al_hal_sdma.c",
        0x28e,
        "aws_hal_sdma_init_embedded_sem",
        "kaena_khal.khal_sdma.init_embedded_sem",
      ]);
      expect(dev.regs.log).toEqual([]);
    },
  );
  it("an INVALID hal_target asserts before the slot is read", () => {
    const dev = createHalDevice("trn3");
    dev.halTarget = 0;
    expect(() => khalCall(dev, "init_embedded_sem", 0x1000n)).toThrow(/INVALID/);
  });
});

describe("v4 stubs", () => {
  it.each(["rdm_init", "rdm_queue_init", "rdm_queue_start"] as const)(
    "%s returns 0xFFFFFFFF and logs 'is not supported for arch v4'",
    (slot) => {
      const dev = createHalDevice("trn3");
      expect(khalCall(dev, slot)).toBe(UNSUPPORTED_RETURN);
      expect(dev.messages).toHaveLength(1);
      expect(dev.messages[0]).toMatch(/is not supported for arch v4$/);
      expect(dev.regs.log).toEqual([]);
    },
  );
  it.each(["q7_swap_table_init", "q7_swap_table_load", "q7_swap_table_release"] as const)(
    "%s returns 0 silently",
    (slot) => {
      const dev = createHalDevice("trn3");
      expect(khalCall(dev, slot)).toBe(0);
      expect(dev.messages).toEqual([]);
      expect(dev.regs.log).toEqual([]);
    },
  );
});

describe("aws_hal_q7_ucode_eng_init_mariana", () => {
  const CSR = 0x10_0000_0000n;
  it.each([
    [0, 2],
    [1, 5],
  ])("owner %i loads POOL engine %i: IRAM then DRAM, padded to words", (owner, engine) => {
    const dev = createHalDevice("trn3");
    const iram = Uint8Array.of(1, 2, 3, 4, 5);
    const dram = Uint8Array.of(0xaa, 0xbb);
    expect(khalCall(dev, "q7_ucode_eng_init", CSR, owner, iram, dram)).toBe(0);
    const I = q7MemoryBase(CSR, engine, "iram");
    const D = q7MemoryBase(CSR, engine, "dram");
    expect(dev.regs.writesSince().map((w) => [w.addr, w.value, w.accessor])).toEqual([
      [I, 0x04030201, "POOL eng iram"],
      [I + 4n, 0x05, "POOL eng iram"],
      [D, 0xbbaa, "POOL eng dram"],
    ]);
  });
  it("owner 2 is -EINVAL with no write", () => {
    const dev = createHalDevice("trn3");
    expect(isEinval(khalCall(dev, "q7_ucode_eng_init", CSR, 2, new Uint8Array(4), new Uint8Array(4)))).toBe(
      true,
    );
    expect(dev.regs.log).toEqual([]);
  });
});

describe("embedded-sem layout fits the MODEL packing", () => {
  it("the layout exists with the five members", () => {
    expect(EMBEDDED_SEM.leaves.map((l) => l.path).sort()).toEqual([
      "intra_reg_offset",
      "reg_sel",
      "sow",
      "wr_mode",
      "wr_val",
    ]);
  });
});
