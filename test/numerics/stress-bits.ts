// Shared test inputs for the fast kernels.
import { SrStream } from "../../src/numerics/index.js";

/** FP32 bit patterns that stress bf16 rounding: random words plus every bf16 code's neighbourhood. */
export function bf16StressBits(): Uint32Array {
  const rng = new SrStream(2024);
  const words: number[] = [];
  for (let i = 0; i < 200_000; i++) words.push(rng.nextU32());
  for (let code = 0; code < 0x10000; code++) {
    const base = code << 16;
    // the code itself, halfway (a tie), halfway ± 1, and one below the next code
    for (const d of [0, 0x8000, 0x7fff, 0x8001, 0xffff]) words.push((base + d) >>> 0);
  }
  for (const w of [
    0x7f800000, 0xff800000, 0x7f800001, 0xffc00000, 0x7f7fffff, 0x7f7f8000, 0x7f7f7fff, 0, 0x80000000, 1,
    0x80000001,
  ]) {
    words.push(w);
  }
  return Uint32Array.from(words);
}
