// The public kernel driver's facts (aws-neuron/aws-neuron-driver; v4 from the newer
// neuron-code-sharing-robot copy) → the model's value, one row each: every item the model uses that
// the driver also states. docs/FIDELITY.md "Public driver" lists the same items with the seed's
// reading where there is one. Then a scan: no MODEL tag in src/spec, src/hal, src/engine or
// src/runtime may state a value the driver pins without naming the driver.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { HBM_BASE, psumAddress, semaphoreAddress } from "../../src/engine/index.js";
import {
  archProfile,
  topSpBase,
  topSpEvtSemIncBase,
  tpbBase,
  tpbEvtSemIncBase,
} from "../../src/hal/index.js";
import {
  coreDie,
  DESCRIPTOR_BYTES,
  dieOf,
  EVENT_BLOCK_OFFSET,
  engineCsrBase,
  hbmAddress,
  M2S_QUEUES_OFFSET,
  MAX_DESCRIPTOR_BYTES,
  MAX_PACKET_DESCRIPTORS,
  QUEUE_BLOCK_BYTES,
  QUEUE_REG,
  queueRegOffset,
  RING_ALIGN_BYTES,
  RING_MAX_SLOTS,
  RING_MIN_SLOTS,
  RING_RESERVED_SLOTS,
  RING_SLOTS_MULTIPLE,
  S2M_QUEUES_OFFSET,
  SEMAPHORE_COUNT,
  type SEMAPHORE_WINDOWS,
  sbufAddress,
  topSpAddress,
  tpbWindow,
  UDMA_TX,
} from "../../src/spec/index.js";

const trn1 = archProfile("trn1");
const trn2 = archProfile("trn2");
const trn3 = archProfile("trn3");
const GiB = 1n << 30n;

/** [driver file, symbol, the driver's value, the model's value]. */
type Row = readonly [file: string, symbol: string, driver: bigint | number, model: () => bigint | number];

const V2 = "v2/address_map.h";
const V3 = "v3/address_map.h";
const V4 = "v4/address_map.h";
const DHAL3 = "v3/neuron_dhal_v3.c";
const UDMA = "udma/udma.h";
const REGS = "udma/udma_regs.h";

const semaphoreOffset = (p: typeof trn1, w: keyof typeof SEMAPHORE_WINDOWS) =>
  semaphoreAddress(p, 0, w, 0) - tpbWindow(p, 0);

/** Cores of a profile on `die` (by their TPB windows). */
const coresOnDie = (p: typeof trn1, die: number) =>
  Array.from({ length: p.neuronCores }, (_, c) => coreDie(p, c)).filter((d) => d === die).length;

