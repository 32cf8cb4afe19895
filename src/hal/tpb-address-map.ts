/**
 * TPB and TopSP apertures as the HAL sees them. The seed names aws_hal_get_tpb_base /
 * aws_hal_get_tpb_evt_sem_inc_base / aws_hal_get_top_sp_evt_sem_inc_base but gives no addresses;
 * GROUND_TRUTH gives the event block (+0x2700000) and its increment window (+0x1800). The aperture
 * bases are MODEL (docs/FIDELITY.md): chosen 256 MiB apart, clear of HBM, the SBUF windows, the
 * simulated SDMA CSR space (0x10_0000_0000) and the bit-35 rebase prefix.
 */
import { SdmaAbortError } from "../bits/errors.js";
import { EVENT_BLOCK_OFFSET, SEMAPHORE_WINDOWS } from "../spec/udma-regs.js";

/** 8 TPB regions then 16 TopSP regions populate 24 of the 32 embedded-semaphore regions (seed 003 §4). */
export const TPB_COUNT = 8;
export const TOP_SP_COUNT = 16;

/** MODEL: TPB i's aperture base. */
export const TPB_APERTURE_BASE = 0x1_0000_0000n;
/** MODEL: TopSP j's aperture base. */
export const TOP_SP_APERTURE_BASE = 0x2_0000_0000n;
/** MODEL: bytes between consecutive TPB / TopSP apertures. */
export const APERTURE_STRIDE = 0x1000_0000n;

/** The semaphore-increment window of an aperture: + event block (0x2700000) + 0x1800 (GROUND_TRUTH). */
export const EVT_SEM_INC_OFFSET = EVENT_BLOCK_OFFSET + SEMAPHORE_WINDOWS.increment;

function checked(func: string, i: number, count: number): bigint {
  if (!Number.isInteger(i) || i < 0 || i >= count)
    throw new SdmaAbortError(func, `index < ${count} (index ${i})`);
  return BigInt(i);
}

/** libnrt aws_hal_get_tpb_base (MODEL address). @throws SdmaAbortError for i outside 0..7. */
export function tpbBase(i: number): bigint {
  return TPB_APERTURE_BASE + checked("aws_hal_get_tpb_base", i, TPB_COUNT) * APERTURE_STRIDE;
}

/** TopSP j's aperture base (MODEL). @throws SdmaAbortError for j outside 0..15. */
export function topSpBase(j: number): bigint {
  return TOP_SP_APERTURE_BASE + checked("aws_hal_get_top_sp_base", j, TOP_SP_COUNT) * APERTURE_STRIDE;
}

/** libnrt aws_hal_get_tpb_evt_sem_inc_base: TPB i's semaphore-increment window (MODEL base). */
export function tpbEvtSemIncBase(i: number): bigint {
  return tpbBase(i) + EVT_SEM_INC_OFFSET;
}

/** libnrt aws_hal_get_top_sp_evt_sem_inc_base: TopSP j's semaphore-increment window (MODEL base). */
export function topSpEvtSemIncBase(j: number): bigint {
  return topSpBase(j) + EVT_SEM_INC_OFFSET;
}
