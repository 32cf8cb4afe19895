/**
 * Float fields survive `decode --json` → `encode` bit for bit (review D9): −0, NaN with its payload and
 * ±Inf come out as their binary32 bits, which encode takes back; every f32 field's bits sit beside.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { decodeCommand, encodeCommand } from "../../src/cli/index.js";
import { runInProcess } from "../helpers/cli.js";

const FMA = "000080000000100200000009"; // fma-desc W0..W2 of the seed's example; W3 is the scale
const le = (bits: number) =>
  Array.from(new Uint8Array(Uint32Array.of(bits).buffer), (b) => b.toString(16).padStart(2, "0")).join("");

async function roundTrip(layout: string, hex: string) {
  const dec = await runInProcess(decodeCommand, [layout, hex, "--json"]);
  expect(dec.status).toBe(0);
  const j = JSON.parse(dec.stdout) as { fields: Record<string, unknown>; f32Bits: Record<string, string> };
  const enc = await runInProcess(encodeCommand, [layout, JSON.stringify(j.fields)]);
  return { j, hex: enc.stdout.trim(), status: enc.status };
}

describe("decode --json / encode keep float bits (D9)", () => {
  const cases: [string, number, unknown][] = [
    ["−0", 0x80000000, "0x80000000"],
    ["NaN", 0x7fc00001, "0x7fc00001"],
    ["a signalling NaN with payload", 0xff800123, "0xff800123"],
    ["+Inf", 0x7f800000, "0x7f800000"],
    ["−Inf", 0xff800000, "0xff800000"],
    ["0.5", 0x3f000000, 0.5],
    ["a subnormal", 0x00000001, 2 ** -149],
  ];
  for (const [what, bits, json] of cases) {
    it(what, async () => {
      const r = await roundTrip("fma-desc", FMA + le(bits));
      expect(r.j.fields.scale).toEqual(json);
      expect(r.j.f32Bits.scale).toBe(`0x${bits.toString(16).padStart(8, "0")}`);
      expect(r.status).toBe(0);
      expect(r.hex).toBe(FMA + le(bits));
    });
  }

  it("any scale bits round-trip", async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: 0xffffffff }), async (bits) => {
        expect((await roundTrip("fma-desc", FMA + le(bits))).hex).toBe(FMA + le(bits));
      }),
      { numRuns: 300 },
    );
  });

  it("text output says −0 and a NaN's bits", async () => {
    expect((await runInProcess(decodeCommand, ["fma-desc", FMA + le(0x80000000)])).stdout).toMatch(
      /scale\s+-0\n/,
    );
    expect((await runInProcess(decodeCommand, ["fma-desc", FMA + le(0x7fc00001)])).stdout).toMatch(
      /scale\s+NaN \(0x7fc00001\)\n/,
    );
  });

  it("encode takes -0 from JSON as −0, and refuses other strings for a float", async () => {
    expect((await runInProcess(encodeCommand, ["fma-desc", '{"scale":-0}'])).stdout.trim()).toMatch(
      /00000080$/,
    );
    await expect(runInProcess(encodeCommand, ["fma-desc", '{"scale":"NaN"}'])).rejects.toThrow(
      /fma-desc\(scale\): "NaN" is not a number or binary32 bits as 0x/,
    );
  });
});
