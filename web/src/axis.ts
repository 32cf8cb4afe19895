/** Axis arithmetic shared by the plot and the timeline: pure, so it is tested without a page. */

/** A round axis step (1, 2 or 5 × a power of ten) giving about `n` ticks over a span. */
export function niceStep(span: number, n: number): number {
  const raw = span / n;
  const p = 10 ** Math.floor(Math.log10(raw));
  return ([1, 2, 5, 10].find((m) => m * p >= raw) ?? 10) * p;
}

/**
 * A tick's label with as many decimals as its step needs: a fixed two decimals labelled the
 * 0.005 step of an empty plot "0, 0.01, 0.01".
 */
export function tickLabel(v: number, step: number): string {
  const decimals = Math.max(0, -Math.floor(Math.log10(step) + 1e-9));
  return String(+v.toFixed(decimals));
}

/**
 * The log2 span of a size axis over `sizes` (ascending): the sizes' own span, and an octave either
 * side of a single size so its point sits mid-plot rather than on the edge; 8 B … 1 KiB when empty.
 */
export function log2Span(sizes: readonly number[]): { lo: number; hi: number } {
  if (sizes.length === 0) return { lo: 3, hi: 10 };
  const lo = Math.log2(Math.max(1, sizes[0] as number));
  const hi = Math.log2(Math.max(1, sizes[sizes.length - 1] as number));
  return hi > lo ? { lo, hi } : { lo: lo - 1, hi: lo + 1 };
}
