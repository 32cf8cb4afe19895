/**
 * MARIANA embedded-semaphore writes on completion (seed 003 §4, s2m_set_embedded_sem_fields; the
 * MODEL reading of its bytes is in docs/FIDELITY.md and src/spec/packet-model.ts): a plain-copy
 * RX descriptor with len_ctrl bit 31 carries al_embedded_sem_t in W1. After the packet's data has
 * landed, semaphore `intra_reg_offset` of region `reg_sel` changes by `wr_val`.
 *
 * The region's address is read from the engine's embedded_semaphore_update[reg_sel] lo / hi CSRs, the
 * registers aws_hal_mariana_sdma_init_embedded_sem programs. They are read through device memory, so
 * the read goes to the register file: the engine knows no JS object the HAL filled. The region
 * address is an event block's increment base (aws_hal_get_*_evt_sem_inc_base).
 *
 * MODEL: wr_mode 0 increment, 1 set, 2 decrement (the same semaphore in the set / decrement window),
 * 3 a fault. `sow` clear: no semaphore changes. Control config 0 or a region address of 0 (never
 * programmed) is a fault.
 */
import type { ArchProfile } from "../../hal/arch-profile.js";
import { csrAccessor, csrAddress } from "../../hal/csr-accessors.js";
import { unpackEmbeddedSem } from "../../hal/embedded-sem.js";
import { UDMA_RX } from "../../spec/layouts/index.js";
import { SEMAPHORE_WINDOWS } from "../../spec/udma-regs.js";
import type { DeviceMemory } from "../memory/memory.js";
import { engineCsrBase } from "../memory/memory-map.js";
import { type Descriptor, fault } from "./descriptor.js";

const CTRL_CFG = csrAccessor("aws_reg_read_embedded_sem_ctrl_cfg");
const REGION_LO = csrAccessor("aws_reg_read_embedded_semaphore_update_lo");
const REGION_HI = csrAccessor("aws_reg_read_embedded_semaphore_update_hi");

/** wr_mode → the window, relative to the increment window the region address names. */
const MODE_DELTA: readonly bigint[] = [
  0n,
  SEMAPHORE_WINDOWS.set - SEMAPHORE_WINDOWS.increment,
  SEMAPHORE_WINDOWS.decrement - SEMAPHORE_WINDOWS.increment,
];

/** One semaphore write a packet performs after its data. */
export interface SemWrite {
  readonly desc: Descriptor;
  readonly addr: bigint;
  readonly len: 4;
  readonly value: number;
}

/** len_ctrl bit 31: the RX descriptor carries an embedded-semaphore write in W1. */
const EMBEDDED_SEM = UDMA_RX.field("len_ctrl.embedded_sem");
if (EMBEDDED_SEM.word !== 0) throw new RangeError("udma-rx len_ctrl.embedded_sem must sit in W0");
export const hasEmbeddedSem = (d: Descriptor): boolean => EMBEDDED_SEM.isSet(d.w0);

/**
 * Where and what descriptor `d`'s semaphore write goes on engine `engine`, or undefined when `sow` is
 * clear. Reads the control config and the region's lo / hi CSRs.
 * @throws DescriptorFault for control config 0, an unprogrammed region (address 0), or wr_mode 3.
 */
export function resolveEmbeddedSem(
  profile: ArchProfile,
  memory: DeviceMemory,
  engine: number,
  d: Descriptor,
): SemWrite | undefined {
  const sem = unpackEmbeddedSem(d.w1);
  if (!sem.sow) return undefined;
  const delta = MODE_DELTA[sem.wr_mode];
  if (delta === undefined)
    fault(d, `embedded-semaphore wr_mode ${sem.wr_mode} is not increment (0), set (1) or decrement (2)`);
  const csr = engineCsrBase(profile, engine);
  const ctrlAddr = csrAddress(profile, CTRL_CFG, { base: csr, index: 0 });
  if (memory.readU32(ctrlAddr) === 0)
    fault(d, `embedded semaphores are not enabled on engine ${engine} (embedded_sem_ctrl_cfg = 0)`, ctrlAddr);
  const loAddr = csrAddress(profile, REGION_LO, { base: csr, index: sem.reg_sel });
  const region =
    (BigInt(memory.readU32(csrAddress(profile, REGION_HI, { base: csr, index: sem.reg_sel }))) << 32n) |
    BigInt(memory.readU32(loAddr));
  if (region === 0n)
    fault(
      d,
      `embedded-semaphore region ${sem.reg_sel} of engine ${engine} has no address (not programmed)`,
      loAddr,
    );
  return { desc: d, addr: region + delta + BigInt(4 * sem.intra_reg_offset), len: 4, value: sem.wr_val };
}
