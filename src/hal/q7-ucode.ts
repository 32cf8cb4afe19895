/**
 * The MARIANA Q7 (POOL engine) band, seed 003 §4: the swap-table leaves are `xor eax,eax; ret`
 * stubs (absent on Trn3, return 0), but the ucode loader is real — it writes the IRAM and DRAM
 * images, padded, into the POOL engine the owner maps to (0 → 2, 1 → 5).
 */
import { type Einval, einval } from "../bits/errors.js";
import type { HalDevice } from "./hal-device.js";
import { markUnsupported } from "./khal-slots.js";

/** owner → POOL engine (seed 003 §4, MED). */
export const Q7_OWNER_ENGINE: readonly number[] = [2, 5];

/** MODEL placement of POOL engine e's microcode memories, relative to the SDMA CSR base. */
export const Q7_MODEL = {
  engineBase: 0x40000n,
  engineStride: 0x10000n,
  iramOffset: 0x0n,
  dramOffset: 0x8000n,
  /** Bytes each memory holds. */
  memoryBytes: 0x8000,
} as const;

/** Where POOL engine `engine`'s IRAM / DRAM start (MODEL). */
export function q7MemoryBase(csr: bigint, engine: number, which: "iram" | "dram"): bigint {
  const eng = csr + Q7_MODEL.engineBase + BigInt(engine) * Q7_MODEL.engineStride;
  return eng + (which === "iram" ? Q7_MODEL.iramOffset : Q7_MODEL.dramOffset);
}

/**
 * write_padded: the image as little-endian 32-bit words, the last word zero-padded (MODEL: padding
 * to the 4-byte register width).
 */
export function writePadded(dev: HalDevice, addr: bigint, image: Uint8Array, accessor: string): void {
  for (let off = 0; off < image.length; off += 4) {
    let word = 0;
    for (let b = 0; b < 4; b++) word |= (image[off + b] ?? 0) << (8 * b);
    dev.regs.write32(addr + BigInt(off), word >>> 0, accessor);
  }
}

/**
 * libnrt aws_hal_q7_ucode_eng_init_mariana @0x464b00, seed 003 §4: "POOL eng iram" then "POOL eng
 * dram". An owner outside the map or an image larger than its memory is -EINVAL (MODEL: the seed
 * shows only the map).
 * @returns 0, or an Einval.
 */
export function q7UcodeEngInitMariana(
  dev: HalDevice,
  csr: bigint,
  owner: number,
  iram: Uint8Array,
  dram: Uint8Array,
): number | Einval {
  const engine = Q7_OWNER_ENGINE[owner];
  if (engine === undefined) return einval(`invalid Q7 owner ${owner}`);
  for (const [which, image] of [
    ["iram", iram],
    ["dram", dram],
  ] as const) {
    if (image.length > Q7_MODEL.memoryBytes)
      return einval(`POOL eng ${which} image of ${image.length} bytes exceeds ${Q7_MODEL.memoryBytes}`);
  }
  writePadded(dev, q7MemoryBase(csr, engine, "iram"), iram, "POOL eng iram");
  writePadded(dev, q7MemoryBase(csr, engine, "dram"), dram, "POOL eng dram");
  return 0;
}

/** The three Q7 swap-table stubs (0x464ab0 / 0x464ac0 / 0x464af0): return 0, touch nothing. */
export const q7SwapTableStub = (): ((dev: HalDevice) => number) => markUnsupported((_dev: HalDevice) => 0);
