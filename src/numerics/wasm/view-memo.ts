import { whenArenasLetGo } from "../let-go.js";

/** Views a memo holds: a packet's reduce meets its output page, its sources' pages, the scratch. */
const SLOTS = 8;

/**
 * The buffer and byte offset of the views a reduce met last. A typed array's `.buffer` and
 * `.byteOffset` are builtin calls (≈ 20 ns each on Node 20, more on a loaded machine), and the
 * engine's reduce of one packet asks them of the same few views — its output page, its source
 * pages, the scratch — about ten times, packet after packet, while those views stay the same for
 * hundreds of packets. A view's buffer and offset never change while it can be read (an arena never
 * grows, so its views never detach). Only views `keeps` accepts the buffer of are held (an arena's:
 * a caller's own array is never kept alive from here), and they are forgotten when arenas are let
 * go (let-go.ts).
 */
export class ViewMemo {
  private readonly views: (ArrayBufferView | undefined)[] = new Array(SLOTS).fill(undefined);
  private readonly buffers: (ArrayBufferLike | undefined)[] = new Array(SLOTS).fill(undefined);
  private readonly offsets = new Float64Array(SLOTS);
  /** The slot the next view replaces (round robin). */
  private next = 0;

  constructor(private readonly keeps: (buffer: ArrayBufferLike) => boolean) {
    whenArenasLetGo(() => {
      this.views.fill(undefined);
      this.buffers.fill(undefined);
    });
  }

  /** `v.buffer`. */
  bufferOf(v: ArrayBufferView): ArrayBufferLike {
    const i = this.slotOf(v);
    if (i >= 0) return this.buffers[i] as ArrayBufferLike;
    const buffer = v.buffer;
    if (this.keeps(buffer)) this.hold(v, buffer, v.byteOffset);
    return buffer;
  }

  /** `v.byteOffset`. */
  byteOffsetOf(v: ArrayBufferView): number {
    const i = this.slotOf(v);
    if (i >= 0) return this.offsets[i] as number;
    const offset = v.byteOffset;
    const buffer = v.buffer;
    if (this.keeps(buffer)) this.hold(v, buffer, offset);
    return offset;
  }

  /** The slot holding `v`, or −1. */
  private slotOf(v: ArrayBufferView): number {
    const views = this.views;
    for (let i = 0; i < SLOTS; i++) if (views[i] === v) return i;
    return -1;
  }

  /** Hold `v`'s buffer and offset in the next slot (round robin). */
  private hold(v: ArrayBufferView, buffer: ArrayBufferLike, offset: number): void {
    const i = this.next;
    this.next = (i + 1) % SLOTS;
    this.views[i] = v;
    this.buffers[i] = buffer;
    this.offsets[i] = offset;
  }
}
