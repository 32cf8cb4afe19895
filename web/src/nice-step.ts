/** A round axis step (1, 2 or 5 × a power of ten) giving about `n` ticks over a span. */
export function niceStep(span: number, n: number): number {
  const raw = span / n;
  const p = 10 ** Math.floor(Math.log10(raw));
  return ([1, 2, 5, 10].find((m) => m * p >= raw) ?? 10) * p;
}
