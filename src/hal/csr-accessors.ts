/**
 * The inline-dispatch CSR accessors of seed 003 §1, derived from the family table: read the arch,
 * skip silently when the family's gate is off for it, bound-check the index (al_abort_program(-1)),
 * then write or read `base + stride(arch)·index + field`.
 */
import { MAX_U32, uintArg } from "../bits/arg-check.js";
import { FieldError, SdmaAbortError } from "../bits/errors.js";
import type { ArchProfile } from "./arch-profile.js";
import { CSR_FAMILIES, type CsrFamily } from "./csr-families.js";
import { archOf, type HalDevice } from "./hal-device.js";

export interface CsrAccessor {
  /** The libnrt symbol: `aws_reg_write_<family>_<field>` / `aws_reg_read_<family>_<field>`. */
  readonly symbol: string;
  readonly op: "write" | "read";
  readonly family: CsrFamily;
  readonly field: string;
}

/** Which register of a family: the block's `base` and the register's `index` in it. */
export interface CsrSlot {
  readonly base: bigint;
  readonly index: number;
}

/** The per-index stride of a family on an arch. */
export function csrStride(family: CsrFamily, p: ArchProfile): number {
  return typeof family.stride === "number" ? family.stride : family.stride(p);
}

/**
 * `base + stride·index + field` for one accessor on one arch, after the bound check.
 * @throws SdmaAbortError when index ≥ the family's count (or is not a non-negative integer).
 */
export function csrAddress(p: ArchProfile, acc: CsrAccessor, at: CsrSlot): bigint {
  const { family } = acc;
  const { base, index } = at;
  if (!Number.isInteger(index) || index < 0 || index >= family.count) {
    throw new SdmaAbortError(
      acc.symbol,
      `index < ${family.countName} (index ${index}, count ${family.count})`,
    );
  }
  const field = family.fields[acc.field];
  if (field === undefined)
    throw new FieldError(family.name, "field", acc.field, Object.keys(family.fields).join(" | "));
  return base + BigInt(csrStride(family, p) * index + field.offset);
}

/**
 * Run a write accessor. A family gated off for the arch is a silent no-op (no write, no bound
 * check), as aws_reg_write_xt_local_reg on SUNDA.
 * @returns the address written, or undefined for the silent no-op.
 * @throws SdmaAssertError from the arch read; SdmaAbortError on an index out of range; FieldError
 *   when value is not a u32.
 * @example csrWrite(dev, csrAccessor("aws_reg_write_xt_local_reg"), { base: 0x1000n, index: 38 }, 1)
 */
export function csrWrite(dev: HalDevice, acc: CsrAccessor, at: CsrSlot, value: number): bigint | undefined {
  const p = archOf(dev);
  if (acc.family.gate && !acc.family.gate(p)) return undefined;
  const addr = csrAddress(p, acc, at);
  dev.regs.write32(addr, uintArg(acc.symbol, "value", value, MAX_U32), acc.symbol);
  return addr;
}

/**
 * Run a read accessor. Gated off: no read, returns 0 (MODEL: the seed only describes the write side
 * of the skip).
 * @throws as {@link csrWrite}.
 */
export function csrRead(dev: HalDevice, acc: CsrAccessor, at: CsrSlot): number {
  const p = archOf(dev);
  if (acc.family.gate && !acc.family.gate(p)) return 0;
  return dev.regs.read32(csrAddress(p, acc, at), acc.symbol);
}

function deriveAccessors(): Map<string, CsrAccessor> {
  const out = new Map<string, CsrAccessor>();
  for (const family of CSR_FAMILIES) {
    for (const field of Object.keys(family.fields)) {
      for (const op of ["write", "read"] as const) {
        const symbol = `aws_reg_${op}_${family.name}_${field}`;
        out.set(symbol, { symbol, op, family, field });
      }
    }
  }
  return out;
}

/** Every derived accessor by libnrt symbol. */
export const CSR_ACCESSORS: ReadonlyMap<string, CsrAccessor> = deriveAccessors();

/**
 * The accessor of a libnrt symbol.
 * @throws FieldError naming the symbol when there is none.
 */
export function csrAccessor(symbol: string): CsrAccessor {
  const acc = CSR_ACCESSORS.get(symbol);
  if (!acc)
    throw new FieldError(
      "csr-accessor",
      "symbol",
      symbol,
      "an aws_reg_write_* / aws_reg_read_* symbol of CSR_FAMILIES",
    );
  return acc;
}
