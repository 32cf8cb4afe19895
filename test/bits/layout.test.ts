import { describe, expect, it } from "vitest";
import {
  array,
  bool,
  compileLayout,
  constant,
  DecodeError,
  enumField,
  FieldError,
  f32,
  int,
  type Layout,
  LayoutDefinitionError,
  reserved,
  struct,
  uint,
  union,
} from "../../src/bits/index.js";

const demo = compileLayout({
  name: "demo",
  bytes: 16,
  doc: "test layout",
  source: "test",
  fields: [
    uint("lo", 0, 3),
    bool("flag", 3),
    int("delta", 4, 12),
    constant("tag", 16, 4, { value: 0xa }),
    enumField("mode", 20, 2, { names: { 0: "OFF", 1: "ON" } }),
    reserved("pad", 22, 2),
    f32("scale", 32),
    uint("addr", 64, 64),
  ],
});

describe("compileLayout checks itself", () => {
  it("refuses overlapping fields", () => {
    expect(() =>
      compileLayout({ name: "x", bytes: 4, doc: "", source: "", fields: [uint("a", 0, 8), uint("b", 7, 2)] }),
    ).toThrow(LayoutDefinitionError);
  });
  it("refuses a field past the end", () => {
    expect(() =>
      compileLayout({ name: "x", bytes: 4, doc: "", source: "", fields: [uint("a", 30, 3)] }),
    ).toThrow(/runs past the end/);
  });
  it("refuses a constant that does not fit", () => {
    expect(() =>
      compileLayout({
        name: "x",
        bytes: 4,
        doc: "",
        source: "",
        fields: [constant("c", 0, 2, { value: 4 })],
      }),
    ).toThrow(/does not fit/);
  });
  it("lets union arms share bits but not fields of one arm", () => {
    const ok = () =>
      compileLayout({
        name: "u",
        bytes: 4,
        doc: "",
        source: "",
        fields: [union("", 0, { a: [uint("x", 0, 32)], b: [uint("y", 0, 8)] })],
      });
    expect(ok).not.toThrow();
    const bad = () =>
      compileLayout({
        name: "u",
        bytes: 4,
        doc: "",
        source: "",
        fields: [union("", 0, { a: [uint("x", 0, 8), uint("y", 4, 8)] })],
      });
    expect(bad).toThrow(LayoutDefinitionError);
  });
});

describe("encode / decode", () => {
  it("packs little-endian from bit 0 of byte 0, constants always set", () => {
    const bytes = demo.encode({
      lo: 5,
      flag: true,
      delta: -1,
      mode: "ON",
      scale: 1.5,
      addr: 0x8070_0000_0001n,
    });
    expect([...bytes.subarray(0, 4)]).toEqual([0xfd, 0xff, 0x1a, 0x00]);
    const d = demo.decode(bytes);
    expect(d).toMatchObject({
      lo: 5,
      flag: true,
      delta: -1,
      tag: 0xa,
      mode: 1,
      scale: 1.5,
      addr: 0x8070_0000_0001n,
    });
  });
  it("keeps 64-bit addresses exact (bigint or decimal string in, bigint out)", () => {
    const big = 2n ** 63n + 12345n;
    const loose: Layout = demo; // a decimal string is accepted where the type is not known
    expect(loose.decode(loose.encode({ addr: big.toString() })).addr).toBe(big);
    expect(demo.decode(demo.encode({ addr: big })).addr).toBe(big);
  });
  it("accepts nested objects and arrays for dotted names", () => {
    const l = compileLayout({
      name: "n",
      bytes: 8,
      doc: "",
      source: "",
      fields: [
        struct("s", 0, [uint("a", 0, 8)]),
        array("v", 8, { count: 3, strideBits: 8 }, [uint("", 0, 8)]),
      ],
    });
    const loose: Layout = l; // nested input is for layouts picked at run time (JSON)
    expect([...loose.encode({ s: { a: 1 }, v: [2, 3, 4] }).subarray(0, 4)]).toEqual([1, 2, 3, 4]);
    expect(l.decode(l.encode({ "v.2": 9 }))["v.2"]).toBe(9);
  });
});

