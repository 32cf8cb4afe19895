/**
 * Stochastic rounding's random words drawn four at a time. The SR stream is one xoshiro128**
 * sequence, element i taking word i, and a step needs the one before it: stepped in the kernel
 * (`<op>2_<dt>_sr`) it costs more than the reduce itself. A long span is cut in four segments of
 * Q elements (Q a multiple of a lane block); lane k starts at the stream jumped k · Q words ahead
 * (sr-jump.ts), and block by block the four lanes draw their segments' next words into memory in
 * one SIMD pass (kernels.wat sr_words), which the kernel reads (`<op>2_<dt>_srw`): the same words
 * as the stream in the kernel, so the same bytes, and lane 3 ends where the stream would.
 */
import { jumpAhead } from "../sr-jump.js";
import type { SrStream } from "../sr-stream.js";
import type { Kernel, Kernels } from "./kernels.js";

/** Words a lane draws a block (the scratch holds the four lanes' states and a block of each). */
const LANE_WORDS = 2048;
/** Bytes of scratch the lanes need. */
const SCRATCH_BYTES = 64 + 4 * 4 * LANE_WORDS;
/**
 * The shortest span drawn in lanes: jumping three lanes costs up to ≈ 0.1 ms, what the lanes save
 * on ≈ 0.2 Mi elements.
 */
export const SR_LANES_MIN = 1 << 20;

/**
 * A two-source SR kernel's arguments (byte addresses, element count and width, FMA's scales, the
 * overflow codes): one record filled a call (kernels.ts), not an array made a packet.
 */
export interface TwoSrCall {
  aAt: number;
  bAt: number;
  outAt: number;
  count: number;
  width: number;
  fma: boolean;
  scale0: number;
  scale1: number;
  overflowCode: number;
  infCode: number;
}

/**
 * `kernel` over elements [from, from + n) of the call: a `_sr` kernel (the stream in its globals),
 * or, given `wordsAt`, a `_srw` kernel reading one random word an element from there.
 */
export function callTwoSr(kernel: Kernel, c: TwoSrCall, from: number, n: number, wordsAt?: number): void {
  const at = from * c.width;
  const a = c.aAt + at;
  const b = c.bAt + at;
  const out = c.outAt + at;
  if (wordsAt === undefined) {
    if (c.fma) kernel(a, b, out, n, c.scale0, c.scale1, c.overflowCode, c.infCode);
    else kernel(a, b, out, n, c.overflowCode, c.infCode);
  } else if (c.fma) kernel(a, b, out, n, c.scale0, c.scale1, c.overflowCode, c.infCode, wordsAt);
  else kernel(a, b, out, n, c.overflowCode, c.infCode, wordsAt);
}

/** Whether a span of `count` elements is drawn in lanes, `scratch` (in the kernels' arena) holding them. */
export function srLanesServe(k: Kernels, count: number, scratch: Float32Array | undefined): boolean {
  return (
    count >= SR_LANES_MIN &&
    scratch !== undefined &&
    scratch.buffer === k.buffer &&
    scratch.byteLength >= SCRATCH_BYTES
  );
}

/**
 * Run the four segments of a two-source SR reduce (the call `c`) through the lanes (`kernel`: the
 * `_srw` kernel; {@link srLanesServe} said yes); returns the elements done, from the first. The
 * stream's state moves past the words used.
 */
export function srLaneSegments(
  k: Kernels,
  kernel: Kernel,
  sr: SrStream,
  c: TwoSrCall,
  scratch: Float32Array,
): number {
  const q = Math.floor(c.count / (4 * LANE_WORDS)) * LANE_WORDS;
  const lanesAt = scratch.byteOffset;
  const wordsAt = lanesAt + 64;
  const lanes = new Uint32Array(k.buffer, lanesAt, 16);
  const s = Uint32Array.from(sr.stateWords());
  for (let lane = 0; lane < 4; lane++) {
    for (let i = 0; i < 4; i++) lanes[4 * i + lane] = s[i] as number;
    if (lane < 3) jumpAhead(s, q);
  }
  for (let from = 0; from < q; from += LANE_WORDS) {
    k.srWords(lanesAt, wordsAt, LANE_WORDS);
    for (let lane = 0; lane < 4; lane++)
      callTwoSr(kernel, c, lane * q + from, LANE_WORDS, wordsAt + 4 * lane * LANE_WORDS);
  }
  // Lane 3 ends where the stream leaves word 4q.
  const state = sr.stateWords();
  for (let i = 0; i < 4; i++) state[i] = lanes[4 * i + 3] as number;
  return 4 * q;
}
