/**
 * One simulated device as the HAL sees it: the latched `hal_target` (the arch enum libnrt reads on
 * every accessor), the MMIO register file the accessors write, the khal vtable its registrar filled,
 * and the `al_hal_log` lines the HAL printed. Tests and the CLI set `halTarget` freely — including to
 * INVALID or past NUM — to reach the asserts.
 */
import { SdmaAssertError, UsageError } from "../bits/errors.js";
import { ArchType } from "../spec/enums.js";
import { type ArchProfile, archProfile } from "./arch-profile.js";
import type { KhalTable } from "./khal-slots.js";
import { RegisterFile } from "./register-file.js";

/**
 * Where libnrt's arch-type asserts live. The seed says addr2line returns `:?` for this band, so the
 * file is the TU the symbol belongs to and the line is 0 (MODEL: no line is known).
 */
export const ARCH_TYPE_ASSERT_FILE = "al_hal_tpb.c";

export class HalDevice {
  /** libnrt's global `hal_target`: 2 SUNDA, 3 CAYMAN, 4 MARIANA (0 INVALID, 5 NUM). Settable. */
  halTarget: number;
  readonly regs: RegisterFile;
  /** The khal vtable; filled by the registrar of the arch (see `registerKhal`). */
  khal: KhalTable = {};
  /** Every `al_hal_log` line, in order. */
  readonly messages: string[] = [];

  constructor(arch: ArchProfile | string | number, regs: RegisterFile = new RegisterFile()) {
    this.halTarget = typeof arch === "object" ? arch.arch : archProfile(arch).arch;
    this.regs = regs;
  }

  /** libnrt `al_hal_log`: keep the line so callers and tests can read it. */
  log(message: string): void {
    this.messages.push(message);
  }
}

/**
 * libnrt al_hal_tpb_get_arch_type @0x44bca0, seed 003 §1: reads `hal_target`, asserts it is not
 * INVALID and below NUM (5).
 * @throws SdmaAssertError when hal_target is INVALID (0) or ≥ NUM (5), or not an integer.
 * @example halTpbGetArchType(new HalDevice("trn3")) // 4
 */
export function halTpbGetArchType(dev: HalDevice): number {
  const t = dev.halTarget;
  if (t === ArchType.INVALID) {
    throw new SdmaAssertError(
      ARCH_TYPE_ASSERT_FILE,
      0,
      "al_hal_tpb_get_arch_type",
      "hal_target != AL_HAL_TPB_ARCH_TYPE_INVALID",
    );
  }
  if (!Number.isInteger(t) || t < 0 || t >= ArchType.NUM) {
    throw new SdmaAssertError(
      ARCH_TYPE_ASSERT_FILE,
      0,
      "al_hal_tpb_get_arch_type",
      "hal_target < AL_HAL_TPB_ARCH_TYPE_NUM",
    );
  }
  return t;
}

/**
 * The profile of the latched arch: {@link halTpbGetArchType}, then the profile record.
 * @throws SdmaAssertError as halTpbGetArchType; UsageError for 1, a value the assert lets through
 * but that names no generation.
 */
export function archOf(dev: HalDevice): ArchProfile {
  const t = halTpbGetArchType(dev);
  if (t === 1)
    throw new UsageError("hal_target 1 passes the arch assert but names no generation (2 | 3 | 4)");
  return archProfile(t);
}
