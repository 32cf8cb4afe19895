/**
 * A simulated MMIO register space: 32-bit reads and writes at exact 64-bit addresses, a log of
 * every access (address, value, which accessor made it; bounded or off by option), and handlers so the device can react to a
 * write (a doorbell, a semaphore increment). Registers without a read handler hold the last value
 * written.
 */
import { addrArg, intArg, MAX_ADDRESS } from "../bits/arg-check.js";
import { DeviceFault, FieldError } from "../bits/errors.js";

export interface RegisterAccess {
  readonly op: "read" | "write";
  readonly addr: bigint;
  readonly value: number;
  readonly width: 32;
  /** The libnrt symbol (or sdmakit function) that made the access, when known. */
  readonly accessor?: string;
}

export type WriteHandler = (addr: bigint, value: number) => void;
export type ReadHandler = (addr: bigint) => number;

interface Window {
  readonly base: bigint;
  readonly end: bigint;
  readonly onWrite?: WriteHandler;
  readonly onRead?: ReadHandler;
}

export interface RegisterFileOptions {
  /**
   * How many accesses `log` keeps: every one (the default, `Infinity`), none (0), or the most recent
   * N. With N the log is trimmed in batches, so it holds between the last N and the last 2N
   * accesses, and a `writesSince` mark is only good until the next trim. Long simulations use 0:
   * a log that grows forever costs garbage-collection time.
   */
  readonly logLimit?: number;
}

export class RegisterFile {
  readonly log: RegisterAccess[] = [];
  private readonly values = new Map<bigint, number>();
  private readonly windows: Window[] = [];
  private readonly logLimit: number;

  /** @throws FieldError when logLimit is not a non-negative integer or Infinity. */
  constructor(options: RegisterFileOptions = {}) {
    const limit = options.logLimit ?? Number.POSITIVE_INFINITY;
    if (!(limit === Number.POSITIVE_INFINITY || (Number.isInteger(limit) && limit >= 0)))
      throw new FieldError("RegisterFile", "logLimit", limit, "a non-negative integer or Infinity");
    this.logLimit = limit;
  }

  /**
   * Route accesses in [base, base + bytes) to handlers (later windows win over earlier ones). A
   * register a read handler answers for holds no value here: a later window without one over it
   * reads what is written from then on.
   * @throws FieldError for a span that is not one of 64-bit addresses or a handler not a function.
   */
  handle(base: bigint, bytes: bigint, handlers: { onWrite?: WriteHandler; onRead?: ReadHandler }): void {
    addrArg("RegisterFile.handle", "base", base);
    if (typeof bytes !== "bigint" || bytes <= 0n || base + bytes > MAX_ADDRESS + 1n)
      throw new FieldError("RegisterFile.handle", "bytes", bytes, "a bigint 1.. ending by 2^64");
    for (const h of ["onWrite", "onRead"] as const)
      if (handlers?.[h] !== undefined && typeof handlers[h] !== "function")
        throw new FieldError("RegisterFile.handle", h, typeof handlers[h], "a function");
    this.windows.unshift({ base, end: base + bytes, ...handlers });
  }

  /**
   * Write a 32-bit register. `value` is the word's 32 bits as an unsigned or a signed integer (a
   * bit operation's result, `x & ~bit`, is signed); stored unsigned.
   * @throws FieldError for an address that is not a bigint or a value that is not a 32-bit word;
   *   DeviceFault for an unaligned address.
   */
  write32(addr: bigint, value: number, accessor?: string): void {
    checkAligned(addrArg("RegisterFile.write32", "addr", addr));
    const v = intArg("RegisterFile.write32", "value", value, { min: -(2 ** 31), max: 2 ** 32 - 1 }) >>> 0;
    if (this.logLimit > 0)
      this.record(
        accessor === undefined
          ? { op: "write", addr, value: v, width: 32 }
          : { op: "write", addr, value: v, width: 32, accessor },
      );
    const w = this.windowOf(addr);
    // A register a read handler answers for is the handler's: a read never comes here for it, and
    // a map keyed by bigint costs ≈ 1 µs a write in the collectives' run (a doorbell a ring a leg).
    if (w?.onRead === undefined) this.values.set(addr, v);
    w?.onWrite?.(addr, v);
  }

  /** @throws FieldError for an address that is not a bigint; DeviceFault when unaligned. */
  read32(addr: bigint, accessor?: string): number {
    checkAligned(addrArg("RegisterFile.read32", "addr", addr));
    const w = this.windowOf(addr);
    const v = (w?.onRead ? w.onRead(addr) : (this.values.get(addr) ?? 0)) >>> 0;
    if (this.logLimit > 0)
      this.record(
        accessor === undefined
          ? { op: "read", addr, value: v, width: 32 }
          : { op: "read", addr, value: v, width: 32, accessor },
      );
    return v;
  }

  /** The writes logged since `mark` (an index into `log`). */
  writesSince(mark = 0): RegisterAccess[] {
    return this.log.slice(mark).filter((a) => a.op === "write");
  }

  private record(access: RegisterAccess): void {
    this.log.push(access);
    if (this.log.length >= 2 * this.logLimit) this.log.splice(0, this.log.length - this.logLimit);
  }

  private windowOf(addr: bigint): Window | undefined {
    // A loop, not find(): every doorbell and ring-head read comes through here.
    for (const w of this.windows) if (addr >= w.base && addr < w.end) return w;
    return undefined;
  }
}

function checkAligned(addr: bigint): void {
  if ((addr & 3n) !== 0n)
    throw new DeviceFault(`register access at 0x${addr.toString(16)} is not 4-byte aligned`);
}
