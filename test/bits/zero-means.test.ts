// A uint leaf whose raw 0 stands for another value (a 16-bit length of 65536 written as 0): the
// rule lives in the declaration, so encode, decode, the field readers and the checks all keep it.
import { describe, expect, it } from "vitest";
import { compileLayout, FieldError, LayoutDefinitionError, uint } from "../../src/bits/index.js";

const L = compileLayout({
  name: "zm",
  bytes: 4,
  doc: "",
  source: "test",
  fields: [uint("len", 0, 16, { zeroMeans: 65536 }), uint("tag", 16, 16)],
});

describe("uint(…, { zeroMeans })", () => {
  it("writes the special value as 0 and reads a raw 0 back as it", () => {
    expect([...L.encode({ len: 65536, tag: 1 })]).toEqual([0, 0, 1, 0]);
    expect(L.decode(new Uint8Array(4)).len).toBe(65536);
    expect(L.field("len").ofWord(0x0001_0000)).toBe(65536);
    expect(L.field("len").ofWord(0x0001_0040)).toBe(64);
    expect(L.field("len").read(new Uint8Array([0xff, 0xff, 0, 0]))).toBe(65535);
  });

  it("refuses 0 and one past the special value, naming the field and 1..65536", () => {
    for (const bad of [0, 65537, -1]) {
      const e = (() => {
        try {
          L.encode({ len: bad });
        } catch (x) {
          return x;
        }
      })();
      expect(e).toBeInstanceOf(FieldError);
      expect((e as FieldError).message).toMatch(/zm\(len\).*1\.\.65536/);
    }
  });

  it("is refused where it would be ambiguous or meaningless", () => {
    const decl =
      (zeroMeans: number, width = 16) =>
      () =>
        compileLayout({
          name: "bad",
          bytes: 4,
          doc: "",
          source: "test",
          fields: [uint("len", 0, width, { zeroMeans })],
        });
    expect(decl(300)).toThrow(LayoutDefinitionError); // 300 fits 16 bits: a raw 300 would mean it too
    expect(decl(2 ** 40, 32)).not.toThrow();
    expect(decl(1.5 * 2 ** 16)).not.toThrow();
    expect(decl(0.5)).toThrow(LayoutDefinitionError);
  });
});
