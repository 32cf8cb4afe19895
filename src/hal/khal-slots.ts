/**
 * The khal vtable slots this band uses, declared once as data (seed 003 §1, §4). `KhalSlots` is the
 * call shape of each slot; `KHAL_SLOTS` says where the slot sits and which libnrt leaf v4 installs.
 * A slot is in one of three states (seed 003 §4 QUIRK): absent (NULL: the trampoline asserts),
 * present-but-unsupported (a stub that returns 0xFFFFFFFF or 0), present (a real body).
 */
import type { Einval } from "../bits/errors.js";
import type { LayoutShape } from "../bits/index.js";
import type { EMBEDDED_SEM } from "../spec/layouts/index.js";
import type { HalDevice } from "./hal-device.js";

/** The members of al_embedded_sem_t: the `embedded-sem` layout's decoded shape. */
export type EmbeddedSemFields = LayoutShape<typeof EMBEDDED_SEM>;

export interface KhalSlots {
  init_embedded_sem(dev: HalDevice, csr: bigint): void;
  embedded_sem_rd_address(dev: HalDevice, csr: bigint, index: number): bigint;
  embedded_sem_wr_address(dev: HalDevice, csr: bigint, index: number, addr: bigint): void;
  embedded_sem_csr_index(dev: HalDevice, localBase: bigint): number;
  s2m_set_embedded_sem_fields(dev: HalDevice, desc: Uint8Array, sem: EmbeddedSemFields): void;
  rdm_init(dev: HalDevice): number;
  rdm_queue_init(dev: HalDevice): number;
  rdm_queue_start(dev: HalDevice): number;
  q7_swap_table_init(dev: HalDevice): number;
  q7_swap_table_load(dev: HalDevice): number;
  q7_swap_table_release(dev: HalDevice): number;
  q7_ucode_eng_init(
    dev: HalDevice,
    csr: bigint,
    owner: number,
    iram: Uint8Array,
    dram: Uint8Array,
  ): number | Einval;
}

export type KhalSlotName = keyof KhalSlots;
/** A filled vtable: a slot left out is NULL. */
export type KhalTable = { -readonly [K in KhalSlotName]?: KhalSlots[K] };
export type SlotState = "absent" | "unsupported" | "present";

export interface KhalSlotSpec {
  readonly name: KhalSlotName;
  /** `kaena_khal.khal_sdma` (.bss @0xCAEB80) or the v4 khal_arch ops vtable. */
  readonly table: "kaena_khal.khal_sdma" | "khal_arch";
  readonly offset: number;
  /** Whether the seed gives this slot's offset or sdmakit placed it. */
  readonly offsetFidelity: "seed" | "model";
  /** The al_hal_sdma.c trampoline that dispatches through the slot, when the band has one. */
  readonly trampoline?: {
    readonly symbol: string;
    readonly address?: number;
    readonly slotAssertLine: number;
  };
}

/**
 * The slots. Embedded-sem slots: kaena_khal+0x528…+0x550 (seed; read as five 8-byte slots ending
 * before 0x550); init at +0x528 and wr_address at +0x538 are the seed's, the other three positions
 * are MODEL. RDM at khal_arch +0x8 / +0x10 / +0x18 (seed); Q7 slots MODEL positions after them.
 */
export const KHAL_SLOTS: readonly KhalSlotSpec[] = [
  {
    name: "init_embedded_sem",
    table: "kaena_khal.khal_sdma",
    offset: 0x528,
    offsetFidelity: "seed",
    trampoline: { symbol: "aws_hal_sdma_init_embedded_sem", address: 0x451e90, slotAssertLine: 0x28e },
  },
  {
    name: "embedded_sem_rd_address",
    table: "kaena_khal.khal_sdma",
    offset: 0x530,
    offsetFidelity: "model",
    trampoline: { symbol: "aws_hal_sdma_embedded_sem_rd_address", slotAssertLine: 0 },
  },
  {
    name: "embedded_sem_wr_address",
    table: "kaena_khal.khal_sdma",
    offset: 0x538,
    offsetFidelity: "seed",
    trampoline: { symbol: "aws_hal_sdma_embedded_sem_wr_address", slotAssertLine: 0 },
  },
  {
    name: "embedded_sem_csr_index",
    table: "kaena_khal.khal_sdma",
    offset: 0x540,
    offsetFidelity: "model",
    trampoline: { symbol: "aws_hal_sdma_embedded_sem_csr_index", slotAssertLine: 0 },
  },
  {
    name: "s2m_set_embedded_sem_fields",
    table: "kaena_khal.khal_sdma",
    offset: 0x548,
    offsetFidelity: "model",
    trampoline: { symbol: "aws_hal_sdma_s2m_set_embedded_sem_fields", slotAssertLine: 0 },
  },
  { name: "rdm_init", table: "khal_arch", offset: 0x8, offsetFidelity: "seed" },
  { name: "rdm_queue_init", table: "khal_arch", offset: 0x10, offsetFidelity: "seed" },
  { name: "rdm_queue_start", table: "khal_arch", offset: 0x18, offsetFidelity: "seed" },
  { name: "q7_swap_table_init", table: "khal_arch", offset: 0x20, offsetFidelity: "model" },
  { name: "q7_swap_table_load", table: "khal_arch", offset: 0x28, offsetFidelity: "model" },
  { name: "q7_swap_table_release", table: "khal_arch", offset: 0x30, offsetFidelity: "model" },
  { name: "q7_ucode_eng_init", table: "khal_arch", offset: 0x38, offsetFidelity: "model" },
];

// biome-ignore lint/complexity/noBannedTypes: the set holds slot functions of every shape.
const UNSUPPORTED_STUBS = new WeakSet<Function>();

/** Mark a function as a present-but-unsupported stub (returns 0xFFFFFFFF or 0). */
export function markUnsupported<F extends (...args: never[]) => unknown>(fn: F): F {
  UNSUPPORTED_STUBS.add(fn);
  return fn;
}

/**
 * Which of the three states a slot is in.
 * @example slotState(createHalDevice("trn3").khal, "rdm_init") // "unsupported"
 */
export function slotState(table: KhalTable, name: KhalSlotName): SlotState {
  const fn = table[name];
  if (fn === undefined) return "absent";
  return UNSUPPORTED_STUBS.has(fn) ? "unsupported" : "present";
}

/** The spec of a slot by name. */
export function khalSlotSpec(name: KhalSlotName): KhalSlotSpec {
  return KHAL_SLOTS.find((s) => s.name === name) as KhalSlotSpec;
}