const ADDRESS_ROWS: readonly Row[] = [
  // Trn1 = v2
  [V2, "V2_NUM_DIE_PER_DEVICE", 1, () => trn1.addressMap.dies],
  [V2, "V2_MMAP_TPB_OFFSET", 0xfffc0000000n, () => sbufAddress(trn1, 0, 0, 0)],
  [V2, "V2_MMAP_TPB_OFFSET + V2_MMAP_TPB_SIZE", 0xfffc4000000n, () => tpbWindow(trn1, 1)],
  [V2, "V2_MMAP_TPB_SIZE", 0x4000000n, () => trn1.addressMap.tpbWindowBytes],
  [V2, "V2_MMAP_TPB_COUNT / V2_NC_PER_DEVICE", 2, () => trn1.neuronCores],
  [V2, "V2_DMA_ENG_PER_NC", 16, () => trn1.dmaEnginesPerCore],
  [V2, "V2_DMA_QUEUE_PER_ENG", 16, () => trn1.queuesPerEngine],
  [V2, "V2_MMAP_NC_EVENT_OFFSET", 0x2700000n, () => EVENT_BLOCK_OFFSET],
  [V2, "V2_MMAP_NC_SEMA_READ_OFFSET", 0x2701000n, () => semaphoreOffset(trn1, "read")],
  [V2, "V2_MMAP_NC_SEMA_SET_OFFSET", 0x2701400n, () => semaphoreOffset(trn1, "set")],
  [V2, "V2_MMAP_NC_SEMA_INCR_OFFSET", 0x2701800n, () => semaphoreOffset(trn1, "increment")],
  [V2, "V2_MMAP_NC_SEMA_DECR_OFFSET", 0x2701c00n, () => semaphoreOffset(trn1, "decrement")],
  [V2, "V2_MMAP_NC_SBUF_SIZE", 0x2000000, () => trn1.sbufPartitions * trn1.sbufPartitionStride],
  [V2, "V2_SEMAPHORE_COUNT", 256, () => SEMAPHORE_COUNT],
  [V2, "V2_ALLOWED_DESC_PER_PACKET", 64, () => MAX_PACKET_DESCRIPTORS],
  [V2, "V2_HBM_0_BASE", 0n, () => hbmAddress(trn1, 0n)],
  [V2, "V2_HBM_1_BASE", 0x1000000000n, () => hbmAddress(trn1, 16n * GiB)],
  [V2, "V2_HBM_0_SIZE + V2_HBM_1_SIZE", 0x800000000n, () => trn1.hbmBytes],
  [V2, "V2_TOP_SP_0_BASE", 0xfffd0000000n, () => topSpAddress(trn1.addressMap, 0)],
  [V2, "V2_TOP_SP_0_BASE + 5 · V2_TOP_SP_0_SIZE", 0xfffd1400000n, () => topSpAddress(trn1.addressMap, 5)],
  [V2, "V2_TS_PER_DEVICE", 6, () => trn1.addressMap.topSps.length],
  [V2, "V2_APB_SENG_0_UDMA_0_BASE", 0xffff0000000n, () => engineCsrBase(trn1, 0)],
  [V2, "V2_APB_SENG_0_UDMA_15_BASE", 0xffff03c0000n, () => engineCsrBase(trn1, 15)],
  [V2, "V2_APB_SENG_1_UDMA_0_BASE", 0xffff0700000n, () => engineCsrBase(trn1, 16)],
  [V2, "V2_APB_SENG_UDMA_SIZE", 0x40000n, () => trn1.sdmaEngineStride],
  // Trn2 = v3
  [V3, "V3_MMAP_TPB_0_BASE", 0x2000000000n, () => tpbWindow(trn2, 0)],
  [V3, "V3_MMAP_TPB_3_BASE", 0x7000000000n, () => tpbWindow(trn2, 3)],
  [V3, "V3_MMAP_TPB_4_BASE", 0x802000000000n, () => tpbWindow(trn2, 4)],
  [V3, "V3_MMAP_TPB_7_BASE", 0x807000000000n, () => tpbBase(7)],
  [V3, "V3_MMAP_TPB_1_BASE + V3_MMAP_NC_SEMA_INCR_OFFSET", 0x3002701800n, () => tpbEvtSemIncBase(1)],
  [V3, "V3_PCIE_BAR0_TPB_SBUF_SIZE", 0x2000000, () => trn2.sbufPartitions * trn2.sbufPartitionStride],
  [V3, "V3_NC_PER_DEVICE", 8, () => trn2.neuronCores],
  [V3, "V3_DMA_ENG_PER_NC", 16, () => trn2.dmaEnginesPerCore],
  [V3, "V3_NUM_DIE_PER_DEVICE", 2, () => trn2.addressMap.dies],
  [V3, "V3_NC_PER_DIE (cores on die 1)", 4, () => coresOnDie(trn2, 1)],
  [V3, "V3_HBM_2_BASE (die 1's first stack)", 0x800000000000n, () => trn2.addressMap.dieStride],
  [V3, "V3_APB_SE_2_SDMA_0_BASE is on die 1", 1, () => dieOf(trn2, engineCsrBase(trn2, 64))],
  [V3, "V3_DMA_QUEUE_PER_ENG", 16, () => trn2.queuesPerEngine],
  [V3, "V3_HBM_1_BASE", 0x4000000000n, () => hbmAddress(trn2, 24n * GiB)],
  [V3, "V3_HBM_2_BASE", 0x800000000000n, () => hbmAddress(trn2, 48n * GiB)],
  [V3, "V3_HBM_3_BASE", 0x804000000000n, () => hbmAddress(trn2, 72n * GiB)],
  [V3, "V3_HBM_ACTIVE_SIZE", 0x600000000n, () => trn2.addressMap.hbmStacks[3]?.bytes ?? 0n],
  [V3, "4 · V3_HBM_ACTIVE_SIZE", 0x1800000000n, () => trn2.hbmBytes],
  [V3, "V3_TOP_SP_0_BASE", 0x8280000000n, () => topSpBase(0)],
  [V3, "V3_TOP_SP_7_BASE", 0x8440000000n, () => topSpBase(7)],
  [
    DHAL3,
    "TOPSP 8 (V3_TOP_SP_GRP2_BASE + 8 · V3_TOP_SP_DIST = V3_TOP_SP_10_BASE)",
    0x808280000000n,
    () => topSpBase(8),
  ],
  [DHAL3, "TOPSP 15 (= V3_TOP_SP_17_BASE)", 0x808440000000n, () => topSpBase(15)],
  [DHAL3, "TOPSP semaphores at offset 0, + 0x1800 increment", 0x8280001800n, () => topSpEvtSemIncBase(0)],
  [V3, "V3_TOP_SP_SIZE", 0x400000n, () => trn2.addressMap.topSpBytes],
  [DHAL3, "V3_APB_SE_0_SDMA_0_BASE (engine 0)", 0x1002000000n, () => engineCsrBase(trn2, 0)],
  [DHAL3, "V3_APB_SE_0_SDMA_0_BASE + 31 · V3_APB_SDMA_DIST", 0x1003f00000n, () => engineCsrBase(trn2, 31)],
  [DHAL3, "V3_APB_SE_1_SDMA_0_BASE (engine 32)", 0x5004000000n, () => engineCsrBase(trn2, 32)],
  [DHAL3, "V3_APB_SE_2_SDMA_0_BASE (engine 64)", 0x801002000000n, () => engineCsrBase(trn2, 64)],
  [DHAL3, "V3_APB_SE_3_SDMA_0_BASE + 31 · V3_APB_SDMA_DIST", 0x805005f00000n, () => engineCsrBase(trn2, 127)],
  [V3, "V3_APB_SDMA_DIST", 0x100000n, () => trn2.sdmaEngineStride],
  [V3, "V3_ALLOWED_DESC_PER_PACKET", 64, () => MAX_PACKET_DESCRIPTORS],
  // Trn3 = v4
  [V4, "V4_MMAP_TPB_5_BASE", 0x803000000000n, () => tpbWindow(trn3, 5)],
  [
    V4,
    "V4_MMAP_TPB_2_BASE + 0x2000000 (PSUM, MODEL offset)",
    0x6002000000n,
    () => psumAddress(trn3, 2, 0, 0),
  ],
  [V4, "V4_NC_PER_DEVICE", 8, () => trn3.neuronCores],
  [V4, "V4_NUM_DIE_PER_DEVICE", 2, () => trn3.addressMap.dies],
  [V4, "V4_NC_PER_DIE (cores on die 0)", 4, () => coresOnDie(trn3, 0)],
  [V4, "V4_HBM_1_BASE", 0x4000000000n, () => hbmAddress(trn3, 36n * GiB)],
  [V4, "V4_HBM_3_BASE", 0x804000000000n, () => hbmAddress(trn3, 108n * GiB)],
  [V4, "V4_HBM_ACTIVE_SIZE", 0x900000000n, () => trn3.addressMap.hbmStacks[0]?.bytes ?? 0n],
  [V4, "4 · V4_HBM_ACTIVE_SIZE", 0x2400000000n, () => trn3.hbmBytes],
  [V4, "V4_TOP_SP_10_BASE (TOPSP 8)", 0x808280000000n, () => topSpAddress(trn3.addressMap, 8)],
  [V4, "V4_APB_SE_1_SDMA_0_BASE + 2 · V4_APB_SDMA_DIST", 0x5004200000n, () => engineCsrBase(trn3, 34)],
  [V4, "V4_APB_SE_3_SDMA_0_BASE", 0x805004000000n, () => engineCsrBase(trn3, 96)],
  [V4, "V4_SEMAPHORE_COUNT", 256, () => SEMAPHORE_COUNT],
];

