/**
 * Every S2M (RX) descriptor the HAL and the runtime write decodes as udma-rx with no undeclared bit:
 * the S2M view has no FIRST / LAST / DMB (aws-neuron-driver udma.h), so none may be set.
 */
import { describe, expect, it } from "vitest";
import {
  buildCaymanTransposeFlushPacket,
  buildCaymanTransposePacket,
  createHalDevice,
  type DmaPacket,
  s2mSetEmbeddedSemFields,
} from "../../src/hal/index.js";
import { addDmaPacket } from "../../src/runtime/index.js";
import { queueRegisterAddress, SBUF_WINDOWS, UDMA_RX } from "../../src/spec/index.js";
import { makeVring } from "../runtime/fixtures.js";

/** The decode issues of each 16-byte S2M descriptor, and whether any has bit 26 or 27 (M2S FIRST / LAST) set. */
const issuesOf = (rx: Uint8Array) =>
  Array.from({ length: rx.length / 16 }, (_, i) => {
    const w0 = new DataView(rx.buffer, rx.byteOffset + 16 * i).getUint32(0, true);
    return [...UDMA_RX.issues(rx, 16 * i), ...((w0 & 0x0c00_0000) !== 0 ? ["FIRST/LAST set"] : [])];
  }).flat();

describe("S2M descriptors decode as udma-rx with no undeclared bit", () => {
  it("the CAYMAN transpose packet (3 descriptors) and its flush", () => {
    const W = SBUF_WINDOWS[0] as bigint;
    const from = [0x1000n, 0x2000n, 0x3000n].map((addr) => ({ addr, len: 8 }));
    const to = [0n, 1n, 2n].map((k) => ({ addr: W + (k << 18n), len: 8 }));
    const r = buildCaymanTransposePacket({
      dtype: 6,
      cols: 4,
      dir: 1,
      ctrl: 0,
      a2: 0n,
      op: 1,
      wDim: 1,
      zDim: 1,
      from,
      to,
    });
    expect(issuesOf((r as DmaPacket).rx)).toEqual([]);
    expect(issuesOf(buildCaymanTransposeFlushPacket(0).rx)).toEqual([]);
  });

  it("a MARIANA embedded-semaphore write (len_ctrl bit 31)", () => {
    const desc = new Uint8Array(16);
    new DataView(desc.buffer).setUint32(0, (1 << 24) | 4, true);
    s2mSetEmbeddedSemFields(createHalDevice("trn3"), desc, {
      sow: false,
      wr_mode: 2,
      wr_val: 1,
      reg_sel: 3,
      intra_reg_offset: 7,
    });
    expect(issuesOf(desc)).toEqual([]);
  });

  it("a plain copy's RX chain as the ring writer stamps it, through four wraps (phases 1, 2, 3, 0)", () => {
    const { vring, registers } = makeVring({ slots: 32 });
    for (let k = 0; k < 4 * 32; k++) {
      const [rx] = addDmaPacket(vring, { src: 0x1000n, dst: 0x20_0000n, size: 100 }).filter(
        (w) => w.ring === "rx",
      );
      expect(issuesOf((rx as { bytes: Uint8Array }).bytes)).toEqual([]);
      registers.write32(
        queueRegisterAddress(vring.profile, { engine: 0, queue: 0 }, "tx", "drhp"),
        vring.tx.tail,
        "engine",
      );
      registers.write32(
        queueRegisterAddress(vring.profile, { engine: 0, queue: 0 }, "rx", "drhp"),
        vring.rx.tail,
        "engine",
      );
    }
  });
});
