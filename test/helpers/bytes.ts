import { expect } from "vitest";

/**
 * Assert two lists of byte arrays are equal, byte for byte. vitest's deep toEqual walks a typed
 * array element by element (≈ 2.6 s for 16 × 64 KiB), so a test comparing whole outputs spent most
 * of its time in the matcher; this compares with Buffer.equals and names the first difference.
 */
export function expectSameBytes(
  actual: readonly Uint8Array[],
  expected: readonly Uint8Array[],
  what = "",
): void {
  expect(actual.length, `${what}: buffers`).toBe(expected.length);
  for (let i = 0; i < actual.length; i++) {
    const a = actual[i] as Uint8Array;
    const b = expected[i] as Uint8Array;
    if (Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(b)) continue;
    let at = 0;
    while (at < Math.min(a.length, b.length) && a[at] === b[at]) at++;
    expect(
      { buffer: i, byte: at, length: a.length, value: a[at] },
      `${what}: buffer ${i} differs first at byte ${at}`,
    ).toEqual({ buffer: i, byte: at, length: b.length, value: b[at] });
  }
}

/** `bytes` pseudo-random bytes from `seed` (an LCG's top byte): codes of every kind, NaN and inf included. */
export function scrambledCodes(bytes: number, seed: number): Uint8Array {
  const out = new Uint8Array(bytes);
  let x = seed;
  for (let i = 0; i < bytes; i++) {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    out[i] = x >>> 24;
  }
  return out;
}
