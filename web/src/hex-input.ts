/**
 * Hex as people paste it: one run of digits (`0000800000001002…`), bytes with spaces or `0x`
 * (`00 00 80 00`, `0x00, 0x00, …`), or little-endian u32 words as a dump or a C array prints them
 * (`0x00800000 0x02100000 …`, `{0x00800000, 0x02100000}`). Bytes go to the library's `fromHex`.
 */
import { DecodeError, fromHex, hex32, toHex, wordsOf } from "../../src/bits/index.js";

/** How the text is read: as bytes in memory order, as little-endian u32 words, or guessed. */
export type HexOrder = "auto" | "bytes" | "words";

const SEPARATORS = /[\s,;{}[\]]+/;

/** True when every token is a `0x` number wider than a byte: a word dump. */
function looksLikeWords(tokens: readonly string[]): boolean {
  return tokens.length > 0 && tokens.every((t) => /^0x[0-9a-f]{3,8}$/i.test(t));
}

/** The bytes of little-endian u32 words (`0x` optional, up to 8 digits each; longer runs in 8-digit steps). */
function wordsToBytes(tokens: readonly string[]): Uint8Array {
  // A digit run longer than one word (no 0x) is consecutive 8-digit words, as a dump without spaces prints them.
  const words = tokens.flatMap((t) =>
    /^0x/i.test(t) || t.length <= 8 || t.length % 8 !== 0 ? [t] : (t.match(/.{8}/g) ?? []),
  );
  const out = new Uint8Array(words.length * 4);
  const view = new DataView(out.buffer);
  words.forEach((w, i) => {
    const digits = w.replace(/^0x/i, "");
    if (!/^[0-9a-f]{1,8}$/i.test(digits))
      throw new DecodeError(`word ${i} ${JSON.stringify(w)} is not a u32 in hex (1 to 8 digits)`);
    view.setUint32(i * 4, Number.parseInt(digits, 16), true);
  });
  return out;
}

/**
 * Parse pasted hex.
 * @throws DecodeError naming the token that is not hex.
 * @example parseHexInput("0x00800000 0x02100000", "auto").read; // "words"
 */
export function parseHexInput(text: string, order: HexOrder): { bytes: Uint8Array; read: "bytes" | "words" } {
  const tokens = text
    .trim()
    .split(SEPARATORS)
    .filter((t) => t !== "");
  const read = order === "auto" ? (looksLikeWords(tokens) ? "words" : "bytes") : order;
  if (read === "words") return { bytes: wordsToBytes(tokens), read };
  return { bytes: fromHex(tokens.map((t) => t.replace(/^0x/i, "")).join("")), read };
}

/** Bytes as the user wrote them: a digit run, or `0x` words when they pasted words. */
export function formatHex(bytes: Uint8Array, read: "bytes" | "words"): string {
  return read === "bytes" ? toHex(bytes) : wordsOf(bytes).map(hex32).join(" ");
}
