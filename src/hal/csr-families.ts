/**
 * The SDMA CSR families of seed 003 §5, declared once as data: field offsets, per-arch stride,
 * index bound and the generation gate. Every `aws_reg_write_*` / `aws_reg_read_*` accessor is
 * derived from this table (csr-accessors.ts); no accessor carries its own arithmetic.
 *
 * Offsets marked `model` are sdmakit's choice where the seed names the family but not the offset
 * (docs/FIDELITY.md lists each with its reason).
 */
import type { Fidelity } from "../bits/declare.js";
import type { ArchProfile } from "./arch-profile.js";

export interface CsrField {
  readonly offset: number;
  readonly fidelity: Fidelity;
}

export interface CsrFamily {
  /** The name inside the accessor symbol: `aws_reg_write_<name>_<field>`. */
  readonly name: string;
  /** Index bound (`..._COUNT`); 1 means the accessor takes no index. */
  readonly count: number;
  /** The `..._COUNT` name the bound check asserts against. */
  readonly countName: string;
  /** Bytes between consecutive indices; may depend on the arch. */
  readonly stride: number | ((p: ArchProfile) => number);
  readonly strideFidelity: Fidelity;
  readonly fields: Readonly<Record<string, CsrField>>;
  /** When false for an arch, the accessor is a silent no-op there: no write, no bound check. */
  readonly gate?: (p: ArchProfile) => boolean;
  readonly source: string;
}

const seed = (offset: number): CsrField => ({ offset, fidelity: "seed" });
const pub = (offset: number): CsrField => ({ offset, fidelity: "public" });
const model = (offset: number): CsrField => ({ offset, fidelity: "model" });

/** Per-queue notification: 16 queues, arch-invariant 24-byte stride (seed 003 §1, §5). */
export const NOTIFIC_PER_QUEUE: CsrFamily = {
  name: "tdma_model_notific_cfg_per_queue",
  count: 16,
  countName: "AWS_REG_TDMA_MODEL_NOTIFIC_CFG_PER_QUEUE_COUNT",
  stride: 24,
  strideFidelity: "seed",
  // The seed gives the bases 0x200 / 0x208 / 0x20c / 0x214 (m2s_sw_queue = 520); the names and the
  // two crc_init registers between them come from the public tdma_model register listing.
  fields: {
    m2s_trigger: seed(0x200),
    m2s_crc_init: pub(0x204),
    m2s_sw_queue: seed(0x208),
    s2m_trigger: seed(0x20c),
    s2m_crc_init: pub(0x210),
    s2m_sw_queue: seed(0x214),
  },
  source: "aws_reg_write_tdma_model_notific_cfg_per_queue_m2s_sw_queue @0x44de30, seed 003 §1",
};

/** Fabric trigger: 2 indices, stride 48 on SUNDA / CAYMAN and 52 on MARIANA (seed 003 §1, §5). */
export const NOTIFIC_FABRIC_TRIGGER: CsrFamily = {
  name: "tdma_model_notific_cfg_fabric_trigger",
  count: 2,
  countName: "AWS_REG_TDMA_MODEL_NOTIFIC_CFG_FABRIC_TRIGGER_COUNT",
  stride: (p) => p.fabricTriggerStride,
  strideFidelity: "seed",
  // Field bases 0x500..0x52C (seed); only axi_req_sw_queue = 0x50c is named by the seed. MODEL:
  // three triggers (AXI read request, AXI read response, APB write — the public listing's three
  // address-match triggers) of four registers each, sw_queue last as the seed's 0x50c implies.
  fields: {
    axi_req_id_mask: model(0x500),
    axi_req_id_cmp: model(0x504),
    axi_req_addr_cmp: model(0x508),
    axi_req_sw_queue: seed(0x50c),
    axi_rsp_id_mask: model(0x510),
    axi_rsp_id_cmp: model(0x514),
    axi_rsp_addr_cmp: model(0x518),
    axi_rsp_sw_queue: model(0x51c),
    apb_req_addr_mask: model(0x520),
    apb_req_addr_cmp: model(0x524),
    apb_req_trigger: model(0x528),
    apb_req_sw_queue: model(0x52c),
  },
  source: "aws_reg_write_tdma_model_notific_cfg_fabric_trigger_axi_req_sw_queue @0x44e470, seed 003 §1",
};

