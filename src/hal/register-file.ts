/**
 * A simulated MMIO register space: 32-bit reads and writes at exact 64-bit addresses, a log of
 * every access (address, value, which accessor made it), and handlers so the device can react to a
 * write (a doorbell, a semaphore increment). Registers without a handler hold the last value written.
 */
import { DeviceFault } from "../bits/errors.js";

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

export class RegisterFile {
  readonly log: RegisterAccess[] = [];
  private readonly values = new Map<bigint, number>();
  private readonly windows: Window[] = [];

  /** Route accesses in [base, base + bytes) to handlers (later windows win over earlier ones). */
  handle(base: bigint, bytes: bigint, handlers: { onWrite?: WriteHandler; onRead?: ReadHandler }): void {
    this.windows.unshift({ base, end: base + bytes, ...handlers });
  }

  write32(addr: bigint, value: number, accessor?: string): void {
    checkAligned(addr);
    const v = value >>> 0;
    this.log.push(
      accessor === undefined
        ? { op: "write", addr, value: v, width: 32 }
        : { op: "write", addr, value: v, width: 32, accessor },
    );
    this.values.set(addr, v);
    this.windowOf(addr)?.onWrite?.(addr, v);
  }

  read32(addr: bigint, accessor?: string): number {
    checkAligned(addr);
    const w = this.windowOf(addr);
    const v = (w?.onRead ? w.onRead(addr) : (this.values.get(addr) ?? 0)) >>> 0;
    this.log.push(
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

  private windowOf(addr: bigint): Window | undefined {
    return this.windows.find((w) => addr >= w.base && addr < w.end);
  }
}

function checkAligned(addr: bigint): void {
  if ((addr & 3n) !== 0n)
    throw new DeviceFault(`register access at 0x${addr.toString(16)} is not 4-byte aligned`);
}
