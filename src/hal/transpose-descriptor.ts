/**
 * The al_sdma M2S transpose descriptor and its meta_ctrl (seed 003 §3): dtype check, the
 * transpose-only dimension gate, word0 = elem | 0x800000 | a2 << 24, word1 = the transpose meta,
 * words 2..3 = the dims, published as 16 bytes (al_copy_descriptor = memcpy).
 */
import { type Einval, einval, FieldError } from "../bits/errors.js";
import { DATA_TYPE_SIZES } from "../spec/dtype.js";
import { TRANSPOSE_DESC } from "../spec/layouts/descriptors.js";
import { TRANSPOSE_META } from "../spec/layouts/meta-ctrl.js";

export interface TransposeDims {
  readonly w: number;
  readonly x: number;
  readonly y: number;
  readonly z: number;
}

/**
 * The data_type_sizes check shared by both transpose builders: dtype 1..15 → element bytes, else
 * the seed's "Invalid dtype %u passed" -EINVAL.
 */
export function transposeElemBytes(dtype: number): number | Einval {
  if (!Number.isInteger(dtype) || dtype - 1 < 0 || dtype - 1 > 0xe)
    return einval(`Invalid dtype ${dtype} passed`);
  return DATA_TYPE_SIZES[dtype] as number;
}

/**
 * libnrt al_sdma_m2s_build_transpose_meta_ctrl @0x451980, seed 003 §3:
 * (elem & 0x1F) | (shape_idx > 1 ? 0x20 : 0) | shape_idx << 8 | (dtype & 0xF) << 16 | 0x900000.
 * @throws FieldError when shape_idx does not fit 8 bits.
 */
export function buildTransposeMetaCtrl(elem: number, dtype: number, shapeIdx: number): number {
  const bytes = TRANSPOSE_META.encode(transposeMetaFields(elem, dtype, shapeIdx));
  return new DataView(bytes.buffer).getUint32(0, true);
}

/** The transpose-meta field values of the meta_ctrl formula (shared by the meta word and W1). */
function transposeMetaFields(elem: number, dtype: number, shapeIdx: number) {
  // libnrt masks elem and dtype to their fields' widths (& 0x1F, & 0xF); the widths come from the layout.
  const low = (name: "elem" | "dtype", v: number) => (v >>> 0) % 2 ** TRANSPOSE_META.leaf(name).width;
  return {
    elem: low("elem", elem),
    multi_shape: shapeIdx > 1,
    shape_idx: shapeIdx,
    dtype: low("dtype", dtype),
  };
}

/**
 * stride_map[] (.rodata @0x9e7fc0) — not in the seed. MODEL: one limit per shape index, using the
 * seed's constants (<< 9, >> 5, >> 10, 0x401) as the per-shape caps of one dim each.
 */
export const STRIDE_MAP: readonly { readonly dim: keyof TransposeDims; readonly max: number }[] = [
  { dim: "x", max: 1 << 9 },
  { dim: "y", max: 0x4000 >> 5 },
  { dim: "z", max: 0x4000 >> 10 },
  { dim: "w", max: 0x401 - 1 },
];
/** The element budget of one transpose before the size-class shift (seed: 0x4000 >> popcount_class). */
export const TRANSPOSE_ELEMENT_BUDGET = 0x4000;

/**
 * libnrt verify_transpose_dimensions @0x451690, seed 003 §3 (limits MODEL, see STRIDE_MAP): every dim
 * nonzero; w·x·y·z ≤ 0x4000 >> class, class = popcount(elem − 1) (log2 of the element size); the
 * shape's own cap. Transpose-only: the other ops carry their caps in al_sdma_m2m_validate_op.
 * @returns 0 when valid, 1 otherwise (the libnrt int result).
 */
export function verifyTransposeDimensions(elem: number, dims: TransposeDims, shapeIdx: number): number {
  const { w, x, y, z } = dims;
  if (![w, x, y, z].every((d) => Number.isInteger(d) && d >= 1)) return 1;
  const sizeClass = popcount(elem - 1);
  if (w * x * y * z > TRANSPOSE_ELEMENT_BUDGET >> sizeClass) return 1;
  const limit = STRIDE_MAP[shapeIdx];
  if (limit === undefined || dims[limit.dim] > limit.max) return 1;
  return 0;
}

function popcount(v: number): number {
  let n = 0;
  for (let x = v >>> 0; x !== 0; x &= x - 1) n++;
  return n;
}

/** The matrix a transpose descriptor moves: its dims and the STRIDE_MAP shape it is checked against. */
export interface TransposeShape {
  readonly dims: TransposeDims;
  readonly shapeIdx: number;
}

/**
 * libnrt al_sdma_m2s_build_transpose_descriptor @0x4519a0, seed 003 §3: writes the 16-byte
 * descriptor at the start of `slot` (the seed's descriptor pointer: a view of the ring slot).
 * `a2` is the ring / queue byte (word0 bits 31:24).
 * @returns 0, or -EINVAL with the seed's message ("Invalid dtype %u passed" / "invalid matrix
 *   dimensions ...") and nothing written.
 * @throws FieldError when a2 or a dim does not fit its field.
 * @example buildTransposeDescriptor(ring.subarray(at), 0x15, BF16, { dims: { w: 1, x: 4, y: 8, z: 1 }, shapeIdx: 0 })
 */
export function buildTransposeDescriptor(
  slot: Uint8Array,
  a2: number,
  dtype: number,
  shape: TransposeShape,
): 0 | Einval {
  const { dims, shapeIdx } = shape;
  const elem = transposeElemBytes(dtype);
  if (typeof elem !== "number") return elem;
  if (verifyTransposeDimensions(elem, dims, shapeIdx) !== 0) {
    return einval(
      `invalid matrix dimensions w_dim ${dims.w} x_dim ${dims.x} y_dim ${dims.y} z_dim ${dims.z}`,
    );
  }
  if (!Number.isInteger(a2) || a2 < 0 || a2 > 0xff)
    throw new FieldError("transpose-desc", "meta_idx", a2, "0..255");
  const meta = transposeMetaFields(elem, dtype, shapeIdx);
  const bytes = TRANSPOSE_DESC.encode({
    wb: elem,
    meta_idx: a2,
    "meta.elem": meta.elem,
    "meta.multi_shape": meta.multi_shape,
    "meta.shape_idx": meta.shape_idx,
    "meta.dtype": meta.dtype,
    w_dim: dims.w,
    x_dim: dims.x,
    y_dim: dims.y,
    z_dim: dims.z,
  });
  slot.set(bytes);
  return 0;
}
