/**
 * Stochastic rounding's random words for a stream just seeded, drawn once per seed. The engine
 * reseeds a queue's SR stream from the seed-init descriptor of every SR packet, and a queue's
 * packets carry its one seed (collectives: queueSeed), so packet after packet draws the same first
 * words. Stepped in the kernel (`<op>2_<dt>_sr`) that draw cost more than the reduce itself
 * (≈ 2× a whole-array SR reduce per 2048-element packet); drawn here once per (seed, count) and
 * handed to the kernel that reads its words from memory (`<op>2_<dt>_srw`, as sr-lanes.ts does),
 * a packet costs the reduce alone. The words and the state after them are those of the stream
 * stepped `count` times, so the bytes and the stream's state are the same.
 *
 * An arena whose owner reserves a block for them ({@link reserveSrWords}: device memory does, in
 * its reduce scratch) keeps a seed's words there, so the packets of a queue read them in place:
 * copied into the arena only when the seed changes or a packet wants more of them (copied into
 * scratch every packet, with the call's argument arrays, they took ≈ 6 % of an SR engine run in
 * the profile: bench/engine.bench.ts's SR row).
 */
import { SrStream } from "../sr-stream.js";
import { BufferTag } from "./buffer-tag.js";

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
/** The last span looked up, in place (no object a miss): a queue's packets ask for it again and again. */
let lastSeed = Number.NaN;
let lastCount = Number.NaN;
let lastSpan: SeedSpan | undefined;

/**
 * The first `count` (≤ {@link SR_WORDS_MAX}) words of the stream seeded with `seed`, and its state
 * after them: drawn on the first call for the pair, then kept.
 * @example seedSpan(7, 2048).words[0] === new SrStream(7).nextU32(); // true
 */
export function seedSpan(seed: number, count: number): SeedSpan {
  if (lastSpan !== undefined && lastSeed === seed && lastCount === count) return lastSpan;
  lastSpan = lookUp(seed, count);
  lastSeed = seed;
  lastCount = count;
  return lastSpan;
}

/** {@link seedSpan} through the cache of every pair. */
function lookUp(seed: number, count: number): SeedSpan {
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

/** Bytes an arena reserves for its resident words ({@link reserveSrWords}): the longest span's. */
export const SR_WORDS_BYTES = 4 * SR_WORDS_MAX;

/** An arena's resident words: the first `held` words of seed `seed`'s stream (none held: 0). */
interface Resident {
  readonly words: Uint32Array;
  seed: number;
  held: number;
}

/** Each arena's buffer carries its resident words' block, when its owner reserved one. */
const RESIDENT = new BufferTag<Resident>("sdmakit SR words");

/**
 * Reserve {@link SR_WORDS_BYTES} of `buffer` (an arena's) at `byteOffset` (a multiple of 16) for
 * the resident words of SR reduces in it: nothing else may write there.
 */
export function reserveSrWords(buffer: ArrayBufferLike, byteOffset: number): void {
  RESIDENT.set(buffer, { words: new Uint32Array(buffer, byteOffset, SR_WORDS_MAX), seed: 0, held: 0 });
}

/**
 * The byte offset in `buffer` where the first words of `span` (the stream seeded with `seed`)
 * lie, copied there unless they already do; undefined when the arena reserved no block.
 */
export function residentWords(buffer: ArrayBufferLike, seed: number, span: SeedSpan): number | undefined {
  const r = RESIDENT.get(buffer);
  if (r === undefined) return undefined;
  const count = span.words.length;
  if (r.seed !== seed || r.held < count) {
    r.words.set(span.words);
    r.seed = seed;
    r.held = count;
  }
  return r.words.byteOffset;
}