const UDMA_ROWS: readonly Row[] = [
  [REGS, "udma_rings_regs.cfg", 0x20, () => QUEUE_REG.cfg],
  [REGS, "udma_rings_regs.drbp_low", 0x28, () => QUEUE_REG.drbp_lo],
  [REGS, "udma_rings_regs.drl", 0x30, () => QUEUE_REG.drl],
  [REGS, "udma_rings_regs.drtp_inc", 0x38, () => QUEUE_REG.drtp_inc],
  [REGS, "udma_rings_regs.crhp", 0x4c, () => QUEUE_REG.crhp],
  [REGS, "udma_s2m_q.q_sw_ctrl", 0x64, () => queueRegOffset("rx", "q_sw_ctrl")],
  [REGS, "unit_regs_v4 m2s_q[0]", 0x1000, () => M2S_QUEUES_OFFSET],
  [REGS, "unit_regs_v4 s2m_q[0]", 0x21000, () => S2M_QUEUES_OFFSET],
  [REGS, "sizeof(udma_m2s_q)", 0x1000, () => QUEUE_BLOCK_BYTES],
  [UDMA, "UDMA_MAX_NUM_CDESC_PER_CACHE_LINE (kept free)", 16, () => RING_RESERVED_SLOTS],
  [UDMA, "UDMA_MIN_Q_SIZE", 32, () => RING_MIN_SLOTS],
  [UDMA, "UDMA_MAX_Q_SIZE", 2 ** 24 - 16, () => RING_MAX_SLOTS],
  [UDMA, "UDMA_QUEUE_ADDR_BYTE_ALIGNMENT", 256, () => RING_ALIGN_BYTES],
  [UDMA, "ring size multiple", 16, () => RING_SLOTS_MULTIPLE],
  [UDMA, "sizeof(union udma_desc)", 16, () => DESCRIPTOR_BYTES],
  [UDMA, "M2S_DESC_FIRST", 1 << 26, () => 2 ** UDMA_TX.leaf("len_ctrl.first").bit],
  [UDMA, "M2S_DESC_LAST", 1 << 27, () => 2 ** UDMA_TX.leaf("len_ctrl.last").bit],
  [UDMA, "largest descriptor (length 0 = 64 KiB)", 65536, () => MAX_DESCRIPTOR_BYTES],
];