describe("errors name the field, the value and the allowed range", () => {
  it.each([
    [{ lo: 8 }, "demo(lo): 8 is out of range 0..7"],
    [{ delta: 2048 }, "demo(delta): 2048 is out of range -2048..2047"],
    [{ mode: 3 }, "demo(mode): 3 is not one of 0 (OFF), 1 (ON)"],
    [{ mode: "HALF" }, 'demo(mode): unknown name "HALF"'],
    [{ pad: 1 }, "demo(pad): is reserved and must be 0; got 1"],
    [{ tag: 3 }, "demo(tag): is the constant 10; got 3"],
    [{ flag: "yes" }, 'demo(flag): "yes" is not a boolean'],
    [{ lo: 1.5 }, "demo(lo): 1.5 is not an integer"],
    [{ nope: 1 }, "demo(nope): unknown field"],
    [{ addr: -1 }, "demo(addr): -1 is out of range 0..18446744073709551615"],
    [{ scale: 1e39 }, "demo(scale): 1e+39 overflows binary32"],
  ])("%j → %s", (fields, message) => {
    const attempt = () => (demo as Layout).encode(fields);
    expect(attempt).toThrow(FieldError);
    expect(attempt).toThrow(message);
  });
  it("decode of the wrong length is a DecodeError", () => {
    expect(() => demo.decode(new Uint8Array(15))).toThrow(DecodeError);
  });
});

describe("issues() reports what a well-formed value would not have", () => {
  it("reserved, constant, unknown enum and undeclared bits", () => {
    const bytes = demo.encode({});
    bytes[2] = (bytes[2] as number) & ~0x0f; // tag = 0
    bytes[2] = (bytes[2] as number) | 0xe0; // mode = 2 (unknown), pad bit 22 set
    bytes[3] = 0x80; // bit 31: undeclared
    const kinds = demo.issues(bytes).map((i) => `${i.kind}:${i.field}`);
    expect(kinds).toEqual(["const:tag", "enum:mode", "reserved:pad", "undeclared:bits 31..31"]);
  });
});

describe("wellFormed() is issues() finding nothing", () => {
  it("on a clean value, each kind of issue alone, and random bytes at an offset", () => {
    const clean = demo.encode({});
    expect(demo.wellFormed(clean)).toBe(true);
    for (const [at, bits] of [
      [2, 0x0f], // tag
      [2, 0x20], // mode 2
      [2, 0x40], // pad
      [3, 0x80], // undeclared
    ] as const) {
      const b = clean.slice();
      b[at] = (b[at] as number) ^ bits;
      expect([demo.wellFormed(b), demo.issues(b).length === 0]).toEqual([false, false]);
    }
    let x = 0x1234567;
    for (let k = 0; k < 500; k++) {
      const b = new Uint8Array(20);
      for (let i = 0; i < b.length; i++) {
        x = (Math.imul(x, 1103515245) + 12345) >>> 0;
        b[i] = x >>> 24;
      }
      expect(demo.wellFormed(b, 3)).toBe(demo.issues(b, 3).length === 0);
    }
  });
});

describe("decode / issues / read / encodeInto refuse what is not bytes at an integer offset (review D14)", () => {
  const bytes = new Uint8Array(32);
  const calls: [string, (offset: unknown, b?: unknown) => unknown][] = [
    ["decode", (o, b = bytes) => demo.decode(b as Uint8Array, o as number)],
    ["issues", (o, b = bytes) => demo.issues(b as Uint8Array, o as number)],
    ["wellFormed", (o, b = bytes) => demo.wellFormed(b as Uint8Array, o as number)],
    ["read", (o, b = bytes) => demo.read("lo", b as Uint8Array, o as number)],
    ["encodeInto", (o, b = bytes) => demo.encodeInto({}, b as Uint8Array, o as number)],
  ];
  for (const [name, call] of calls) {
    it(name, () => {
      for (const o of [Number.NaN, 0.5, -1, Number.POSITIVE_INFINITY, "1", 2 ** 53])
        expect(() => call(o)).toThrow(
          new RangeError(`demo: offset ${String(o)} is not a non-negative integer`),
        );
      expect(() => call(0, new Uint16Array(16))).toThrow(/demo: .* must be a Uint8Array, got Uint16Array/);
      expect(() => call(0, null)).toThrow(/must be a Uint8Array, got null/);
      expect(() => call(0, [1, 2])).toThrow(/got Array/);
      expect(() => call(16)).not.toThrow();
    });
  }
});
