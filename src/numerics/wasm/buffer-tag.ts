import { mayKeepAtHand, whenArenasLetGo } from "../let-go.js";

/**
 * A value carried by an ArrayBuffer (an arena's kernel instance, its reduce scratch): a property
 * under a symbol, one load a look-up — the engine makes one a packet, and a WeakMap get was a
 * measurable part of its fixed cost. A shared memory's buffer cannot carry a property (it is not
 * extensible), so its value is kept in a WeakMap. The last one found is kept at hand either way,
 * when its owner lets numerics forget it (let-go.ts).
 */
export class BufferTag<T> {
  private readonly key: symbol;
  private readonly frozen = new WeakMap<ArrayBufferLike, T>();
  private lastBuffer: ArrayBufferLike | undefined;
  private lastValue: T | undefined;

  constructor(name: string) {
    this.key = Symbol(name);
    // The last look-up is the one reference a tag holds to a shared arena past a call.
    whenArenasLetGo(() => {
      this.lastBuffer = undefined;
      this.lastValue = undefined;
    });
  }

  /** Tag `buffer` with `value`. */
  set(buffer: ArrayBufferLike, value: T): void {
    if (buffer === this.lastBuffer) this.lastValue = value;
    if (Object.isExtensible(buffer)) Object.defineProperty(buffer, this.key, { value });
    else this.frozen.set(buffer, value);
  }

  /**
   * The value `buffer` was tagged with, if any. The last buffer found is checked first: a packet's
   * reduce looks up the same arena again and again, and the property load under a symbol, on
   * buffers of as many shapes as there are arenas, was a measurable part of it.
   */
  get(buffer: ArrayBufferLike): T | undefined {
    if (buffer === this.lastBuffer) return this.lastValue;
    const tagged = (buffer as unknown as Record<symbol, T | undefined>)[this.key];
    const value = tagged !== undefined || Object.isExtensible(buffer) ? tagged : this.frozen.get(buffer);
    if (value !== undefined && mayKeepAtHand(buffer)) {
      this.lastBuffer = buffer;
      this.lastValue = value;
    }
    return value;
  }
}
