/**
 * The CAYMAN SBUF transpose and its flush, as the engine reads their bytes (seed 003 §2; the
 * meaning of each descriptor is the MODEL written down in docs/FIDELITY.md "CAYMAN transpose:
 * what the engine executes", built by src/hal/cayman-transpose.ts):
 *
 * - TX i: udma-tx, has_meta clear, meta_ctrl = the transpose meta (op 25:23 = 1, optype 22:20 = 1;
 *   elem bits 4:0, dtype 19:16): one source row, `length` bytes.
 * - RX i: udma-rx, same length, buf2_ptr_lo = v51 (cols − 1 in bits 3:0), buf1_ptr = window base +
 *   packed; packed = lowbyte | win_off << 8 | P << 26 (elem 4: bit 34 set, and +0x80 added to the
 *   low byte when the partition is > 0x3F, which may carry into win_off).
 * - Element k of row i goes to SBUF partition P + k, byte offset win_off, of the same window.
 *
 * MODEL (docs/FIDELITY.md): for elem 4 the engine infers the +0x80 from P (added iff
 * P > 0x3F) and undoes it, carry included; exact when a2's partition base is 0 — with a nonzero
 * base the seed's packing no longer says which partition the low byte came from. The low byte is a
 * check value, not read further. A row must be exactly `cols` elements.
 *
 * The flush is a 4-byte plain copy to tpb_base(eng) + 0x200000004000000 whose TX reads the same
 * address: an ordering fence. The model is sequential (every earlier descriptor of the queue has
 * completed), so it writes nothing and reads nothing.
 */
import type { ArchProfile } from "../../hal/arch-profile.js";
import { transposeControlCols, unpackTransposeAddress } from "../../hal/cayman-transpose.js";
import { TPB_COUNT, tpbBase } from "../../hal/tpb-address-map.js";
import { TRANSPOSE_META } from "../../spec/layouts/index.js";
import { DEFAULT_COPY_META, SBUF_WINDOWS } from "../../spec/tables.js";
import { type Descriptor, dataLength, fault, hasMeta, pointer } from "./descriptor.js";

const ELEM = TRANSPOSE_META.field("elem");
/**
 * The transpose meta's constant leaves, each as its reader and value: tested on a descriptor's W1
 * (the meta-control word) as it was fetched, so no byte view of the descriptor is made per packet.
 */
const TRANSPOSE_CONSTS = TRANSPOSE_META.leaves
  .filter((l) => l.kind === "const" && l.arms.length === 0)
  .map((l) => ({ reader: TRANSPOSE_META.field(l.path as "op"), value: l.value }));
/** The flush destination's offset from its TPB base (seed 003 §2). */
const FLUSH_OFFSET = 0x200_0000_0400_0000n;
const FLUSH_BYTES = 4;
/** The eight SBUF windows are multiples of 2^36 and packed < 2^35: the base is the bits above 36. */
const WINDOW_ALIGN_MASK = (1n << 36n) - 1n;

/** One row: its source, and where its elements land. */
export interface TransposeRow {
  readonly tx: Descriptor;
  readonly rx: Descriptor;
  readonly src: bigint;
  readonly len: number;
  /** Element k lands at window + (partition + k) · stride + offset, k < cols. */
  readonly window: bigint;
  readonly partition: number;
  readonly offset: number;
}

export interface TransposePlan {
  readonly kind: "transpose";
  readonly elem: number;
  readonly cols: number;
  readonly rows: readonly TransposeRow[];
}

export interface FencePlan {
  readonly kind: "fence";
  readonly tx: Descriptor;
  readonly rx: Descriptor;
}

/** True when a TX descriptor carries the transpose meta-control. */
export function isTransposeTx(d: Descriptor): boolean {
  // The transpose meta's constant leaves (op 1, optype 1: 0x900000) identify it.
  if (hasMeta(d)) return false;
  for (const c of TRANSPOSE_CONSTS) if (c.reader.ofWord(d.w1) !== c.value) return false;
  return true;
}

