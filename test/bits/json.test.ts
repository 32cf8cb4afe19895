// JSON text within bounds (bits/json.ts): size in UTF-8 bytes and nesting depth measured without
// recursion before parsing; over a bound, a JsonLimitError naming the source, the limit and the found.
import { describe, expect, it } from "vitest";
import { JSON_LIMITS, JsonLimitError, jsonExtent, parseJsonText, UsageError } from "../../src/bits/index.js";
import { thrown } from "../helpers/thrown.js";

/** What `f` throws. */

describe("jsonExtent", () => {
  it.each([
    ["1", 1, 0],
    ["[]", 2, 1],
    ['{"a": [[0, 1], [2]]}', 20, 3],
    ['"[[[{{{"', 8, 0],
    ['["\\"[[", ["é"]]', 16, 2],
    ['"€😀"', 9, 0],
  ])("%s: %d bytes, depth %d", (text, bytes, depth) => {
    expect(jsonExtent(text)).toEqual({ bytes, depth });
  });

  it("measures 1,000,000 levels without recursion", () => {
    const n = 1_000_000;
    expect(jsonExtent("[".repeat(n) + "]".repeat(n))).toEqual({ bytes: 2 * n, depth: n });
  });
});

describe("parseJsonText", () => {
  it("parses JSON within the bounds, up to the depth limit exactly", () => {
    expect(parseJsonText("fields", '{"a": [1, 2]}')).toEqual({ a: [1, 2] });
    const deepest = "[".repeat(JSON_LIMITS.maxDepth) + "]".repeat(JSON_LIMITS.maxDepth);
    expect(() => parseJsonText("fields", deepest)).not.toThrow();
  });

  it("refuses deep JSON before parsing: the source, the limit and the depth found", () => {
    const n = 100_000;
    const e = thrown(() => parseJsonText("arguments", `${'{"a":'.repeat(n)}1${"}".repeat(n)}`));
    expect(e).toBeInstanceOf(JsonLimitError);
    expect(e).toBeInstanceOf(UsageError);
    expect(e).toMatchObject({ source: "arguments", limit: "depth", max: 64, found: n, code: "USAGE" });
    expect((e as Error).message).toBe(`arguments: JSON nested ${n} deep; at most 64 levels`);
  });

  it("refuses text over the byte bound, counted in UTF-8", () => {
    const e = thrown(() => parseJsonText("build request", '"éé"', { maxBytes: 5, maxDepth: 4 }));
    expect(e).toMatchObject({ limit: "bytes", max: 5, found: 6 });
    expect((e as Error).message).toBe("build request: 6 bytes; at most 5 bytes of JSON");
  });

  it("names the source for text that is not JSON", () => {
    const e = thrown(() => parseJsonText("fields", "{not json"));
    expect(e).toBeInstanceOf(UsageError);
    expect(e).not.toBeInstanceOf(JsonLimitError);
    expect((e as Error).message).toMatch(/^fields: not JSON \(/);
  });
});
