/**
 * The MARIANA 32-region embedded-semaphore facility (seed 003 §4): region init, the lo / hi address
 * write, the reverse lookup from an AXI base, and the S2M descriptor field-pack. These are the v4
 * khal leaves; callers reach them through the trampolines in khal-dispatch.ts.
 */
import { FieldError, SdmaAssertError } from "../bits/errors.js";
import { EMBEDDED_SEM_W1, UDMA_RX } from "../spec/layouts/index.js";
import { EVENT_BLOCK_OFFSET } from "../spec/udma-regs.js";
import { csrAccessor, csrRead, csrWrite } from "./csr-accessors.js";
import { EMBEDDED_SEM_UPDATE } from "./csr-families.js";
import { archOf, type HalDevice } from "./hal-device.js";
import { khalCall } from "./khal-dispatch.js";
import type { EmbeddedSemFields } from "./khal-slots.js";
import { TOP_SP_COUNT, TPB_COUNT, topSpEvtSemIncBase, tpbEvtSemIncBase } from "./tpb-address-map.js";

/** The file the MARIANA leaves' asserts name (line info absent in the binary: line 0). */
export const MARIANA_SDMA_FILE = "aws_hal_mariana_sdma.c";
/** AL_HAL_NUM_EMBEDDED_SEM_REGIONS_MARIANA. */
export const EMBEDDED_SEM_REGIONS = EMBEDDED_SEM_UPDATE.count;
/** The AXI base csr_index resolves: 0x2701800 | 0x800000000 (bit 35 rebase, not the bit-47 mesh marker). */
export const EMBEDDED_SEM_AXI_BASE = 0x8_0270_1800n;
/** The device-full / rebase prefix aws_hal_stpb_get_axi_offset strips (bit 35). */
export const AXI_REBASE_PREFIX = 0x8_0000_0000n;
/** len_ctrl bit 31 (udma-rx len_ctrl.embedded_sem): the seed's desc byte 3 |= 0x80, strong_ord_wr (seed 003 §4). */
const EMBEDDED_SEM_LEAF = UDMA_RX.leaf("len_ctrl.embedded_sem");

const ctrlCfg = csrAccessor("aws_reg_write_embedded_sem_ctrl_cfg");
const updateLo = csrAccessor("aws_reg_write_embedded_semaphore_update_lo");
const updateHi = csrAccessor("aws_reg_write_embedded_semaphore_update_hi");
const readLo = csrAccessor("aws_reg_read_embedded_semaphore_update_lo");
const readHi = csrAccessor("aws_reg_read_embedded_semaphore_update_hi");

/**
 * libnrt aws_hal_mariana_sdma_init_embedded_sem @0x465330, seed 003 §4: control config = 1, then the
 * 8 TPB increment bases into regions 0..7 and the 16 TopSP bases into 8..23 (24 of 32), each through
 * the wr_address trampoline (vt+0x538).
 */
export function marianaInitEmbeddedSem(dev: HalDevice, csr: bigint): void {
  csrWrite(dev, ctrlCfg, { base: csr, index: 0 }, 1);
  const map = archOf(dev).addressMap;
  for (let i = 0; i < TPB_COUNT; i++)
    khalCall(dev, "embedded_sem_wr_address", csr, i, tpbEvtSemIncBase(i, map));
  for (let j = 0; j < TOP_SP_COUNT; j++) {
    khalCall(dev, "embedded_sem_wr_address", csr, TPB_COUNT + j, topSpEvtSemIncBase(j, map));
  }
}

function assertRegion(func: string, index: number): void {
  if (!Number.isInteger(index) || index < 0 || index >= EMBEDDED_SEM_REGIONS) {
    throw new SdmaAssertError(MARIANA_SDMA_FILE, 0, func, "index < AL_HAL_NUM_EMBEDDED_SEM_REGIONS_MARIANA");
  }
}

/**
 * libnrt aws_hal_mariana_sdma_embedded_sem_wr_address @0x4653a0, seed 003 §4: region `index`'s
 * address, low word then high word.
 * @throws SdmaAssertError when index ≥ 32; FieldError when addr is not a u64.
 */
export function marianaEmbeddedSemWrAddress(dev: HalDevice, csr: bigint, index: number, addr: bigint): void {
  assertRegion("aws_hal_mariana_sdma_embedded_sem_wr_address", index);
  if (addr < 0n || addr >= 1n << 64n)
    throw new FieldError("embedded_sem_wr_address", "addr", addr, "0..2^64-1");
  csrWrite(dev, updateLo, { base: csr, index }, Number(addr & 0xffff_ffffn));
  csrWrite(dev, updateHi, { base: csr, index }, Number(addr >> 32n));
}

/**
 * The read side of the region address (MODEL slot: the seed mentions a read leaf beside seed / init /
 * wr, without an address). @throws SdmaAssertError when index ≥ 32.
 */
