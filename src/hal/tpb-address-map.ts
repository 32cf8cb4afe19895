/**
 * TPB and TopSP apertures as the HAL sees them. The seed names aws_hal_get_tpb_base /
 * aws_hal_get_tpb_evt_sem_inc_base / aws_hal_get_top_sp_evt_sem_inc_base but gives no addresses;
 * the bases are the public driver's (spec/address-map.ts ADDRESS_MAPS): TPB i at V3_MMAP_TPB_i_BASE
 * (= seed 003 §5's SBUF windows), TopSP j as the driver's TOPSP mmap table numbers its 16 TopSPs
 * (TOP_SP_0..7 on die 0, TOP_SP_10..17 on die 1). A TPB's event block sits at +0x2700000
 * (GROUND_TRUTH, V3_MMAP_NC_EVENT_OFFSET "relative to nc"); a TopSP's at offset 0 (the driver maps
 * a TopSP's semaphores from its base). The increment window is +0x1800 of the event block.
 *
 * The HAL callers (CAYMAN transpose flush, MARIANA embedded semaphores) are v3 / v4, whose TPB and
 * TopSP bases agree, so the map defaults to v3's; a caller with a profile passes its map.
 */
import { SdmaAbortError } from "../bits/errors.js";
import { type AddressMap, V3_ADDRESS_MAP } from "../spec/address-map.js";
import { EVENT_BLOCK_OFFSET, SEMAPHORE_WINDOWS } from "../spec/udma-regs.js";

/** 8 TPB regions then 16 TopSP regions populate 24 of the 32 embedded-semaphore regions (seed 003 §4). */
export const TPB_COUNT = 8;
export const TOP_SP_COUNT = 16;

/** A TPB's semaphore-increment window: + event block (0x2700000) + 0x1800 (GROUND_TRUTH, the driver's). */
export const EVT_SEM_INC_OFFSET = EVENT_BLOCK_OFFSET + SEMAPHORE_WINDOWS.increment;
/** A TopSP's event block: at its base (the driver's TOPSP semaphore mmap entry, offset 0). */
export const TOP_SP_EVENT_OFFSET = 0n;
/** A TopSP's semaphore-increment window: + 0x1800. */
export const TOP_SP_SEM_INC_OFFSET = TOP_SP_EVENT_OFFSET + SEMAPHORE_WINDOWS.increment;

function checked(func: string, i: number, count: number): number {
  if (!Number.isInteger(i) || i < 0 || i >= count)
    throw new SdmaAbortError(func, `index < ${count} (index ${i})`);
  return i;
}

/**
 * libnrt aws_hal_get_tpb_base: TPB i's base (the driver's V3_MMAP_TPB_i_BASE on Trn2 / Trn3).
 * @throws SdmaAbortError for i outside the map's TPBs (0..7 on v3 / v4).
 */
export function tpbBase(i: number, map: AddressMap = V3_ADDRESS_MAP): bigint {
  return map.tpbWindows[
    checked("aws_hal_get_tpb_base", i, Math.min(TPB_COUNT, map.tpbWindows.length))
  ] as bigint;
}

/**
 * TopSP j's base (the driver's TOPSP mmap table: j < 8 at 0x82_8000_0000 + j · 0x4000_0000, else
 * 0x8082_8000_0000 + (j − 8) · 0x4000_0000). @throws SdmaAbortError for j outside the map's TopSPs.
 */
export function topSpBase(j: number, map: AddressMap = V3_ADDRESS_MAP): bigint {
  return map.topSps[
    checked("aws_hal_get_top_sp_base", j, Math.min(TOP_SP_COUNT, map.topSps.length))
  ] as bigint;
}

/** libnrt aws_hal_get_tpb_evt_sem_inc_base: TPB i's semaphore-increment window (tpbBase + 0x2701800). */
export function tpbEvtSemIncBase(i: number, map: AddressMap = V3_ADDRESS_MAP): bigint {
  return tpbBase(i, map) + EVT_SEM_INC_OFFSET;
}

/** libnrt aws_hal_get_top_sp_evt_sem_inc_base: TopSP j's semaphore-increment window (topSpBase + 0x1800). */
export function topSpEvtSemIncBase(j: number, map: AddressMap = V3_ADDRESS_MAP): bigint {
  return topSpBase(j, map) + TOP_SP_SEM_INC_OFFSET;
}
