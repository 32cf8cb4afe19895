import { UsageError } from "../bits/errors.js";

/** The integer typed arrays the codecs view raw bytes through. */
export type WordArray = Int8Array | Uint8Array | Int16Array | Uint16Array | Int32Array | Uint32Array;

/** The constructor of a {@link WordArray} (Int8Array, Uint16Array, ...). */
export interface WordArrayConstructor<T extends WordArray> {
  readonly BYTES_PER_ELEMENT: number;
  new (length: number): T;
  new (buffer: ArrayBufferLike, byteOffset: number, length: number): T;
}

// Device memory is little-endian; a typed-array view reads in host order. Every host Node 20
// ships for but s390x is little-endian; refuse rather than silently swap.
export const HOST_IS_LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

function checkHost(): void {
  if (!HOST_IS_LITTLE_ENDIAN) throw new UsageError("numerics: typed-array codecs need a little-endian host");
}

function isAligned(bytes: Uint8Array, byteOffset: number, width: number): boolean {
  return (bytes.byteOffset + byteOffset) % width === 0;
}

/**
 * `count` little-endian words starting at `bytes[byteOffset]`: a view when the address is aligned
 * to the word size (no copy, the usual case), else an aligned copy of those bytes.
 */
export function readWords<T extends WordArray>(
  Ctor: WordArrayConstructor<T>,
  bytes: Uint8Array,
  byteOffset: number,
  count: number,
): T {
  checkHost();
  const width = Ctor.BYTES_PER_ELEMENT;
  if (isAligned(bytes, byteOffset, width)) {
    return new Ctor(bytes.buffer, bytes.byteOffset + byteOffset, count);
  }
  return new Ctor(bytes.slice(byteOffset, byteOffset + count * width).buffer, 0, count);
}

/**
 * Somewhere to write `count` words destined for `bytes[byteOffset]`: a view of `bytes` when
 * aligned, else scratch that {@link commitWords} copies into place.
 */
export function wordsToWrite<T extends WordArray>(
  Ctor: WordArrayConstructor<T>,
  bytes: Uint8Array,
  byteOffset: number,
  count: number,
): T {
  checkHost();
  if (isAligned(bytes, byteOffset, Ctor.BYTES_PER_ELEMENT)) return readWords(Ctor, bytes, byteOffset, count);
  return new Ctor(count);
}

/** Finish a {@link wordsToWrite}: copy scratch words into `bytes`; a view needs nothing. */
export function commitWords(words: ArrayBufferView, bytes: Uint8Array, byteOffset: number): void {
  if (words.buffer === bytes.buffer) return;
  bytes.set(new Uint8Array(words.buffer, words.byteOffset, words.byteLength), byteOffset);
}
