/**
 * The `layouts` set: every declared layout, fields → bytes (encode) and bytes → fields (decode),
 * with the reserved, constant, enum and undeclared bits a decode reports, enum codes that have no
 * name, and the inputs each encoder refuses (with the field it names). A group is one layout.
 */
import { FieldError, fromHex, type Layout, type Leaf, toHex } from "../../bits/index.js";
import { LAYOUTS, layoutByName } from "../../spec/index.js";
import { declarationJson, fieldJson, fieldsJson } from "../field-json.js";
import type { CaseInput, Json, JsonSchema, VectorRng, VectorSet } from "../vector-set.js";
import { LAYOUT_PINS } from "./layout-pins.js";

type Input =
  | { op: "encode"; layout: string; fields: Record<string, Json> }
  | { op: "decode"; layout: string; bytes: string };

const NAN_WITH_PAYLOAD = "0x7fc00001";
const NEG_ZERO = "0x80000000";

/** The largest in-range value of a leaf, as vector JSON (named enum codes only). */
function maxOf(l: Leaf): Json | undefined {
  switch (l.kind) {
    case "bool":
      return true;
    case "f32":
      return NAN_WITH_PAYLOAD;
    case "enum":
      return Math.max(...Object.keys(l.names ?? {}).map(Number));
    case "int":
      return l.width > 32 ? `0x${(2n ** BigInt(l.width - 1) - 1n).toString(16)}` : 2 ** (l.width - 1) - 1;
    case "uint":
      if (l.zeroMeans !== undefined) return l.zeroMeans;
      return l.width > 32 ? `0x${(2n ** BigInt(l.width) - 1n).toString(16)}` : 2 ** l.width - 1;
    default:
      return undefined;
  }
}

/** A value the encoder must refuse for this leaf, or undefined when every value of its type fits. */
function refusedOf(l: Leaf): Json | undefined {
  switch (l.kind) {
    case "bool":
      return 2;
    case "f32":
      return 1e39;
    case "enum": {
      for (let c = 0; c < 2 ** Math.min(l.width, 16); c++) if (l.names?.[c] === undefined) return c;
      return 2 ** l.width;
    }
    case "const":
      return (l.value as number) ^ 1;
    case "reserved":
      return 1;
    case "int":
      return l.width > 32 ? `-0x${(2n ** BigInt(l.width - 1) + 1n).toString(16)}` : -(2 ** (l.width - 1)) - 1;
    case "uint":
      // A raw 0 that stands for another value: 0 itself has no encoding.
      if (l.zeroMeans !== undefined) return 0;
      return l.width > 32 ? `0x${(2n ** BigInt(l.width)).toString(16)}` : 2 ** l.width;
    default:
      return l.width > 32 ? `0x${(2n ** BigInt(l.width)).toString(16)}` : 2 ** l.width;
  }
}

/** The first code of an enum leaf that has no name, if the field is narrow enough to have one. */
function unnamedCode(l: Leaf): number | undefined {
  if (l.kind !== "enum" || l.width > 16) return undefined;
  for (let c = 0; c < 2 ** l.width; c++) if (l.names?.[c] === undefined) return c;
  return undefined;
}

function withLeaf(layout: Layout, l: Leaf, raw: number): string {
  const bytes = new Uint8Array(layout.bytes);
  for (let b = 0; b < l.width; b++) {
    if (raw & (1 << b)) {
      const bit = l.bit + b;
      bytes[bit >> 3] = (bytes[bit >> 3] as number) | (1 << (bit & 7));
    }
  }
  return toHex(bytes);
}

/** Valid fields for one random case: random values, one union arm per union, no constants. */
function randomFields(layout: Layout, rng: VectorRng): Record<string, Json> {
  const bytes = rng.bytes(layout.bytes);
  const decoded = layout.decode(bytes) as Record<string, unknown>;
  const armOf = new Map<string, string>();
  const fields: Record<string, Json> = {};
  for (const l of layout.leaves) {
    if (l.kind === "const" || l.kind === "reserved") continue;
    const inArms = l.arms.every((a) => {
      const union = a.slice(0, a.lastIndexOf("|"));
      if (!armOf.has(union)) armOf.set(union, a);
      return armOf.get(union) === a;
    });
    if (!inArms) continue;
    const named = Object.keys(l.names ?? {}).map(Number);
    const v =
      l.kind === "enum"
        ? named.includes(decoded[l.path] as number)
          ? decoded[l.path]
          : rng.pick(named)
        : decoded[l.path];
    fields[l.path] = fieldJson(l, v, bytes);
  }
  return fields;
}

