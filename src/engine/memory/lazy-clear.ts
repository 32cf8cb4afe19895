/**
 * Clearing reused pages lazily. A page taken from a released memory's arena (page-arenas.ts) may
 * still hold that memory's bytes, and a page pre-filled whole reads as its byte; clearing or filling
 * all of it when it is first written costs as much as a copy of it, only for the writes that follow
 * to cover most of it again (inputs written tile after tile; the packets of a copy, four channels
 * interleaved 64 KiB apart).
 *
 * So a page keeps the spans of it written since (`spans`): bytes of [0, end) outside them still
 * have to be set to `byte`, and are set only when a read or a view reaches them; a write just adds
 * its span. "A page handed out reads as zero (or as its fill byte)" stays exactly true at every
 * access. A page whose spans grow past {@link MAX_SPANS} (a scattered pattern) is set whole at once.
 */

import { fillBytes } from "./fill-bytes.js";

/** The most disjoint written spans tracked on a page before it is set whole. */
export const MAX_SPANS = 64;

/**
 * The most reads of a page while it is tracked before it is set whole. A page read again and again
 * in small pieces (the descriptor rings: every post and every fetch reads a slot's span, and the
 * rings never cover the page) would otherwise pay the span bookkeeping at each access, a run long;
 * setting it once costs one page's fill, after that many reads.
 */
export const MAX_READS = 64;

interface Unset {
  /** Disjoint written spans, sorted, as flat [from, to) pairs; never touching (merged). */
  readonly spans: number[];
  /** Bytes [end, page size) read right already (a reused block is dirty only up to there). */
  readonly end: number;
  /** What the stale bytes must read as. */
  readonly byte: number;
  /** Reads ({@link LazyClear.settle}) of the page since it was tracked. */
  reads: number;
}

export class LazyClear {
  /** Pages with bytes still to set, by page number. */
  private readonly unset = new Map<number, Unset>();

  /** `onSet` is told each page whose stale bytes are all set (it leaves the tracked pages). */
  constructor(private readonly onSet?: (pageNo: number) => void) {}

  /** Whether page `pageNo` still has stale bytes (it is tracked). */
  tracks(pageNo: number): boolean {
    return this.unset.size > 0 && this.unset.has(pageNo);
  }

  /** Page `pageNo` holds stale bytes in [0, end) that must read as `byte` until written. */
  track(pageNo: number, byte: number, end: number): void {
    if (end > 0) this.unset.set(pageNo, { spans: [], end, byte, reads: 0 });
  }

  /** Before reading (or handing out a view of) [from, to) of `page`: set what is still stale there. */
  settle(pageNo: number, page: Uint8Array, from: number, to: number): void {
    if (this.unset.size === 0) return;
    const u = this.unset.get(pageNo);
    if (u === undefined) return;
    if (++u.reads > MAX_READS) this.cover(pageNo, u, page, 0, u.end, true);
    else this.cover(pageNo, u, page, from, to, true);
  }

  /** [from, to) of the page is being written whole: nothing there needs setting any more. */
  written(pageNo: number, page: Uint8Array, from: number, to: number): void {
    if (this.unset.size === 0) return;
    const u = this.unset.get(pageNo);
    if (u !== undefined) this.cover(pageNo, u, page, from, to, false);
  }

  /** Set every page's stale bytes now (`pageOf`: the page of a page number): nothing is left owed. */
  settleAll(pageOf: (pageNo: number) => Uint8Array): void {
    for (const [pageNo, u] of [...this.unset]) this.cover(pageNo, u, pageOf(pageNo), 0, u.end, true);
  }

  /** Forget every page (the memory is released). */
  clear(): void {
    this.unset.clear();
  }

  /**
   * Add [from, to) to the page's spans, merging those it overlaps or touches; with `setStale`,
   * first set the bytes of [from, to) no span covers. The page is forgotten once [0, end) is covered, or
   * set whole once its spans pass MAX_SPANS.
   */
  private cover(
    pageNo: number,
    u: Unset,
    page: Uint8Array,
    from: number,
    to: number,
    setStale: boolean,
  ): void {
    const s = u.spans;
    const n = s.length;
    // The common case first: a write that runs on from the last span (tiles, packets in order).
    if (!setStale && n > 0 && (s[n - 2] as number) <= from && from <= (s[n - 1] as number)) {
      if (to > (s[n - 1] as number)) s[n - 1] = to;
      if (n === 2 && (s[0] as number) <= 0 && (s[1] as number) >= u.end) this.untrack(pageNo);
      return;
    }
    let i = 0;
    while (i < s.length && (s[i + 1] as number) < from) i += 2;
    let j = i;
    let lo = from;
    let hi = to;
    let at = from;
    while (j < s.length && (s[j] as number) <= to) {
      if (setStale) this.set(page, u, at, s[j] as number);
      at = Math.max(at, s[j + 1] as number);
      lo = Math.min(lo, s[j] as number);
      hi = Math.max(hi, s[j + 1] as number);
      j += 2;
    }
    if (setStale) this.set(page, u, at, to);
    if (j - i === 2) {
      s[i] = lo; // one span grown in place (no array for splice to return)
      s[i + 1] = hi;
    } else s.splice(i, j - i, lo, hi);
    if ((s[0] as number) <= 0 && (s[1] as number) >= u.end) this.untrack(pageNo);
    else if (s.length > 2 * MAX_SPANS) this.cover(pageNo, u, page, 0, u.end, true);
  }

  /** Every stale byte of page `pageNo` is set: it is tracked no more. */
  private untrack(pageNo: number): void {
    this.unset.delete(pageNo);
    this.onSet?.(pageNo);
  }

  /** Set the stale bytes of [from, to) (those below `end`) to the page's byte. */
  private set(page: Uint8Array, u: Unset, from: number, to: number): void {
    const t = Math.min(to, u.end);
    if (from < t) fillBytes(page, u.byte, from, t);
  }
}
