// The byte-exact seed facts no vector set can hold, pinned to the seed's own text. Each test names
// its ledger row through ledgerRow (test/conformance/ledger-pins.test.ts counts it as pinned) and
// quotes the seed lines its expected values are copied from.
import { describe, expect, it } from "vitest";
import { KHAL_REGISTRARS, KHAL_SLOTS, khalSlotSpec } from "../../src/hal/index.js";
import { addr4FromU32, addr4ToU32 } from "../../src/isa/index.js";
import { Addr4Marker } from "../../src/spec/index.js";
import { ledgerRow } from "../helpers/ledger-row.js";

describe("seed 003: the host's khal tables", () => {
  // Seed 003 §0: "filled at init by kaena_khal_register_funcs_v{2,3,4} (@0x468740/@0x46ED70/@0x4622E0)",
  // hal_target "branches on 2 → SUNDA / 3 → CAYMAN / 4 → MARIANA"; §1's call tree:
  // "aws_hal_sdma_init_embedded_sem (0x451e90) ── trampoline → kaena_khal+0x528".
  it(
    ledgerRow("kaena_khal_register_funcs_v2 @0x468740", "registrars by hal_target; the trampoline's slot"),
    () => {
      const registrars = ([2, 3, 4] as const).map((a) => [
        a,
        KHAL_REGISTRARS[a].symbol,
        KHAL_REGISTRARS[a].address,
      ]);
      expect(registrars).toEqual([
        [2, "kaena_khal_register_funcs_v2", 0x468740],
        [3, "kaena_khal_register_funcs_v3", 0x46ed70],
        [4, "kaena_khal_register_funcs_v4", 0x4622e0],
      ]);
      const init = khalSlotSpec("init_embedded_sem");
      expect([init.trampoline?.symbol, init.trampoline?.address, init.table, init.offset]).toEqual([
        "aws_hal_sdma_init_embedded_sem",
        0x451e90,
        "kaena_khal.khal_sdma",
        0x528,
      ]);
    },
  );

  // Seed 003 §1: "fp = kaena_khal.khal_sdma.init_embedded_sem // kaena_khal + 0x528"; §4:
  // "aws_hal_sdma_embedded_sem_wr_address(ctx, i, addr) // → vt+0x538"; and the retired RDM leaves
  // "are still installed into the v4 vtable (vt+0x8/+0x10/+0x18)".
  it(ledgerRow("Slot offsets: init_embedded_sem kaena_khal+0x528", "the slot offsets the seed gives"), () => {
    const seedSlots = KHAL_SLOTS.filter((s) => s.offsetFidelity === "seed").map((s) => [
      s.name,
      s.table,
      s.offset,
    ]);
    expect(seedSlots).toEqual([
      ["init_embedded_sem", "kaena_khal.khal_sdma", 0x528],
      ["embedded_sem_wr_address", "kaena_khal.khal_sdma", 0x538],
      ["rdm_init", "khal_arch", 0x8],
      ["rdm_queue_init", "khal_arch", 0x10],
      ["rdm_queue_start", "khal_arch", 0x18],
    ]);
  });
});

describe("seed 002 §3.2: the ADDR4 union", () => {
  // "The marker byte top-bits select IMM (0x00) / ADDR_REG (0x80) / SHAPE_REG (0x40) /
  // ADDR_SHAPE_REG (0xC0) (common.h:486-491)."
  const MARKERS = [
    ["imm", 0x00],
    ["shape_reg", 0x40],
    ["addr_reg", 0x80],
    ["addr_shape_reg", 0xc0],
  ] as const;

  it(ledgerRow("ADDR4 union; marker top bits", "the marker byte's top two bits select the kind"), () => {
    expect(Object.entries(Addr4Marker)).toEqual([
      ["IMM", 0x00],
      ["SHAPE_REG", 0x40],
      ["ADDR_REG", 0x80],
      ["ADDR_SHAPE_REG", 0xc0],
    ]);
    for (const [kind, marker] of MARKERS) {
      // The marker is byte 3; its low six bits do not change the kind.
      for (const low of [0, 0x3f]) expect(addr4FromU32(((marker | low) << 24) >>> 0).kind).toBe(kind);
    }
    for (const [kind, marker] of MARKERS) {
      if (kind === "imm") continue;
      expect(addr4ToU32({ kind, regnum: 0, reserved0: 0, markerLow: 0 }) >>> 24).toBe(marker);
    }
  });
});