export function marianaEmbeddedSemRdAddress(dev: HalDevice, csr: bigint, index: number): bigint {
  assertRegion("aws_hal_mariana_sdma_embedded_sem_rd_address", index);
  const lo = csrRead(dev, readLo, { base: csr, index });
  const hi = csrRead(dev, readHi, { base: csr, index });
  return (BigInt(hi) << 32n) | BigInt(lo);
}

/**
 * aws_hal_stpb_get_axi_offset, MODEL: strip the bit-35 rebase prefix and add the caller's own
 * TPB / TopSP aperture base (the seed says the getters subtract the prefix; the rest is ours).
 */
export function stpbGetAxiOffset(localBase: bigint, addr: bigint): bigint {
  return localBase + (addr & ~AXI_REBASE_PREFIX);
}

/**
 * libnrt aws_hal_mariana_sdma_embedded_sem_csr_index @0x465490, seed 003 §4: the region whose
 * increment base is this context's AXI view of 0x802701800 — 0..7 TPB, 8..23 TopSP, else -1.
 * The HAL context is given as its own aperture base (MODEL, see stpbGetAxiOffset).
 */
export function marianaEmbeddedSemCsrIndex(_dev: HalDevice, localBase: bigint): number {
  const axi = stpbGetAxiOffset(localBase, EMBEDDED_SEM_AXI_BASE);
  for (let i = 0; i < TPB_COUNT; i++) if (axi === tpbEvtSemIncBase(i)) return i;
  // The 0x2700000 in the AXI base is NC-relative (the driver's V3_MMAP_NC_EVENT_OFFSET, a TPB's
  // event block); a TopSP's event block is at its base, so a TopSP context's view drops it (MODEL).
  const topSpView = axi - EVENT_BLOCK_OFFSET;
  for (let j = 0; j < TOP_SP_COUNT; j++) if (topSpView === topSpEvtSemIncBase(j)) return TPB_COUNT + j;
  return -1;
}

/**
 * MODEL (docs/FIDELITY.md "S2M embedded-semaphore descriptor"): where s2m_set_embedded_sem_fields
 * puts its bytes. The seed: "sets desc[+3] |= 0x80 (the strong_ord_wr bit) and packs the 6-byte
 * al_embedded_sem_t into descriptor bytes a2[0..3]". We keep the byte formula exactly — byte 3 of
 * the descriptor, so len_ctrl bit 31 — and read "a2" as the RX view's second address word,
 * buf2_ptr_lo (W1, descriptor bytes 4..7): four bytes, free on a plain-copy RX descriptor. Packing
 * the fields into W0 instead would overwrite the ring model's ring_id / FIRST / LAST (25:24, 26, 27);
 * moving the flag to the public strong-order bit 29 would change the seed's byte (0x80 is bit 7 of
 * byte 3, not bit 5).
 */
export const EMBEDDED_SEM_FIELDS_OFFSET = 4;

/**
 * The al_embedded_sem_t members packed in a W1 word (the EMBEDDED_SEM_W1 layout, inverse of
 * {@link s2mSetEmbeddedSemFields}); the engine reads an RX descriptor's fields with it.
 * @example unpackEmbeddedSem(0x8009beef).reg_sel // 9
 */
export function unpackEmbeddedSem(w1: number): EmbeddedSemFields {
  const bytes = new Uint8Array(4);
  new DataView(bytes.buffer).setUint32(0, w1 >>> 0, true);
  return EMBEDDED_SEM_W1.decode(bytes);
}

/**
 * libnrt s2m_set_embedded_sem_fields @0x465500, seed 003 §4: desc[3] |= 0x80 (len_ctrl bit 31, the
 * strong_ord_wr flag) and `sem` packed into W1 = buf2_ptr_lo (MODEL {@link EMBEDDED_SEM_FIELDS_OFFSET},
 * the EMBEDDED_SEM_W1 layout). Bytes 0..2 and 8..15 are left as they are, so a ring writer's
 * length, ring_id, FIRST / LAST and the destination pointer survive.
 * @throws FieldError when a member does not fit its packed width, or desc is shorter than 8 bytes.
 */
export function s2mSetEmbeddedSemFields(_dev: HalDevice, desc: Uint8Array, sem: EmbeddedSemFields): void {
  const end = EMBEDDED_SEM_FIELDS_OFFSET + 4;
  if (desc.length < end)
    throw new FieldError("s2m_set_embedded_sem_fields", "desc", desc.length, `≥ ${end} bytes`);
  EMBEDDED_SEM_W1.encodeInto(sem, desc, EMBEDDED_SEM_FIELDS_OFFSET);
  // Only that bit of its byte is set: the rest of byte 3 (ring_id, FIRST / LAST) is left as it is.
  const at = EMBEDDED_SEM_LEAF.bit >> 3;
  desc[at] = (desc[at] as number) | (1 << (EMBEDDED_SEM_LEAF.bit - 8 * at));
}