/**
 * UDMA-M2S prefetch dual-tail-pointer enable, per M2S queue, gated arch > 2 (seed 003 §1).
 * MODEL placement: inside the M2S queue block (0x1000 + q·0x1000, spec/udma-regs), in the first
 * word the public driver leaves reserved after the ring registers (udma_m2s_q +0x50, before rlimit
 * at +0x60).
 */
export const UDMA_M2S_PREFETCH: CsrFamily = {
  name: "udma_m2s_q_prefetch",
  count: 16,
  countName: "AWS_REG_UDMA_M2S_Q_COUNT",
  stride: 0x1000,
  strideFidelity: "public",
  fields: { dual_tail_ptr_en: model(0x1050) },
  gate: (p) => p.hasM2sPrefetch,
  source: "UDMA-M2S prefetch enable (seed 003 Abstract, §5); offsets MODEL",
};

/**
 * Xtensa control-core queue bring-up registers, gated arch > 2, skipped silently on SUNDA
 * (seed 003 §5). MODEL: 16 queues of {ring base lo, hi, size, enable} at 0x3000 + 16·q.
 */
export const CC_QUEUE: CsrFamily = {
  name: "cc_queue",
  count: 16,
  countName: "AWS_REG_CC_QUEUE_COUNT",
  stride: 0x10,
  strideFidelity: "model",
  fields: { base_lo: model(0x3000), base_hi: model(0x3004), size: model(0x3008), enable: model(0x300c) },
  gate: (p) => p.hasCcQueue,
  source: "Xtensa CC-queue bring-up (seed 003 Abstract, §5); offsets MODEL",
};

/**
 * aws_reg_write_xt_local_reg @0x44fa30: the tpb_xt_local_reg window, one 32-bit register per index;
 * SUNDA: no write, no assert (seed 003 §5 QUIRK). MODEL: 2048 registers at stride 4 — enough for
 * the memcopy offsets 0x13a0..0x13e0 the seed cites (index 1256..1272) and the feature flag (38).
 */
export const XT_LOCAL: CsrFamily = {
  name: "xt_local",
  count: 2048,
  countName: "AWS_REG_TPB_XT_LOCAL_REG_COUNT",
  stride: 4,
  strideFidelity: "model",
  fields: { reg: model(0) },
  gate: (p) => p.hasXtLocalWindow,
  source: "aws_reg_write_xt_local_reg @0x44fa30, seed 003 §5",
};

/**
 * The MARIANA embedded-semaphore update regions: 32 (AL_HAL_NUM_EMBEDDED_SEM_REGIONS_MARIANA), a
 * lo / hi address pair each (seed 003 §4). MODEL offsets in the tdma_model block; ungated because
 * only the v4 khal slots reach them (the gate is the slot, seed 003 §1).
 */
export const EMBEDDED_SEM_UPDATE: CsrFamily = {
  name: "embedded_semaphore_update",
  count: 32,
  countName: "AL_HAL_NUM_EMBEDDED_SEM_REGIONS_MARIANA",
  stride: 8,
  strideFidelity: "model",
  fields: { lo: model(0xa80), hi: model(0xa84) },
  source: "aws_reg_write_embedded_semaphore_update_lo / _hi, seed 003 §4; offsets MODEL",
};

/** The embedded-semaphore control config (one register, MODEL offset), seed 003 §4. */
export const EMBEDDED_SEM_CTRL: CsrFamily = {
  name: "embedded_sem",
  count: 1,
  countName: "1",
  stride: 0,
  strideFidelity: "model",
  fields: { ctrl_cfg: model(0xa00) },
  source: "aws_reg_write_embedded_sem_ctrl_cfg, seed 003 §4; offset MODEL",
};

/** Every family, in the order the CLI lists them. */
export const CSR_FAMILIES: readonly CsrFamily[] = [
  NOTIFIC_PER_QUEUE,
  NOTIFIC_FABRIC_TRIGGER,
  UDMA_M2S_PREFETCH,
  CC_QUEUE,
  XT_LOCAL,
  EMBEDDED_SEM_UPDATE,
  EMBEDDED_SEM_CTRL,
];
