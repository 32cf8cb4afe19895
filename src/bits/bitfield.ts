/**
 * Little-endian bit access on a byte array: bit b of a region is bit (b & 7) of byte (b >> 3).
 * Fields of up to 32 bits stay in JS numbers (the span they touch is at most 5 bytes, 40 bits,
 * which a double holds exactly); wider fields use bigint so 64-bit addresses are exact.
 */

const TWO_POW = Array.from({ length: 41 }, (_, i) => 2 ** i);

/** Read an unsigned field of width ≤ 32 as a number. */
export function readBits(bytes: Uint8Array, base: number, bit: number, width: number): number {
  const first = base + (bit >> 3);
  const shift = bit & 7;
  const span = (shift + width + 7) >> 3;
  let acc = 0;
  for (let i = span - 1; i >= 0; i--) acc = acc * 256 + (bytes[first + i] as number);
  return Math.floor(acc / (TWO_POW[shift] as number)) % (TWO_POW[width] as number);
}

/** Write an unsigned field of width ≤ 32 from a number already known to fit. */
export function writeBits(bytes: Uint8Array, base: number, bit: number, width: number, value: number): void {
  let pos = bit;
  let left = width;
  let v = value;
  while (left > 0) {
    const at = base + (pos >> 3);
    const shift = pos & 7;
    const n = Math.min(8 - shift, left);
    const lowMask = (1 << n) - 1;
    const mask = lowMask << shift;
    bytes[at] = ((bytes[at] as number) & ~mask) | ((v & lowMask) << shift);
    v = Math.floor(v / (1 << n));
    pos += n;
    left -= n;
  }
}

/** Read an unsigned field of any width as a bigint. */
export function readBigBits(bytes: Uint8Array, base: number, bit: number, width: number): bigint {
  const first = base + (bit >> 3);
  const shift = BigInt(bit & 7);
  const span = ((bit & 7) + width + 7) >> 3;
  let acc = 0n;
  for (let i = span - 1; i >= 0; i--) acc = (acc << 8n) | BigInt(bytes[first + i] as number);
  return (acc >> shift) & ((1n << BigInt(width)) - 1n);
}

/** Write an unsigned field of any width from a bigint already known to fit, 32 bits at a time. */
export function writeBigBits(
  bytes: Uint8Array,
  base: number,
  bit: number,
  width: number,
  value: bigint,
): void {
  for (let done = 0; done < width; done += 32) {
    const n = Math.min(32, width - done);
    writeBits(bytes, base, bit + done, n, Number(BigInt.asUintN(n, value >> BigInt(done))));
  }
}

const f32Scratch = new Float32Array(1);
const u32Scratch = new Uint32Array(f32Scratch.buffer);

/** The float value of binary32 bits. */
export function f32FromBits(bits: number): number {
  u32Scratch[0] = bits;
  return f32Scratch[0] as number;
}

/** The binary32 bits of a number (rounded to f32 first). */
export function f32ToBits(value: number): number {
  f32Scratch[0] = value;
  return u32Scratch[0] as number;
}
