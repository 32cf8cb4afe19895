/**
 * The MARIANA-only CSR programs reached directly (not through khal) from tdrv_init and friends,
 * seed 003 §4: the CCE stochastic-rounding seed registers, the FP8 data-converter defaults, the UDMA
 * QoS gate, the B0 feature enable, and act_sequencer_force_rspcomb_eight_deep. Each takes the SDMA
 * CSR base directly. Offsets the seed does not give are MODEL and named here once.
 */
import { addrArg, MAX_U32, uintArg } from "../bits/arg-check.js";
import { SdmaAbortError } from "../bits/errors.js";
import { MARIANA } from "./arch-profile.js";
import { archOf, type HalDevice } from "./hal-device.js";

/** cce.h COUNTs: 16 queues, 16 data converters per queue (seed 003 §4). */
export const CCE_SEED_QUEUES = 16;
export const CCE_DATA_CONVERTERS = 16;

/** MODEL offsets (relative to the SDMA CSR base); docs/FIDELITY.md gives the reasons. */
export const MARIANA_CSR_MODEL = {
  /** FP8 converter defaults: the first words of the CCE-user aperture, below the seed block at +0x400. */
  fp8E4Cfg: 0x000,
  fp8E5Cfg: 0x004,
  /** udma_qos_ctrl[q] (a Mariana tdma_model bundle in the public listing), one word per queue. */
  udmaQosCtrl: 0xb00,
  /** B0 feature enable (tdg_ragged_and_emb_sem_ctrl in the public listing). */
  b0FeatureCtrl: 0xb40,
  /** The bit the rspcomb RMW sets / clears in the register at +708. */
  rspcombEightDeepBit: 0,
} as const;
/** The value B0 enable writes (MODEL: every feature bit of the MODEL register on). */
export const B0_FEATURES_ENABLE = 0x1;
/** act_sequencer rspcomb register offset from its base: +708 (seed 003 §5). */
export const RSPCOMB_OFFSET = 708;

/**
 * libnrt aws_hal_get_sdma_cce_user_offset (seed 003 §4): 0 on SUNDA / CAYMAN, 0x2000 on MARIANA.
 * @throws SdmaAssertError from the arch read.
 */
export function sdmaCceUserOffset(dev: HalDevice): number {
  return archOf(dev).cceUserOffset;
}

/** libnrt aws_hal_get_sdma_cce_user_offset_mariana @0x477450: 0x2000, whatever hal_target says. */
export function sdmaCceUserOffsetMariana(): number {
  return MARIANA.cceUserOffset;
}

/** Which seed register: the queue's and data converter's (each 0..15). */
export interface SeedSlot {
  readonly queue: number;
  readonly dataConverter: number;
}

/**
 * The seed-register address: csr + 0x2000 + 8·(dc + 16·(queue + 8)), seed 003 §4.
 * @throws SdmaAbortError unless queue < 16 and data_converter < 16.
 */
export function cceSeedAddress(func: string, csr: bigint, at: SeedSlot): bigint {
  const { queue, dataConverter } = at;
  addrArg(func, "csr", csr);
  const ok = (v: number, n: number) => Number.isInteger(v) && v >= 0 && v < n;
  if (!ok(queue, CCE_SEED_QUEUES) || !ok(dataConverter, CCE_DATA_CONVERTERS)) {
    throw new SdmaAbortError(
      func,
      `queue < AWS_REG_MARIANA_CCE_USER_QUEUE_COUNT && data_converter < AWS_REG_MARIANA_CCE_USER_DATA_CONVERTER_COUNT (queue ${queue}, data_converter ${dataConverter})`,
    );
  }
  return csr + BigInt(sdmaCceUserOffsetMariana() + 8 * (dataConverter + 16 * (queue + 8)));
}

/**
 * libnrt aws_mariana_sdma_write_seed @0x464da0, seed 003 §4.
 * @throws SdmaAbortError (queue / converter ≥ 16); FieldError when seed is not a u32.
 * @example marianaWriteSeed(dev, 0x1000n, { queue: 5, dataConverter: 3 }, 1234) // at 0x1000 + 0x2000 + 8·(3 + 16·13)
 */
export function marianaWriteSeed(dev: HalDevice, csr: bigint, at: SeedSlot, seed: number): void {
  const func = "aws_mariana_sdma_write_seed";
  const addr = cceSeedAddress(func, csr, at);
  dev.regs.write32(addr, uintArg(func, "seed", seed, MAX_U32), func);
}

/** libnrt aws_mariana_sdma_read_seed (seed 003 §4): the same address, read. @throws as write. */
export function marianaReadSeed(dev: HalDevice, csr: bigint, at: SeedSlot): number {
  const func = "aws_mariana_sdma_read_seed";
  return dev.regs.read32(cceSeedAddress(func, csr, at), func);
}

