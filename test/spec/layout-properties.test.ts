// Properties every declared layout must have: decode(encode(x)) = x for valid x; any byte string of
// the right length decodes (issues are reported, not thrown) or raises a typed error; values outside
// a field's range are refused with a FieldError naming the field.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { FieldError, type Layout, type Leaf, SdmakitError } from "../../src/bits/index.js";
import { LAYOUTS } from "../../src/spec/index.js";

/** One union arm per union, chosen by index. */
function leavesOfOneArmEach(layout: Layout, pick: number): Leaf[] {
  const chosen = new Map<string, string>();
  for (const l of layout.leaves) {
    for (const arm of l.arms) {
      const union = arm.slice(0, arm.lastIndexOf("|"));
      if (!chosen.has(union)) {
        const arms = [
          ...new Set(layout.leaves.flatMap((x) => x.arms).filter((a) => a.startsWith(`${union}|`))),
        ];
        chosen.set(union, arms[pick % arms.length] as string);
      }
    }
  }
  return layout.leaves.filter((l) => l.arms.every((a) => chosen.get(a.slice(0, a.lastIndexOf("|"))) === a));
}

function valueArb(l: Leaf): fc.Arbitrary<unknown> {
  switch (l.kind) {
    case "bool":
      return fc.boolean();
    case "f32":
      return fc.float({ noNaN: true });
    case "enum":
      return fc.constantFrom(...Object.keys(l.names ?? {}).map(Number));
    case "int":
      return fc.integer({ min: -(2 ** (l.width - 1)), max: 2 ** (l.width - 1) - 1 });
    case "uint":
      if (l.zeroMeans !== undefined)
        return fc.oneof(fc.integer({ min: 1, max: 2 ** l.width - 1 }), fc.constant(l.zeroMeans));
      return l.width <= 32
        ? fc.integer({ min: 0, max: 2 ** l.width - 1 })
        : fc.bigInt({ min: 0n, max: 2n ** BigInt(l.width) - 1n });
    default:
      return fc.constant(undefined);
  }
}

function fieldsArb(layout: Layout): fc.Arbitrary<Record<string, unknown>> {
  return fc.nat(7).chain((pick) => {
    const settable = leavesOfOneArmEach(layout, pick).filter(
      (l) => l.kind !== "const" && l.kind !== "reserved",
    );
    return fc.record(Object.fromEntries(settable.map((l) => [l.path, valueArb(l)])));
  });
}

describe.each(LAYOUTS.map((l) => [l.name, l] as const))("layout %s", (_name, layout) => {
  it("decode(encode(x)) = x, with no issues", () => {
    fc.assert(
      fc.property(fieldsArb(layout), (fields) => {
        const bytes = layout.encode(fields);
        const back = layout.decode(bytes);
        for (const [k, v] of Object.entries(fields))
          expect(Object.is(back[k], v) || back[k] === v).toBe(true);
        expect(layout.issues(bytes)).toEqual([]);
      }),
      { numRuns: 200 },
    );
  });

  it("any bytes of the right length decode or raise a typed error", () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: layout.bytes, maxLength: layout.bytes }), (bytes) => {
        try {
          layout.decode(bytes);
          layout.issues(bytes);
        } catch (e) {
          expect(e).toBeInstanceOf(SdmakitError);
        }
      }),
      { numRuns: 200 },
    );
  });

  it("refuses a value one past each integer field's range", () => {
    for (const l of layout.leaves.filter((x) => x.kind === "uint" || x.kind === "int")) {
      let max = l.kind === "int" ? 2n ** BigInt(l.width - 1) : 2n ** BigInt(l.width);
      if (l.zeroMeans !== undefined && BigInt(l.zeroMeans) === max) max += 1n;
      const attempt = () => layout.encode({ [l.path]: l.width < 32 ? Number(max) : max });
      expect(attempt).toThrow(FieldError);
      expect(attempt).toThrow(`${layout.name}(${l.path})`);
    }
  });

  it("refuses 0 for a field whose raw 0 stands for another value", () => {
    for (const l of layout.leaves.filter((x) => x.zeroMeans !== undefined)) {
      expect(() => layout.encode({ [l.path]: 0 })).toThrow(`${layout.name}(${l.path})`);
      expect(layout.decode(layout.encode({ [l.path]: l.zeroMeans }))[l.path]).toBe(l.zeroMeans);
      expect(layout.read(l.path, new Uint8Array(layout.bytes))).toBe(l.zeroMeans);
    }
  });
});
