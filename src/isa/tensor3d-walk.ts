/**
 * Walking a TENSOR3D access pattern (seed 002 §3): for each dimension d, num_elem[d] steps of
 * step_elem[d] elements. MODEL: dimension 0 is the innermost (fastest) loop.
 */
import type { Tensor3d } from "./s3d3-word.js";

/**
 * The element offsets (in elements, from the start address) the pattern visits, in order.
 * @example tensor3dElementOffsets({ ..., "step_elem.0": 1, "step_elem.1": 8, "num_elem.0": 2, "num_elem.1": 2, "num_elem.2": 1 }) // [0, 1, 8, 9]
 */
export function tensor3dElementOffsets(t: Tensor3d): number[] {
  const [n0, n1, n2] = [t["num_elem.0"], t["num_elem.1"], t["num_elem.2"]];
  const [s0, s1, s2] = [t["step_elem.0"], t["step_elem.1"], t["step_elem.2"]];
  const out: number[] = [];
  for (let k = 0; k < n2; k++)
    for (let j = 0; j < n1; j++) for (let i = 0; i < n0; i++) out.push(i * s0 + j * s1 + k * s2);
  return out;
}

/** A byte range both sides of a move see as contiguous. */
export interface MoveSegment {
  /** Byte offset from the source start. */
  readonly srcOffset: number;
  /** Byte offset from the destination start. */
  readonly dstOffset: number;
  readonly bytes: number;
}

/**
 * Pair the source and destination element offsets in order and merge runs that are contiguous on
 * both sides: the fewest (src, dst, bytes) copies that move the pattern.
 */
export function moveSegments(
  srcElems: readonly number[],
  dstElems: readonly number[],
  elemBytes: number,
): MoveSegment[] {
  const out: MoveSegment[] = [];
  let cur: { srcOffset: number; dstOffset: number; bytes: number } | undefined;
  for (let i = 0; i < srcElems.length; i++) {
    const s = (srcElems[i] as number) * elemBytes;
    const d = (dstElems[i] as number) * elemBytes;
    if (cur !== undefined && cur.srcOffset + cur.bytes === s && cur.dstOffset + cur.bytes === d)
      cur.bytes += elemBytes;
    else {
      if (cur !== undefined) out.push(cur);
      cur = { srcOffset: s, dstOffset: d, bytes: elemBytes };
    }
  }
  if (cur !== undefined) out.push(cur);
  return out;
}
