/**
 * The CAYMAN SBUF transpose (seed 003 §2): a UDMA M2M copy whose to-descriptors carry a packed SBUF
 * partition / offset address, and the one-descriptor flush that fences it. CAYMAN-only in libnrt
 * (its caller, vring_add_dma_packet_transpose, is on the CAYMAN path); the builders take no arch.
 *
 * What the bytes mean, for the engine (the packing is the seed's; the reading is MODEL, see
 * docs/FIDELITY.md "CAYMAN transpose: what the engine executes"):
 *   TX i: udma-tx, length = from[i].len, buf_ptr = from[i].addr, meta_ctrl = the transpose meta
 *         (op 1 / optype 1, the DRE class: elem, dtype, shape 0) — marks the packet as a transpose.
 *   RX i: udma-rx, length = to[i].len, buf2_ptr_lo = the control word v51, buf1_ptr = window base +
 *         packed, packed = lowbyte | win_off << 8 | (partition + pbase) << 26 [| bit 34 for elem 4].
 *   Element k of row i (bytes k·elem ..) is written to SBUF partition (partition + pbase + k) at
 *   in-partition offset win_off of the window, for k < cols.
 */
import { type Einval, einval, FieldError } from "../bits/errors.js";
import { wordAt } from "../bits/hex.js";
import { CAYMAN_TRANSPOSE_CTRL } from "../spec/layouts/cayman-transpose.js";
import { UDMA_RX, UDMA_TX } from "../spec/layouts/udma.js";
import { INITIAL_RING_PHASE, MAX_DESCRIPTOR_BYTES } from "../spec/packet-model.js";
import { DEFAULT_COPY_META, SBUF_PARTITION_SHIFT, SBUF_WINDOW_BYTES, SBUF_WINDOWS } from "../spec/tables.js";
import { tpbBase } from "./tpb-address-map.js";
import { buildTransposeMetaCtrl, transposeElemBytes } from "./transpose-descriptor.js";

export interface DmaBuffer {
  readonly addr: bigint;
  readonly len: number;
}

export interface CaymanTransposeRequest {
  readonly dtype: number;
  /** Columns of a source row = partitions one row spreads over: 1..16 ((cols − 1) & 0xF). */
  readonly cols: number;
  /** The seed's `dir` argument: HIBYTE(v51) = 2·dir (0..127). */
  readonly dir: number;
  /** The seed's `ctrl` (v51 bits 23:4; name MED). */
  readonly ctrl: number;
  /** The seed's a2: byte 6 carries the partition base. */
  readonly a2: bigint;
  /** The transpose op, quoted by the unsupported-shape message. */
  readonly op: number;
  /** W and Z dims: CAYMAN supports 2-D only, so anything but 1 is "currently unsupported". */
  readonly wDim: number;
  readonly zDim: number;
  readonly from: readonly DmaBuffer[];
  readonly to: readonly DmaBuffer[];
  /** The ring phase written into every descriptor's ring_id (default 1). */
  readonly ringPhase?: number;
}

export interface DmaPacket {
  /** k M2S descriptors (udma-tx), 16 bytes each. */
  readonly tx: Uint8Array;
  /** k S2M descriptors (udma-rx), 16 bytes each. */
  readonly rx: Uint8Array;
}

/** Where an address sits among the SBUF windows: the window base and the offset in it. */
export interface SbufHit {
  readonly base: bigint;
  readonly rel: bigint;
}

/** The window test of seed 003 §2: the first BASE with (pa − BASE) ≤ 0x1FFFFFF as unsigned. */
export function classifySbuf(pa: bigint): SbufHit | undefined {
  for (const base of SBUF_WINDOWS) {
    if (pa >= base && pa - base <= BigInt(SBUF_WINDOW_BYTES - 1)) return { base, rel: pa - base };
  }
  return undefined;
}

const COLS_M1 = CAYMAN_TRANSPOSE_CTRL.field("cols_m1");

/**
 * v51 = ((cols − 1) & 0xF) | 16·ctrl, HIBYTE (bits 31:24) = 2·dir (seed 003 §2; 32-bit MODEL),
 * through its layout (spec/layouts/cayman-transpose.ts).
 * @throws FieldError when cols is not 1..16, ctrl not 20 bits or dir not 0..127.
 */
export function transposeControlWord(cols: number, ctrl: number, dir: number): number {
  return wordAt(CAYMAN_TRANSPOSE_CTRL.encode({ cols_m1: cols - 1, ctrl, dir }), 0);
}

/** The column count a v51 word carries (the inverse of {@link transposeControlWord} for cols). */
export function transposeControlCols(v51: number): number {
  return COLS_M1.ofWord(v51) + 1;
}

/** Where a packed to-address points inside its window ({@link packTransposeAddress} reversed). */
export interface TransposeTarget {
  readonly partition: number;
  readonly offset: number;
}

/**
 * Unpack the in-window part of a to-address (`addr` minus its window base). For elem 4 the +0x80
 * is inferred from the partition (added iff P > 0x3F) and undone, carry included (MODEL,
 * docs/FIDELITY.md). @returns undefined when the partition runs past 0xFF.
 */
export function unpackTransposeAddress(packed: bigint, elem: number): TransposeTarget | undefined {
  let p = packed;
  let partition = Number((p >> 26n) & 0xffn);
  if (elem === 4 && partition > 0x3f) {
    p -= 0x80n;
    partition = Number((p >> 26n) & 0xffn);
  } else if (elem !== 4 && (p >> 26n) & ~0xffn) {
    return undefined;
  }
  return { partition, offset: Number((p >> 8n) & 0x3ffffn) };
}

