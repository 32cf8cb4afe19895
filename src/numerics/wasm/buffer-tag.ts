import { whenArenasLetGo } from "../let-go.js";

/**
 * A value carried by an ArrayBuffer (an arena's kernel instance, its reduce scratch): a property
 * under a symbol, one load a look-up — the engine makes one a packet, and a WeakMap get was a
 * measurable part of its fixed cost. A shared memory's buffer cannot carry a property (it is not
 * extensible), so its value is kept in a WeakMap, with the last one looked up at hand.
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
    if (Object.isExtensible(buffer)) Object.defineProperty(buffer, this.key, { value });
    else this.frozen.set(buffer, value);
  }

  /** The value `buffer` was tagged with, if any. */
  get(buffer: ArrayBufferLike): T | undefined {
    const tagged = (buffer as unknown as Record<symbol, T | undefined>)[this.key];
    if (tagged !== undefined || Object.isExtensible(buffer)) return tagged;
    if (buffer === this.lastBuffer) return this.lastValue;
    const value = this.frozen.get(buffer);
    if (value !== undefined) {
      this.lastBuffer = buffer;
      this.lastValue = value;
    }
    return value;
  }
}
