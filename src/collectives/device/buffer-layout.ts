/**
 * Where every rank's buffers sit in device memory, with guard bytes around each (Linux dmatest):
 * per rank, [guard | input | guard | output | guard | scratch | guard], each piece 64-byte aligned,
 * ranks 1 MiB aligned, after an area for the descriptor rings.
 *
 * MODEL (one address space): one simulated device stands for every chip and node of the run; each
 * rank's buffers live in the HBM stack of its NeuronCore (the public driver's stacks,
 * spec/address-map.ts), each rank at a distinct address, as the runtime's routing bits make a peer's
 * memory addressable to a DMA engine (seed 002 §4.3 set_addr_routing_bits). Transfers between
 * chips and nodes therefore move real bytes through one memory; the cost model, not the address,
 * says which link they crossed.
 */

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

/**
 * Where inputs may be drawn straight into device memory (check/inputs.ts): the bytes of rank
 * `rank`'s input from element `firstElem` up to the end of their device page (at most `maxBytes`),
 * to be overwritten whole (undefined: they go through the sink); then `written` names them.
 */
export interface InputTarget {
  view(rank: number, firstElem: number, maxBytes: number): Uint8Array | undefined;
  written(rank: number, firstElem: number, bytes: number): void;
}

const BUFFERS: readonly BufferName[] = ["input", "output", "scratch"];
const align = (x: bigint, a: bigint) => ((x + a - 1n) / a) * a;

export interface Span {
  readonly addr: bigint;
  readonly bytes: number;
}

/**
 * Where a layout's ranks go: each rank's HBM stack (the stack of its NeuronCore) and where each
 * stack's free space starts. A bare address is one stack starting there.
 */
export interface StackPlacement {
  /** Per HBM stack: the first free address (stack 0: after the rings). */
  readonly starts: readonly bigint[];
  /** The stack rank r's buffers go to. */
  readonly stackOf: (rank: number) => number;
}

export class BufferLayout {
  private readonly offsets: Record<BufferName, bigint>;
  /** Bytes each rank's region spans (1 MiB aligned). */
  readonly rankStride: bigint;
  /** Per rank: where its region starts. */
  private readonly bases: readonly bigint[];
  /** Per stack of the placement: where its last rank's region ends (its start when it has none). */
  readonly stackEnds: readonly bigint[];
  /** Per stack of the placement: where its regions start. */
  readonly stackStarts: readonly bigint[];
  /**
   * The same as Numbers, when every address of the layout is below 2^53 (so exact): addresses are
   * then summed as Numbers and made a bigint once (a packet asks for two or three).
   */
  private readonly fast:
    | { bases: readonly number[]; eb: number; offsets: Record<BufferName, number> }
    | undefined;

  /**
   * @param plan the plan whose buffers to place
   * @param at where rank 0's region starts (every rank after it), or a per-stack placement: the
   *   ranks of a stack one after another from its start, in rank order
   */
  constructor(
    readonly plan: Plan,
    at: bigint | StackPlacement,
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
    const placement = typeof at === "bigint" ? { starts: [at], stackOf: () => 0 } : at;
    const next = [...placement.starts];
    const bases: bigint[] = [];
    for (let r = 0; r < plan.ranks; r++) {
      const s = placement.stackOf(r);
      bases.push(next[s] as bigint);
      next[s] = (next[s] as bigint) + this.rankStride;
    }
    this.bases = bases;
    this.stackStarts = placement.starts;
    this.stackEnds = next;
    const exact = next.every((end) => end <= BigInt(Number.MAX_SAFE_INTEGER));
    this.fast = exact
      ? {
          bases: bases.map(Number),
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
    if (this.fast !== undefined) return BigInt(this.byteAddr(ref, plusElems));
    const eb = BigInt(dtypeBytes(this.plan.dtype));
    return (this.bases[ref.rank] as bigint) + this.offsets[ref.buffer] + BigInt(ref.elem + plusElems) * eb;
  }

  /**
   * {@link addr} as a Number, with no bigint made (exact when every address is below 2^53, as a
   * device's are): for code that walks every leg's buffers at once.
   */
  byteAddr(ref: BufRef, plusElems = 0): number {
    const f = this.fast;
    if (f === undefined) return Number(this.addr(ref, plusElems));
    return (f.bases[ref.rank] as number) + f.offsets[ref.buffer] + (ref.elem + plusElems) * f.eb;
  }

  /** Where rank `rank`'s region starts. */
  rankBase(rank: number): bigint {
    return this.bases[rank] as bigint;
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
}
