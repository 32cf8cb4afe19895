/**
 * Stochastic rounding's random words for a stream just seeded, drawn once per seed. The engine
 * reseeds a queue's SR stream from the seed-init descriptor of every SR packet, and a queue's
 * packets carry its one seed (collectives: queueSeed), so packet after packet draws the same first
 * words. Stepped in the kernel (`<op>2_<dt>_sr`) that draw cost more than the reduce itself
 * (≈ 2× a whole-array SR reduce per 2048-element packet); drawn here once per (seed, count) and
 * handed to the kernel that reads its words from memory (`<op>2_<dt>_srw`, as sr-lanes.ts does),
 * a packet costs the reduce alone. The words and the state after them are those of the stream
 * stepped `count` times, so the bytes and the stream's state are the same.
 */
import { SrStream } from "../sr-stream.js";

/** The longest span served: a few engine packets (≤ 2048 elements each); longer spans use lanes. */
export const SR_WORDS_MAX = 8192;
/** (seed, count) spans kept before the cache starts over: 4096 × ≤ 32 KiB. */
const MAX_SPANS = 4096;

/** The first `count` words from a seed, and the stream's state after them. */
export interface SeedSpan {
  readonly words: Uint32Array;
  readonly end: Uint32Array;
}

const spans = new Map<number, Map<number, SeedSpan>>();
let kept = 0;

/**
 * The first `count` (≤ {@link SR_WORDS_MAX}) words of the stream seeded with `seed`, and its state
 * after them: drawn on the first call for the pair, then kept.
 * @example seedSpan(7, 2048).words[0] === new SrStream(7).nextU32(); // true
 */
export function seedSpan(seed: number, count: number): SeedSpan {
  let bySeed = spans.get(seed);
  const hit = bySeed?.get(count);
  if (hit !== undefined) return hit;
  if (kept >= MAX_SPANS) {
    spans.clear();
    kept = 0;
    bySeed = undefined;
  }
  if (bySeed === undefined) {
    bySeed = new Map();
    spans.set(seed, bySeed);
  }
  const rng = new SrStream(seed);
  const words = new Uint32Array(count);
  rng.fillU32(words, count);
  const span = { words, end: Uint32Array.from(rng.stateWords()) };
  bySeed.set(count, span);
  kept++;
  return span;
}
