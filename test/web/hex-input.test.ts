/** The explorer's input side in Node: hex as people paste it, and the layout guess. */
import { describe, expect, it } from "vitest";
import { DecodeError, toHex } from "../../src/bits/index.js";
import { FMA_DESC, GCE_HEADER, S3D3 } from "../../src/spec/index.js";
import { formatHex, parseHexInput } from "../../web/src/hex-input.js";
import { guessLayouts } from "../../web/src/layout-guess.js";

const FMA_HEX = "0000800000001002000000090000003f";

describe("parseHexInput", () => {
  it.each([
    [FMA_HEX, "bytes"],
    ["00 00 80 00 00 00 10 02 00 00 00 09 00 00 00 3f", "bytes"],
    [
      "0x00, 0x00, 0x80, 0x00, 0x00, 0x00, 0x10, 0x02, 0x00, 0x00, 0x00, 0x09, 0x00, 0x00, 0x00, 0x3f",
      "bytes",
    ],
    ["0x00800000 0x02100000 0x09000000 0x3f000000", "words"],
    ["{0x00800000, 0x02100000,\n 0x09000000, 0x3f000000};", "words"],
  ] as const)("reads %j as the same 16 bytes (%s)", (text, read) => {
    const parsed = parseHexInput(text, "auto");
    expect(toHex(parsed.bytes)).toBe(FMA_HEX);
    expect(parsed.read).toBe(read);
  });

  it("forced word order reads a digit run as 8-digit words; bytes order reads 0x words as bytes", () => {
    expect(toHex(parseHexInput("008000000210000009000000 3f000000", "words").bytes)).toBe(FMA_HEX);
    expect(toHex(parseHexInput("0x00800000", "bytes").bytes)).toBe("00800000");
  });

  it("writes bytes back in the form they were read", () => {
    const bytes = parseHexInput(FMA_HEX, "auto").bytes;
    expect(formatHex(bytes, "bytes")).toBe(FMA_HEX);
    expect(formatHex(bytes, "words")).toBe("0x00800000 0x02100000 0x09000000 0x3f000000");
  });

  it("refuses what is not hex with a DecodeError naming it", () => {
    expect(() => parseHexInput("00 zz", "auto")).toThrow(DecodeError);
    expect(() => parseHexInput("0x1 0x123456789", "words")).toThrow(/word 1 "0x123456789"/);
    expect(() => parseHexInput("abc", "bytes")).toThrow(/odd number of hex digits/);
  });
});

describe("guessLayouts", () => {
  it("picks the layout whose constant bits hold, the most specific first", () => {
    expect(guessLayouts(parseHexInput(FMA_HEX, "auto").bytes)[0]).toBe(FMA_DESC);
    expect(guessLayouts(GCE_HEADER.encode({}))[0]).toBe(GCE_HEADER);
    expect(guessLayouts(new Uint8Array(64))[0]).toBe(S3D3);
  });

  it("offers nothing for a length no layout has", () => {
    expect(guessLayouts(new Uint8Array(5))).toEqual([]);
  });
});