function* layoutInputs(layout: Layout, count: number, rng: VectorRng): Iterable<CaseInput> {
  const id = (rest: string) => `${layout.name}/${rest}`;
  const pins = LAYOUT_PINS[layout.name] ?? [];
  const enc = (rest: string, fields: Record<string, Json>, p: readonly string[] = []): CaseInput => ({
    id: id(`encode/${rest}`),
    pins: p,
    input: { op: "encode", layout: layout.name, fields },
  });
  const dec = (rest: string, bytes: string): CaseInput => ({
    id: id(`decode/${rest}`),
    input: { op: "decode", layout: layout.name, bytes },
  });
  yield enc("constants", {}, pins);
  for (const l of layout.leaves) {
    const max = maxOf(l);
    if (max !== undefined) yield enc(`max/${l.path}`, { [l.path]: max }, pins);
    if (l.kind === "f32") yield enc(`neg-zero/${l.path}`, { [l.path]: NEG_ZERO });
    if (l.kind === "int") yield enc(`min/${l.path}`, { [l.path]: -(2 ** (Math.min(l.width, 32) - 1)) });
  }
  for (const l of layout.leaves) {
    const bad = refusedOf(l);
    if (bad !== undefined) yield enc(`refused/${l.path}`, { [l.path]: bad });
  }
  yield dec("zeros", toHex(new Uint8Array(layout.bytes)));
  yield dec("ones", toHex(new Uint8Array(layout.bytes).fill(0xff)));
  for (const l of layout.leaves) {
    const code = unnamedCode(l);
    if (code !== undefined) yield dec(`unnamed/${l.path}`, withLeaf(layout, l, code));
  }
  for (let i = 0; i < count; i++) yield dec(`random/${i}`, toHex(rng.bytes(layout.bytes)));
  for (let i = 0; i < count; i++) yield enc(`random/${i}`, randomFields(layout, rng));
}

function layoutOf(name: unknown): Layout {
  const layout = typeof name === "string" ? layoutByName(name) : undefined;
  if (!layout) throw new TypeError(`layouts: unknown layout ${JSON.stringify(name)}`);
  return layout;
}

function run(input: Json): Json {
  const i = input as Input;
  const layout = layoutOf(i.layout);
  if (i.op === "decode") {
    const bytes = fromHex(i.bytes);
    return {
      fields: fieldsJson(layout, bytes),
      issues: layout.issues(bytes).map((x) => ({ kind: x.kind, field: x.field })),
    };
  }
  try {
    return { bytes: toHex(layout.encode(i.fields as Record<string, unknown>)) };
  } catch (e) {
    if (!(e instanceof FieldError)) throw e;
    return { error: { code: e.code, field: e.field, message: e.message } };
  }
}

const HEX = { type: "string", pattern: "^([0-9a-f]{2})*$" } as const;
const FIELDS = {
  type: "object",
  description:
    "Fields by flat dotted path (`src_mem_pattern.step_elem.1`; union arms by arm name). A flag is a boolean; an f32 field is its binary32 bits as a string `0x%08x`; a field wider than 32 bits is a `0x…` hex string; every other field is a number (two's complement value for `int`; a leaf declared with `zeroMeans` reads a raw 0 as that value, e.g. a len_ctrl length of 65536, and has no encoding for 0). layouts.declarations.json gives each path's bit offset (bit 0 = least significant bit of byte 0, little-endian words) and width.",
  additionalProperties: { type: ["boolean", "number", "string"] },
} as const;

const inputSchema: JsonSchema = {
  oneOf: [
    {
      type: "object",
      description: "Encode: the fields given (the rest are zero, constants are set) → the layout's bytes.",
      required: ["op", "layout", "fields"],
      properties: {
        op: { const: "encode" },
        layout: {
          type: "string",
          description: "A layout name of layouts.declarations.json (`sdmakit layouts`).",
        },
        fields: FIELDS,
      },
    },
    {
      type: "object",
      description: "Decode: the layout's bytes → every field and every issue.",
      required: ["op", "layout", "bytes"],
      properties: {
        op: { const: "decode" },
        layout: { type: "string" },
        bytes: {
          ...HEX,
          description: "Exactly the layout's size in bytes, in memory order, as lowercase hex.",
        },
      },
    },
  ],
};

const expectSchema: JsonSchema = {
  oneOf: [
    {
      type: "object",
      required: ["bytes"],
      properties: { bytes: { ...HEX, description: "The encoded bytes in memory order." } },
    },
    {
      type: "object",
      description: "The encoder refused the input.",
      required: ["error"],
      properties: {
        error: {
          type: "object",
          required: ["code", "field", "message"],
          properties: {
            code: { const: "FIELD", description: "sdmakit's error code (FieldError)." },
            field: { type: "string", description: "The path of the refused field." },
            message: {
              type: "string",
              description: "sdmakit's message (informative; compare code and field).",
            },
          },
        },
      },
    },
    {
      type: "object",
      required: ["fields", "issues"],
      properties: {
        fields: { ...FIELDS, description: `Every leaf of the layout, decoded. ${FIELDS.description}` },
        issues: {
          type: "array",
          description:
            "What a well-formed value would not have, in leaf order: `reserved` (a reserved field not zero), `const` (a constant field not its value), `enum` (a code with no name), `undeclared` (a set bit no field covers; field is `bits a..b`). Fields inside union arms are not checked.",
          items: {
            type: "object",
            required: ["kind", "field"],
            properties: {
              kind: { enum: ["reserved", "const", "enum", "undeclared"] },
              field: { type: "string" },
            },
          },
        },
      },
    },
  ],
};

export const LAYOUTS_SET: VectorSet = {
  name: "layouts",
  doc: "Every declared layout (src/spec/layouts; seed 000 §2, 002 §2–§3, 003 §3): encode each field at its largest value alone and the constants alone, the inputs the encoder refuses, decode of all-zero and all-one bytes and of every enum code without a name, then per layout (the group) `count` random byte strings decoded and `count` random valid field sets encoded.",
  inputSchema,
  expectSchema,
  *inputs({ count }, rng) {
    for (const layout of LAYOUTS) yield* layoutInputs(layout, count, rng);
  },
  run,
  attachments: () => ({ "layouts.declarations.json": LAYOUTS.map(declarationJson) }),
};