/** The flush packet: one 4-byte plain copy from and to a TPB's flush address. */
export function isTransposeFlush(tx: readonly Descriptor[], rx: readonly Descriptor[]): boolean {
  const t = tx[0];
  const r = rx[0];
  if (tx.length !== 1 || rx.length !== 1 || !t || !r) return false;
  if (t.w1 !== DEFAULT_COPY_META || dataLength(t) !== FLUSH_BYTES || dataLength(r) !== FLUSH_BYTES)
    return false;
  const dst = pointer(r);
  if (pointer(t) !== dst) return false;
  for (let e = 0; e < TPB_COUNT; e++) if (tpbBase(e) + FLUSH_OFFSET === dst) return true;
  return false;
}

/** Where one packed to-address points: window, partition P and in-partition offset. */
function unpack(rx: Descriptor, elem: number): { window: bigint; partition: number; offset: number } {
  const addr = pointer(rx);
  const window = addr & ~WINDOW_ALIGN_MASK;
  if (!SBUF_WINDOWS.includes(window))
    fault(rx, "transpose destination is not in an SBUF window (window base = buf1_ptr bits 63:36)", addr);
  const to = unpackTransposeAddress(addr & WINDOW_ALIGN_MASK, elem);
  if (to === undefined) fault(rx, "packed partition is past 0xFF", addr);
  return { window, ...to };
}

/**
 * Plan a transpose packet: TX i pairs with RX i.
 * @throws DescriptorFault naming the descriptor (a TX without the transpose meta, unequal chains,
 * a row that is not `cols` elements, an RX that does not point into an SBUF window).
 */
export function planTranspose(
  profile: ArchProfile,
  tx: readonly Descriptor[],
  rx: readonly Descriptor[],
): TransposePlan {
  const first = tx[0] as Descriptor;
  const elem = ELEM.ofWord(first.w1);
  if (elem !== 1 && elem !== 2 && elem !== 4 && elem !== 8)
    fault(first, `transpose meta elem ${elem} is not an element size (1, 2, 4, 8)`);
  if (rx.length !== tx.length)
    fault(rx[0] as Descriptor, `transpose has ${tx.length} TX rows but ${rx.length} RX descriptors`);
  const cols = transposeControlCols((rx[0] as Descriptor).w1);
  const rows: TransposeRow[] = [];
  for (let i = 0; i < tx.length; i++) {
    const t = tx[i] as Descriptor;
    const r = rx[i] as Descriptor;
    if (!isTransposeTx(t) || t.w1 !== first.w1)
      fault(
        t,
        `meta_ctrl 0x${t.w1.toString(16)} differs from the transpose's first row (0x${first.w1.toString(16)})`,
      );
    if (hasMeta(r)) fault(r, "transpose RX descriptor carries an S2M meta-control (has_meta)");
    if (transposeControlCols(r.w1) !== cols)
      fault(r, `v51 cols ${transposeControlCols(r.w1)} differs from the first row's ${cols}`);
    const len = dataLength(t);
    if (dataLength(r) !== len) fault(r, `RX length ${dataLength(r)} is not the row's TX length ${len}`);
    if (len !== cols * elem) fault(t, `row of ${len} bytes is not cols ${cols} × elem ${elem}`);
    const to = unpack(r, elem);
    // Partition P + cols − 1 must exist: past partition 127 the address would run into PSUM.
    if (to.partition + cols > profile.sbufPartitions)
      fault(
        r,
        `transpose row spreads over partitions ${to.partition}..${to.partition + cols - 1}, past the window's last partition ${profile.sbufPartitions - 1}`,
        pointer(r),
      );
    rows.push({ tx: t, rx: r, src: pointer(t), len, ...to });
  }
  return { kind: "transpose", elem, cols, rows };
}
