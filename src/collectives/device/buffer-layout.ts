/**
 * Where every rank's buffers sit in device memory, with guard bytes around each (Linux dmatest):
 * per rank, [guard | input | guard | output | guard | scratch | guard], each piece 64-byte aligned,
 * ranks 1 MiB aligned, after an area for the descriptor rings.
 *
 * MODEL (one address space): one simulated device stands for every chip and node of the run; each
 * rank's buffers live in its HBM at a distinct address, as the runtime's routing bits make a peer's
 * memory addressable to a DMA engine (seed 002 §4.3 set_addr_routing_bits). Transfers between
 * chips and nodes therefore move real bytes through one memory; the cost model, not the address,
 * says which link they crossed.
 */

import { HBM_BASE } from "../../engine/index.js";
import { dtypeBytes } from "../../spec/dtype.js";
import type { BufferName, BufRef, Plan } from "../plan/plan.js";

/** Guard bytes before and after every buffer. */
export const GUARD_BYTES = 64;
/** The guard pattern ("was copied!" if it changes). */
export const GUARD_FILL = 0xe7;
/** What output and scratch bytes hold before the collective (QEMU-style pre-fill). */
export const OUTPUT_FILL = 0xa5;

/** Reads `len` elements of a rank's buffer from `from`: a view valid until the next read. */
export type BufferReader = (rank: number, buffer: BufferName, from: number, len: number) => Uint8Array;

const BUFFERS: readonly BufferName[] = ["input", "output", "scratch"];
const align = (x: bigint, a: bigint) => ((x + a - 1n) / a) * a;

export interface Span {
  readonly addr: bigint;
  readonly bytes: number;
}

export class BufferLayout {
  private readonly offsets: Record<BufferName, bigint>;
  /** Bytes each rank's region spans (1 MiB aligned). */
  readonly rankStride: bigint;
  /**
   * The same as Numbers, when every address of the layout is below 2^53 (so exact): addresses are
   * then summed as Numbers and made a bigint once (a packet asks for two or three).
   */
  private readonly fast:
    | { first: number; stride: number; eb: number; offsets: Record<BufferName, number> }
    | undefined;

  /**
   * @param plan the plan whose buffers to place
   * @param firstAddr where rank 0's region starts (after the rings)
   */
  constructor(
    readonly plan: Plan,
    readonly firstAddr: bigint,
  ) {
    const eb = BigInt(dtypeBytes(plan.dtype));
    let off = BigInt(GUARD_BYTES);
    const offsets = {} as Record<BufferName, bigint>;
    for (const b of BUFFERS) {
      offsets[b] = off;
      off = align(off + BigInt(plan.sizes[b]) * eb + BigInt(GUARD_BYTES), 64n) + BigInt(GUARD_BYTES);
    }
    this.offsets = offsets;
    this.rankStride = align(off, 1n << 20n);
    const end = firstAddr + BigInt(plan.ranks) * this.rankStride;
    this.fast =
      end <= BigInt(Number.MAX_SAFE_INTEGER)
        ? {
            first: Number(firstAddr),
            stride: Number(this.rankStride),
            eb: Number(eb),
            offsets: {
              input: Number(offsets.input),
              output: Number(offsets.output),
              scratch: Number(offsets.scratch),
            },
          }
        : undefined;
  }

  /** The byte address of a buffer element. */
  addr(ref: BufRef, plusElems = 0): bigint {
    const f = this.fast;
    if (f !== undefined) {
      return BigInt(f.first + ref.rank * f.stride + f.offsets[ref.buffer] + (ref.elem + plusElems) * f.eb);
    }
    const eb = BigInt(dtypeBytes(this.plan.dtype));
    return (
      this.firstAddr +
      BigInt(ref.rank) * this.rankStride +
      this.offsets[ref.buffer] +
      BigInt(ref.elem + plusElems) * eb
    );
  }

  /** A whole buffer of a rank. */
  buffer(rank: number, buffer: BufferName): Span {
    return {
      addr: this.addr({ rank, buffer, elem: 0 }),
      bytes: this.plan.sizes[buffer] * dtypeBytes(this.plan.dtype),
    };
  }

  /** The guard spans of a rank: before and after each buffer. */
  guards(rank: number): Span[] {
    return BUFFERS.flatMap((b) => {
      const s = this.buffer(rank, b);
      return [
        { addr: s.addr - BigInt(GUARD_BYTES), bytes: GUARD_BYTES },
        { addr: s.addr + BigInt(s.bytes), bytes: GUARD_BYTES },
      ];
    });
  }

  /** Bytes past HBM_BASE the last rank's region ends at. */
  get endOffset(): bigint {
    return this.firstAddr - HBM_BASE + BigInt(this.plan.ranks) * this.rankStride;
  }
}
