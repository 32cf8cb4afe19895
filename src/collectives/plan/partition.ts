/**
 * Splitting element ranges. Boundaries fall on 32-byte multiples (relative to the range start) so
 * every piece but the last is a whole number of 32-byte granules, the granularity of
 * encd_get_cce_reduce_packet_size (seed 000 §7.1); the last piece carries the remainder, so any
 * element count, odd ones included, is covered exactly once.
 */

/** A half-open element range [start, start + count). */
export interface ElemRange {
  readonly start: number;
  readonly count: number;
}

/** A piece of a range and the DMA channel (queue) it runs on. */
export interface Sub {
  readonly range: ElemRange;
  readonly queue: number;
}

/** The reduce packet granularity in bytes (seed 000 §7.1: `pkt & ~0x1F`). */
export const GRANULE_BYTES = 32;

/**
 * Split `range` into `parts` consecutive ranges as even as 32-byte granules allow; some may be
 * empty when the range is small.
 * @example splitRange({ start: 0, count: 100 }, 2, 2); // [{0,48}, {48,52}] (16-element granules)
 */
export function splitRange(range: ElemRange, parts: number, elemBytes: number): ElemRange[] {
  const granule = Math.max(1, Math.floor(GRANULE_BYTES / elemBytes));
  const granules = Math.floor(range.count / granule);
  const out: ElemRange[] = [];
  let prev = 0;
  for (let k = 1; k <= parts; k++) {
    const end = k === parts ? range.count : Math.floor((k * granules) / parts) * granule;
    out.push({ start: range.start + prev, count: end - prev });
    prev = end;
  }
  return out;
}