/**
 * The packed to-descriptor address of seed 003 §2 for one destination, exactly:
 * v52 = (win_off << 8) | ((partition + pbase) << 26); low byte = elem·partition;
 * elem 4: byte 4 |= 4, and partition > 0x3F adds 0x80; addr = v52 + window base.
 */
export function packTransposeAddress(hit: SbufHit, elem: number, pbase: number): bigint {
  const partition = hit.rel >> BigInt(SBUF_PARTITION_SHIFT);
  const winOff = hit.rel & 0x3ffffn;
  let v52 = (winOff << 8n) | ((partition + BigInt(pbase)) << 26n);
  v52 = (v52 & ~0xffn) | ((BigInt(elem) * partition) & 0xffn);
  if (elem === 4) {
    v52 |= 4n << 32n;
    if (partition > 0x3fn) v52 += 0x80n;
  }
  return v52 + hit.base;
}

function checkRange(name: string, v: number, lo: number, hi: number): void {
  if (!Number.isInteger(v) || v < lo || v > hi)
    throw new FieldError("cayman-transpose", name, v, `${lo}..${hi}`);
}

/**
 * libnrt aws_cayman_sdma_m2m_build_transpose_packet @0x44b0e0, seed 003 §2.
 * @returns the from (TX) and to (RX) descriptors, or -EINVAL with the seed's message: "Invalid dtype
 *   %u passed", "transpose op %u currently unsupported on v3 arch", "v3 arch does not currently
 *   support transposes of different from/to sizes", "v3 arch only supports transpose with SB as the
 *   destination".
 * @throws FieldError when cols / dir / ctrl / a lengths cannot be represented in the bytes.
 */
export function buildCaymanTransposePacket(req: CaymanTransposeRequest): DmaPacket | Einval {
  const elem = transposeElemBytes(req.dtype);
  if (typeof elem !== "number") return elem;
  if (req.wDim !== 1 || req.zDim !== 1)
    return einval(`transpose op ${req.op} currently unsupported on v3 arch`);
  const n = req.from.length;
  if (n !== req.to.length || req.from.some((f, i) => f.len !== req.to[i]?.len)) {
    return einval("v3 arch does not currently support transposes of different from/to sizes");
  }
  checkRange("cols", req.cols, 1, 16);
  checkRange("dir", req.dir, 0, 127);
  checkRange("ctrl", req.ctrl, 0, 0xfffff);
  const pbase = Number((req.a2 >> 48n) & 0xffn);
  const hits: SbufHit[] = [];
  for (const t of req.to) {
    const hit = classifySbuf(t.addr);
    if (!hit) return einval("v3 arch only supports transpose with SB as the destination");
    hits.push(hit);
  }
  const phase = req.ringPhase ?? INITIAL_RING_PHASE;
  const meta = buildTransposeMetaCtrl(elem, req.dtype, 0);
  const v51 = transposeControlWord(req.cols, req.ctrl, req.dir);
  const tx = new Uint8Array(16 * n);
  const rx = new Uint8Array(16 * n);
  for (let i = 0; i < n; i++) {
    const from = req.from[i] as DmaBuffer;
    checkRange("len", from.len, 1, MAX_DESCRIPTOR_BYTES);
    const lenCtrl = lenCtrlFields(from.len, phase);
    UDMA_TX.encodeInto(
      {
        ...lenCtrl,
        "len_ctrl.first": i === 0,
        "len_ctrl.last": i === n - 1,
        meta_ctrl: meta,
        buf_ptr: from.addr,
      },
      tx,
      16 * i,
    );
    const buf1_ptr = packTransposeAddress(hits[i] as SbufHit, elem, pbase);
    UDMA_RX.encodeInto({ ...lenCtrl, buf2_ptr_lo: v51, buf1_ptr }, rx, 16 * i);
  }
  return { tx, rx };
}

/** The flush / fence aperture offset added to the TPB base (seed 003 §2). */
export const TRANSPOSE_FLUSH_OFFSET = 0x200_0000_0400_0000n;
/** The flush descriptor's size field (seed 003 §2). */
export const TRANSPOSE_FLUSH_BYTES = 4;

/**
 * libnrt aws_cayman_sdma_m2m_build_transpose_flush_packet @0x44b670, seed 003 §2: one copy of 4 bytes
 * to tpb_base(eng) + 0x200000004000000. MODEL: the TX side reads the same 4 bytes (the seed gives
 * only the destination), with the plain-copy meta 0x01080003.
 * @throws SdmaAbortError when eng is not a TPB index (0..7).
 */
export function buildCaymanTransposeFlushPacket(
  eng: number,
  ringPhase: number = INITIAL_RING_PHASE,
): DmaPacket {
  const dst = tpbBase(eng) + TRANSPOSE_FLUSH_OFFSET;
  const lenCtrl = lenCtrlFields(TRANSPOSE_FLUSH_BYTES, ringPhase);
  return {
    tx: UDMA_TX.encode({
      ...lenCtrl,
      "len_ctrl.first": true,
      "len_ctrl.last": true,
      meta_ctrl: DEFAULT_COPY_META,
      buf_ptr: dst,
    }),
    rx: UDMA_RX.encode({ ...lenCtrl, buf2_ptr_lo: 0, buf1_ptr: dst }),
  };
}

/**
 * The len_ctrl fields both sides share, by the layouts' flat names; FIRST / LAST go on the M2S side
 * only (the S2M view has none: aws-neuron-driver udma.h).
 */
function lenCtrlFields(length: number, ringId: number) {
  return { "len_ctrl.length": length, "len_ctrl.ring_id": ringId } as const;
}
