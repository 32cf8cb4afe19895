/**
 * The few calls a library user comes for, with defaults: encode / decode a layout by object or name,
 * run one collective, sweep sizes. Everything else is in the layer namespaces.
 */
import type { Fields, FieldValue, InputOf, Layout, LayoutNode, ShapeOf } from "./bits/index.js";
import { fromHex } from "./bits/index.js";
import { layoutOf } from "./layout-of.js";

export { layoutOf };

/**
 * Decode a layout's bytes (or hex) into its fields by flat dotted name. Given the layout itself,
 * the result has its fields' types (`decode(FMA_DESC, hex).scale` is a number); given a name, plain
 * {@link Fields}.
 * @throws UsageError for an unknown layout name; DecodeError for too few bytes.
 * @example decode("fma-desc", "0000800000001002000000090000003f").scale; // 0.5
 */
export function decode<F extends readonly LayoutNode[]>(
  layout: Layout<F>,
  bytes: Uint8Array | string,
): ShapeOf<F>;
export function decode(layout: string, bytes: Uint8Array | string): Fields;
export function decode(layout: Layout | string, bytes: Uint8Array | string): Fields {
  return layoutOf(layout).decode(typeof bytes === "string" ? fromHex(bytes) : bytes);
}

/**
 * Encode fields (by flat dotted name; unnamed fields are 0 or their constant) into the layout's bytes.
 * Given the layout itself, `fields` is typed by its declaration: a misspelt field does not compile.
 * @throws UsageError for an unknown layout name; FieldError naming a field that is unknown or out of range.
 * @example encode("fma-desc", { a_sel: 1, b_sel: 2, c_sel: 0, scale: 0.5 });
 */
export function encode<F extends readonly LayoutNode[]>(
  layout: Layout<F>,
  fields: Readonly<InputOf<F>>,
): Uint8Array;
export function encode(layout: string, fields: Readonly<Record<string, FieldValue>>): Uint8Array;
export function encode(layout: Layout | string, fields: Readonly<Record<string, unknown>>): Uint8Array {
  return layoutOf(layout).encode(fields);
}

export {
  COLLECTIVE_DEFAULTS,
  type CollectiveOptions,
  type CollectiveResult,
  runCollective,
  type SweepOptions,
  sweep,
} from "./collectives/index.js";
