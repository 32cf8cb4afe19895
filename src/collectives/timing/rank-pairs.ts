import { Numbers } from "./step-shape.js";

/**
 * Bytes per (resource, queue) pair of one rank (the pre-pass's: step-users.ts), summed or the
 * most, in the order pairs first get some: dense typed arrays over the resources the rank touches, as a Map
 * keyed by pair cost a fifth of the pass.
 */
export class RankPairs {
  /** Per resource id: its slot, or −1. */
  private readonly slotOf: Int32Array;
  private readonly ids = new Numbers();
  private pairBytes: Float64Array;
  /** Pairs (slot · channels + queue) in first-touch order, and each one's resource id and queue. */
  private readonly order = new Numbers();
  readonly orderId = new Numbers();
  readonly orderQueue = new Numbers();

  constructor(
    resources: number,
    private readonly channels: number,
  ) {
    this.slotOf = new Int32Array(resources).fill(-1);
    this.pairBytes = new Float64Array(64 * channels);
  }

  get size(): number {
    return this.order.length;
  }

  /** Add `bytes` to the pair's sum. */
  add(id: number, queue: number, bytes: number): void {
    this.pairBytes[this.pair(id, queue)]! += bytes;
  }

  /** Raise the pair's figure to `bytes` if that is more (the pairs keep maxima, not sums). */
  raise(id: number, queue: number, bytes: number): void {
    const pair = this.pair(id, queue);
    if (bytes > this.pairBytes[pair]!) this.pairBytes[pair] = bytes;
  }

  /** The pair's index in {@link pairBytes}, counted in the first-touch order if it has no bytes yet. */
  private pair(id: number, queue: number): number {
    let slot = this.slotOf[id]!;
    if (slot < 0) {
      slot = this.ids.length;
      this.slotOf[id] = slot;
      this.ids.push(id);
      if ((slot + 1) * this.channels > this.pairBytes.length) {
        const grown = new Float64Array(2 * this.pairBytes.length);
        grown.set(this.pairBytes);
        this.pairBytes = grown;
      }
    }
    const pair = slot * this.channels + queue;
    if (this.pairBytes[pair]! === 0) {
      this.order.push(pair);
      this.orderId.push(id);
      this.orderQueue.push(queue);
    }
    return pair;
  }

  /** The k-th pair's bytes. */
  bytes(k: number): number {
    return this.pairBytes[this.order.data[k]!]!;
  }

  /** Give back the grown arrays (after {@link clear}; the pairs may be used again). */
  release(): void {
    for (const n of [this.ids, this.order, this.orderId, this.orderQueue]) n.data = new Float64Array(256);
    this.pairBytes = new Float64Array(64 * this.channels);
  }

  clear(): void {
    const order = this.order.data;
    for (let k = 0; k < this.order.length; k++) this.pairBytes[order[k]!] = 0;
    const ids = this.ids.data;
    for (let k = 0; k < this.ids.length; k++) this.slotOf[ids[k]!] = -1;
    this.ids.length = 0;
    this.order.length = 0;
    this.orderId.length = 0;
    this.orderQueue.length = 0;
  }
}