describe("the model's value for every driver fact it uses", () => {
  it.each([...ADDRESS_ROWS, ...UDMA_ROWS])("%s %s = %s", (_file, _symbol, driver, model) => {
    expect(BigInt(model())).toBe(BigInt(driver));
  });
  it("HBM starts at stack 0's base, 0 on every arch", () => {
    expect(HBM_BASE).toBe(0n);
  });
});

// --- MODEL tags against the driver's pinned values -------------------------------------------

/** What a driver symbol is about: a MODEL chunk must speak of the same thing for its value to count. */
function subjectOf(symbol: string): RegExp {
  if (/TPB|SBUF/.test(symbol)) return /TPB|SBUF|window|aperture/i;
  if (/HBM/.test(symbol)) return /HBM/i;
  if (/TOP_?SP/.test(symbol)) return /TopSP|top_sp/i;
  if (/EVENT|SEMA/.test(symbol)) return /event|sema/i;
  if (/UDMA|SDMA/.test(symbol)) return /engine|SDMA|UDMA|CSR|register/i;
  return /queue|ring|register|descriptor/i;
}

/** Values the driver pins (above 0x10000, so a generic small offset or size never matches), with their subject. */
const PINNED: readonly { readonly value: bigint; readonly subject: RegExp }[] = [
  // Descriptor flag bits (M2S_DESC_*) are positions, not values: a seed's word may hold the same bit.
  ...[...ADDRESS_ROWS, ...UDMA_ROWS]
    .filter((r) => !/_DESC_/.test(r[1]))
    .map((r) => ({ value: BigInt(r[2]), subject: subjectOf(r[1]) })),
  // V3_MMAP_TPB_0..3_BASE (rows above read 0 and 3 through other functions).
  ...[0x2000000000n, 0x3000000000n, 0x6000000000n].map((value) => ({ value, subject: subjectOf("TPB") })),
].filter((p) => p.value > 0x10000n);

