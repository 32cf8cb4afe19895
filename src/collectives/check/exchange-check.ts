/**
 * The check of an exchange collective (plan/exchange.ts): every output element must hold, bit for
 * bit, the input element its block names — whatever the bits (a copy moves NaN payloads and
 * signed zeros untouched) — and every output element no block writes its pre-fill. Tile by tile,
 * reading the device's buffers in place.
 */
import { decodeToF32 } from "../../numerics/index.js";
import { type Dtype, dtypeBytes } from "../../spec/dtype.js";
import { type BufferReader, OUTPUT_FILL } from "../device/buffer-layout.js";
import type { ExchangeGeometry } from "../plan/exchange.js";
import { CHECK_KERNELS_TILE as CHECK_TILE } from "./check-kernels.js";
import { countWrong, maxAbsError, type OutputCheck } from "./compare.js";

/** A stretch of a rank's output: from a source's input, or (src undefined) the pre-fill. */
interface Stretch {
  readonly src: number | undefined;
  readonly srcElem: number;
  readonly dstElem: number;
  readonly count: number;
}

/** Rank `dst`'s output as stretches in element order, the gaps between blocks included. */
function stretchesOf(geometry: ExchangeGeometry, dst: number): Stretch[] {
  const blocks: Stretch[] = [];
  geometry.forEachReceive(dst, (src, srcElem, dstElem, count) => {
    if (count > 0) blocks.push({ src, srcElem, dstElem, count });
  });
  blocks.sort((a, b) => a.dstElem - b.dstElem);
  const out: Stretch[] = [];
  let at = 0;
  for (const b of [...blocks, { src: undefined, srcElem: 0, dstElem: geometry.output, count: 0 }]) {
    if (b.dstElem > at) out.push({ src: undefined, srcElem: 0, dstElem: at, count: b.dstElem - at });
    if (b.count > 0) out.push(b);
    at = b.dstElem + b.count;
  }
  return out;
}

/** Every rank's output against its blocks' sources and the pre-fill. */
export function checkExchange(
  dtype: Dtype,
  ranks: number,
  geometry: ExchangeGeometry,
  read: BufferReader,
): OutputCheck {
  const eb = dtypeBytes(dtype);
  const want = new Uint8Array(CHECK_TILE * eb);
  const f32 = new Float32Array(CHECK_TILE);
  const exact = new Float64Array(CHECK_TILE);
  let wrong = 0;
  let maxAbsErr = 0;
  for (let dst = 0; dst < ranks; dst++) {
    for (const s of stretchesOf(geometry, dst)) {
      for (let done = 0; done < s.count; done += CHECK_TILE) {
        const len = Math.min(CHECK_TILE, s.count - done);
        const expected = want.subarray(0, len * eb);
        if (s.src === undefined) expected.fill(OUTPUT_FILL);
        else expected.set(read(s.src, "input", s.srcElem + done, len));
        const actual = read(dst, "output", s.dstElem + done, len);
        const bad = countWrong(actual, expected, dtype);
        wrong += bad;
        if (bad > 0 && s.src !== undefined) {
          decodeToF32(dtype, expected, 0, len, f32, 0);
          for (let i = 0; i < len; i++) exact[i] = f32[i] as number;
          maxAbsErr = Math.max(maxAbsErr, maxAbsError(actual, dtype, exact.subarray(0, len), f32));
        }
      }
    }
  }
  return { wrong, maxAbsErr };
}
