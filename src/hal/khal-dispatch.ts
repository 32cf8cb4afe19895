/**
 * The al_hal_sdma.c trampolines (seed 003 §1): assert the arch is latched, load the slot from the
 * khal vtable, assert it is not NULL, tail-call it. On SUNDA / CAYMAN the embedded-sem slots are
 * NULL, so reaching them is the `__assert_fail` — a hard MARIANA-only capability.
 */
import { SdmaAssertError } from "../bits/errors.js";
import { type HalDevice, halTpbGetArchType } from "./hal-device.js";
import { type KhalSlotName, type KhalSlots, khalSlotSpec } from "./khal-slots.js";

type SlotArgs<K extends KhalSlotName> = KhalSlots[K] extends (dev: HalDevice, ...args: infer A) => unknown
  ? A
  : never;

/** The file the trampolines' asserts name (seed 003 §1: `al_hal_sdma.c assert :0x28D/E`). */
export const TRAMPOLINE_FILE = "al_hal_sdma.c";
/** The arch-latched assert line of aws_hal_sdma_init_embedded_sem (seed: 0x28D). */
export const TRAMPOLINE_ARCH_ASSERT_LINE = 0x28d;

/**
 * libnrt aws_hal_sdma_* trampolines @0x451e90–0x4520f0 (aws_hal_sdma_init_embedded_sem @0x451e90),
 * seed 003 §1: call a khal slot the way the trampolines do.
 * @throws SdmaAssertError when hal_target is INVALID / ≥ NUM, or the slot is NULL
 *   (`kaena_khal.khal_sdma.<slot>`).
 * @example khalCall(dev, "embedded_sem_wr_address", 0x1000n, 3, 0x1_3270_1800n)
 */
export function khalCall<K extends KhalSlotName>(
  dev: HalDevice,
  name: K,
  ...args: SlotArgs<K>
): ReturnType<KhalSlots[K]> {
  const spec = khalSlotSpec(name);
  const func = spec.trampoline?.symbol ?? name;
  halTpbGetArchType(dev);
  const fn = dev.khal[name] as ((dev: HalDevice, ...a: SlotArgs<K>) => ReturnType<KhalSlots[K]>) | undefined;
  if (fn === undefined) {
    throw new SdmaAssertError(
      TRAMPOLINE_FILE,
      spec.trampoline?.slotAssertLine ?? 0,
      func,
      `${spec.table}.${name}`,
    );
  }
  return fn(dev, ...args);
}