const hexValue = (token: string): bigint => BigInt(token.replaceAll("_", "").replace(/n$/, ""));

/**
 * The comment blocks of a source text that carry a MODEL tag (a JSDoc block, or a run of // lines),
 * each with the code line after it (where a tagged constant's value is).
 */
function modelChunks(text: string): string[] {
  const chunks: string[] = [];
  for (const m of text.matchAll(/(?:\/\*[\s\S]*?\*\/|(?:^[ \t]*\/\/.*\n?)+)\s*(.*)/gm)) {
    if (/\bMODEL\b/.test(m[0])) chunks.push(m[0]);
  }
  return chunks;
}

/** The pinned values a MODEL chunk states without naming the driver as their source. */
function unattributedPins(chunk: string): bigint[] {
  if (/\bdriver\b/i.test(chunk)) return [];
  const hits = [...chunk.matchAll(/\b0x[0-9a-fA-F_]+n?\b/g)].map((m) => hexValue(m[0]));
  const pins = PINNED.filter((p) => hits.includes(p.value) && p.subject.test(chunk)).map((p) => p.value);
  return [...new Set(pins)];
}

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith(".ts") ? [join(dir, e.name)] : [],
  );
}

describe("no MODEL tag states a value the driver pins", () => {
  it("the scan catches the old MODEL bases (TPB aperture, HBM base, SDMA CSR base)", () => {
    // The SDMA register base as it was tagged before the driver's map (value on the code line).
    const oldCsr = [
      "/**",
      " * Where the simulated SDMA register space of a device starts (MODEL: an address outside HBM and the",
      " * SBUF windows; the real BAR layout is not in the seeds).",
      " */",
      "export const SDMA_CSR_BASE = 0x10_0000_0000n;",
    ].join("\n");
    expect(modelChunks(oldCsr).flatMap(unattributedPins)).toEqual([0x1000000000n]);
    expect(unattributedPins("/** MODEL: where HBM starts: 0x10_0000_0000n. */")).toEqual([0x1000000000n]);
    expect(unattributedPins("// MODEL: SBUF window 0x20_0000_0000\n")).toEqual([0x2000000000n]);
    expect(unattributedPins("/** MODEL: the driver's 0x10_0000_0000 */")).toEqual([]);
    expect(unattributedPins("/** MODEL at window + 0x2000 */")).toEqual([]);
  });
  it.each(["src/spec", "src/hal", "src/engine", "src/runtime"])("%s", (dir) => {
    const offenders = sources(dir).flatMap((file) =>
      modelChunks(readFileSync(file, "utf8")).flatMap((chunk) =>
        unattributedPins(chunk).map(
          (v) => `${file}: MODEL with the driver's 0x${v.toString(16)}: ${chunk.trim().slice(0, 120)}`,
        ),
      ),
    );
    expect(offenders).toEqual([]);
  });
});
