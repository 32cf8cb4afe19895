/**
 * The NeuronCore event-block semaphores (GROUND_TRUTH): 256 32-bit semaphores per block, reached
 * through four 1 KiB windows — read +0x1000, set +0x1400, increment +0x1800, decrement +0x1C00.
 * A DMA completion is a 4-byte write into the increment window (src/spec/packet-model.ts), so a
 * semaphore changes exactly when the engine executes that write.
 *
 * MODEL: a write to the read window is a fault (the window exists to be read); a read of the set /
 * increment / decrement windows returns the semaphore's value; arithmetic wraps modulo 2^32.
 */
import { addrArg, MAX_U32, uintArg } from "../bits/arg-check.js";
import { FieldError } from "../bits/errors.js";
import { SEMAPHORE_COUNT, type SEMAPHORE_WINDOWS } from "../spec/udma-regs.js";
import { hexAddr, MemoryFault } from "./memory/memory.js";

const WINDOW_BYTES = BigInt(SEMAPHORE_COUNT * 4);

/** Called after every semaphore change: block, index, new value. */
export type SemaphoreListener = (block: number, index: number, value: number) => void;

export class SemaphoreBlock {
  readonly values = new Uint32Array(SEMAPHORE_COUNT);

  /**
   * @param block the event block number (NeuronCore, or 8 + TopSP index).
   * @param base the address of the read window (event block + 0x1000).
   * @throws FieldError for a block not an integer 0..255, a base not an address, a listener not a function.
   */
  constructor(
    readonly block: number,
    readonly base: bigint,
    private readonly listener: SemaphoreListener,
  ) {
    uintArg("SemaphoreBlock", "block", block, 0xff);
    addrArg("SemaphoreBlock", "base", base);
    if (typeof listener !== "function")
      throw new FieldError("SemaphoreBlock", "listener", listener, "a function");
  }

  /**
   * MMIO write handler for the block's four windows. @throws MemoryFault as {@link refusal};
   * FieldError for a value outside 0..2^32 − 1 (never wrapped).
   */
  write32(addr: bigint, value: number): void {
    uintArg("SemaphoreBlock.write32", "value", value, MAX_U32);
    const why = this.refusal(addr);
    if (why) throw new MemoryFault(addr, 4, why);
    const { window, index } = this.locate(addr);
    const old = this.values[index] as number;
    const next = window === "set" ? value : window === "increment" ? old + value : old - value;
    this.values[index] = next >>> 0;
    this.listener(this.block, index, this.values[index] as number);
  }

  /** Why a write at `addr` is refused (the read window, outside the block), or undefined. */
  refusal(addr: bigint): string | undefined {
    const rel = addrArg("SemaphoreBlock.refusal", "addr", addr) - this.base;
    if (rel < 0n || rel >= 4n * WINDOW_BYTES) return `${hexAddr(addr)} is outside event block ${this.block}`;
    if (rel < WINDOW_BYTES) return `write to semaphore read window at ${hexAddr(addr)}`;
    return undefined;
  }

  /** MMIO read handler: every window reads the value. */
  read32(addr: bigint): number {
    addrArg("SemaphoreBlock.read32", "addr", addr);
    return this.values[this.locate(addr).index] as number;
  }

  private locate(addr: bigint): { window: keyof typeof SEMAPHORE_WINDOWS; index: number } {
    const rel = addr - this.base;
    const windowNo = Number(rel / WINDOW_BYTES);
    const window = (["read", "set", "increment", "decrement"] as const)[windowNo];
    if (window === undefined)
      throw new MemoryFault(addr, 4, `${hexAddr(addr)} is outside event block ${this.block}`);
    return { window, index: Number((rel % WINDOW_BYTES) / 4n) };
  }
}
