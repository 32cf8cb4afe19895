/**
 * kaena_khal_register_funcs_v2 / _v3 / _v4 (seed 003 §1, §4): what each generation's registrar puts
 * into the khal slots of this band. Only v4 fills the embedded-sem slots; v4's RDM leaves are
 * present-but-unsupported 0xFFFFFFFF stubs; v4's Q7 swap-table leaves return 0; its Q7 ucode loader
 * is real. v2 / v3 bodies for RDM / Q7 are outside the seed's band: sdmakit leaves them NULL (MODEL),
 * so a call is the loud NULL-slot assert, never a silently wrong answer.
 */

import type { ArchProfile } from "./arch-profile.js";
import {
  marianaEmbeddedSemCsrIndex,
  marianaEmbeddedSemRdAddress,
  marianaEmbeddedSemWrAddress,
  marianaInitEmbeddedSem,
  s2mSetEmbeddedSemFields,
} from "./embedded-sem.js";
import { archOf, HalDevice } from "./hal-device.js";
import { type KhalTable, markUnsupported } from "./khal-slots.js";
import { q7SwapTableStub, q7UcodeEngInitMariana } from "./q7-ucode.js";

/** What a present-but-unsupported RDM leaf returns. */
export const UNSUPPORTED_RETURN = 0xffffffff;

/** A retired-RDM leaf: logs "<symbol> is not supported for arch v4", returns 0xFFFFFFFF. */
function rdmStub(symbol: string): (dev: HalDevice) => number {
  return markUnsupported((dev: HalDevice) => {
    dev.log(`${symbol} is not supported for arch v4`);
    return UNSUPPORTED_RETURN;
  });
}

export interface KhalRegistrar {
  readonly symbol: string;
  readonly address: number;
  readonly fill: () => KhalTable;
}

/** The registrar of each hal_target value. */
export const KHAL_REGISTRARS: Readonly<Record<2 | 3 | 4, KhalRegistrar>> = {
  2: { symbol: "kaena_khal_register_funcs_v2", address: 0x468740, fill: () => ({}) },
  3: { symbol: "kaena_khal_register_funcs_v3", address: 0x46ed70, fill: () => ({}) },
  4: {
    symbol: "kaena_khal_register_funcs_v4",
    address: 0x4622e0,
    fill: () => ({
      init_embedded_sem: marianaInitEmbeddedSem,
      embedded_sem_rd_address: marianaEmbeddedSemRdAddress,
      embedded_sem_wr_address: marianaEmbeddedSemWrAddress,
      embedded_sem_csr_index: marianaEmbeddedSemCsrIndex,
      s2m_set_embedded_sem_fields: s2mSetEmbeddedSemFields,
      // 0x464d10 / 0x464d40 / 0x464d70 (symbol names MODEL)
      rdm_init: rdmStub("aws_hal_mariana_rdm_init"),
      rdm_queue_init: rdmStub("aws_hal_mariana_rdm_queue_init"),
      rdm_queue_start: rdmStub("aws_hal_mariana_rdm_queue_start"),
      q7_swap_table_init: q7SwapTableStub(),
      q7_swap_table_load: q7SwapTableStub(),
      q7_swap_table_release: q7SwapTableStub(),
      q7_ucode_eng_init: q7UcodeEngInitMariana,
    }),
  },
};

/**
 * libnrt kaena_khal_register_funcs_v2 @0x468740 / _v3 @0x46ed70 / _v4 @0x4622e0, seed 003 §1: run
 * the registrar of the latched arch into `dev.khal` (tdrv_init's registration step).
 * @throws SdmaAssertError when hal_target is INVALID / ≥ NUM.
 */
export function registerKhal(dev: HalDevice): void {
  const arch = archOf(dev).arch as 2 | 3 | 4;
  dev.khal = KHAL_REGISTRARS[arch].fill();
}

/**
 * A device with its khal registered: the usual way to get one.
 * @example const dev = createHalDevice("trn3"); khalCall(dev, "init_embedded_sem", 0x1000n)
 */
export function createHalDevice(arch: ArchProfile | string | number): HalDevice {
  const dev = new HalDevice(arch);
  registerKhal(dev);
  return dev;
}