/**
 * One FP8 converter config word (MODEL encoding): bias 7:0, exponent bits 11:8, mantissa bits 15:12,
 * has-inf 16. The formats are GROUND_TRUTH's: e4m3 IEEE-like (bias 7, has inf), e5m2 (bias 15).
 */
export function fp8ConverterValue(expBits: number, manBits: number, bias: number, hasInf: boolean): number {
  return (bias | (expBits << 8) | (manBits << 12) | (hasInf ? 1 << 16 : 0)) >>> 0;
}

/** The two value builders of set_fp8_defaults (seed 003 §4 "the two value builders"; values MODEL). */
export const FP8_E4_DEFAULT = fp8ConverterValue(4, 3, 7, true);
export const FP8_E5_DEFAULT = fp8ConverterValue(5, 2, 15, true);

/**
 * libnrt aws_hal_mariana_sdma_set_fp8_defaults @0x464f70, seed 003 §4: the FP8 converter defaults
 * in the CCE-user aperture (csr + 0x2000 + MODEL offsets).
 */
export function marianaSetFp8Defaults(dev: HalDevice, csr: bigint): void {
  const func = "aws_hal_mariana_sdma_set_fp8_defaults";
  addrArg(func, "csr", csr);
  const user = csr + BigInt(sdmaCceUserOffsetMariana());
  dev.regs.write32(user + BigInt(MARIANA_CSR_MODEL.fp8E4Cfg), FP8_E4_DEFAULT, func);
  dev.regs.write32(user + BigInt(MARIANA_CSR_MODEL.fp8E5Cfg), FP8_E5_DEFAULT, func);
}

/** QoS classes on Trn3 (GROUND_TRUTH: 4). */
export const UDMA_QOS_CLASSES = 4;
/** MODEL: bit 4 of udma_qos_ctrl enables the class in bits 1:0. */
export const UDMA_QOS_ENABLE = 0x10;

/**
 * libnrt aws_hal_mariana_sdma_set_udma_qos @0x4650c0, seed 003 §4 (register and encoding MODEL):
 * queue q's QoS class, enabled.
 * @throws SdmaAbortError when queue ≥ 16; FieldError when qos is not 0..3.
 */
export function marianaSetUdmaQos(dev: HalDevice, csr: bigint, queue: number, qos: number): void {
  const func = "aws_hal_mariana_sdma_set_udma_qos";
  addrArg(func, "csr", csr);
  if (!Number.isInteger(queue) || queue < 0 || queue >= CCE_SEED_QUEUES) {
    throw new SdmaAbortError(func, `queue < AWS_REG_MARIANA_UDMA_QOS_CTRL_COUNT (queue ${queue})`);
  }
  const word = uintArg(func, "qos", qos, UDMA_QOS_CLASSES - 1) | UDMA_QOS_ENABLE;
  dev.regs.write32(csr + BigInt(MARIANA_CSR_MODEL.udmaQosCtrl + 4 * queue), word, func);
}

/**
 * libnrt aws_hal_mariana_sdma_enable_b0_features @0x465210, seed 003 §4: guarded arch == 4 — any other
 * arch returns without a write.
 * @returns whether the write happened.
 */
export function marianaEnableB0Features(dev: HalDevice, csr: bigint): boolean {
  addrArg("aws_hal_mariana_sdma_enable_b0_features", "csr", csr);
  if (!archOf(dev).hasMarianaSlice) return false;
  dev.regs.write32(
    csr + BigInt(MARIANA_CSR_MODEL.b0FeatureCtrl),
    B0_FEATURES_ENABLE,
    "aws_hal_mariana_sdma_enable_b0_features",
  );
  return true;
}

/**
 * libnrt act_sequencer_force_rspcomb_eight_deep_cayman_neff @0x44da50, seed 003 §5: despite the
 * `_cayman_neff` name, the body is gated arch == 4; there it read-modify-writes base + 708 (the bit
 * is MODEL). Other arches: no access.
 * @returns whether the RMW happened.
 */
export function actSequencerForceRspcombEightDeep(dev: HalDevice, base: bigint, enable: boolean): boolean {
  const func = "act_sequencer_force_rspcomb_eight_deep_cayman_neff";
  addrArg(func, "base", base);
  if (!archOf(dev).hasMarianaSlice) return false;
  const addr = base + BigInt(RSPCOMB_OFFSET);
  const bit = 1 << MARIANA_CSR_MODEL.rspcombEightDeepBit;
  const old = dev.regs.read32(addr, func);
  dev.regs.write32(addr, enable ? old | bit : old & ~bit, func);
  return true;
}
