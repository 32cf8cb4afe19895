/** Shared test fixtures: a vring on fresh device memory and register file. */

import { Device, DeviceMemory, HBM_BASE } from "../../src/engine/index.js";
import { type ArchProfile, archProfile, RegisterFile } from "../../src/hal/index.js";
import { Vring } from "../../src/runtime/index.js";

export const RING_REGION = { base: 0x4000_0000n, bytes: 0x10_0000n };

export interface Fixture {
  readonly vring: Vring;
  readonly memory: DeviceMemory;
  readonly registers: RegisterFile;
}

export function makeVring(
  o: { arch?: string; profile?: ArchProfile; slots?: number; sr?: boolean; seed?: number } = {},
): Fixture {
  const memory = new DeviceMemory();
  memory.map({ name: "rings", kind: "host", base: RING_REGION.base, bytes: RING_REGION.bytes });
  memory.map({ name: "hbm", kind: "hbm", base: 0n, bytes: 0x100_0000n });
  const registers = new RegisterFile();
  const slots = o.slots ?? 256;
  const vring = new Vring({
    profile: o.profile ?? archProfile(o.arch ?? "trn2"),
    memory,
    registers,
    engine: 0,
    queue: 0,
    txBase: RING_REGION.base,
    rxBase: RING_REGION.base + 0x8_0000n,
    slots,
    stochasticRounding: o.sr ?? false,
    srSeed: o.seed ?? 0,
  });
  return { vring, memory, registers };
}

/** Little-endian u32 words of 16 bytes. */
export function words(bytes: Uint8Array): number[] {
  const v = new DataView(bytes.buffer, bytes.byteOffset, 16);
  return [0, 4, 8, 12].map((o) => v.getUint32(o, true));
}

/** A whole simulated device and a vring on its queue 0 of engine 0, rings at the start of HBM. */
export function deviceVring(o: { slots?: number; sr?: boolean } = {}): { dev: Device; vring: Vring } {
  const dev = new Device("trn2");
  const vring = new Vring({
    profile: dev.profile,
    memory: dev.memory,
    registers: dev.regs,
    engine: 0,
    queue: 0,
    txBase: HBM_BASE,
    rxBase: HBM_BASE + 0x1000n,
    slots: o.slots ?? 64,
    stochasticRounding: o.sr ?? false,
  });
  return { dev, vring };
}
