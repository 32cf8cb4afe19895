/**
 * Element codes as the vector files write them: an element's bits as big-endian hex digits, two per
 * byte of its dtype (`3f80` is bf16 1.0), and the little-endian bytes the device holds.
 */
import { fromHex, toHex } from "../bits/index.js";
import { type Dtype, dtypeBytes } from "../spec/dtype.js";

/** The little-endian bytes of codes of `dt`. */
export function codesToBytes(dt: Dtype, codes: readonly string[]): Uint8Array {
  const width = dtypeBytes(dt);
  const out = new Uint8Array(codes.length * width);
  codes.forEach((c, i) => {
    if (c.length !== width * 2)
      throw new TypeError(`code ${JSON.stringify(c)} is not ${width * 2} hex digits`);
    out.set(fromHex(c).reverse(), i * width);
  });
  return out;
}

/** The codes of little-endian bytes of `dt`. */
export function bytesToCodes(dt: Dtype, bytes: Uint8Array): string[] {
  const width = dtypeBytes(dt);
  const codes: string[] = [];
  for (let at = 0; at < bytes.length; at += width) codes.push(toHex(bytes.slice(at, at + width).reverse()));
  return codes;
}

/** A code of `dt` from an unsigned integer (taken modulo 2^bits). */
export function code(dt: Dtype, value: bigint | number): string {
  const width = dtypeBytes(dt);
  return BigInt.asUintN(width * 8, BigInt(value))
    .toString(16)
    .padStart(width * 2, "0");
}
