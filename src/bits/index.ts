/**
 * sdmakit bits: the generic little-endian bit-field and layout engine (declare a layout as data,
 * compile it once into encode / decode / field readers, its TypeScript shape inferred), hex helpers
 * and the error classes every layer throws. Zero dependencies.
 * @module
 */
export {
  addrArg,
  boolArg,
  bytesArg,
  finiteArg,
  type IntRange,
  intArg,
  MAX_ADDRESS,
  MAX_U32,
  stringArg,
  uintArg,
} from "./arg-check.js";
export { f32FromBits, f32ToBits, readBigBits, readBits } from "./bitfield.js";
export {
  array,
  bool,
  constant,
  enumField,
  type Fidelity,
  f32,
  int,
  type LayoutDecl,
  type LayoutNode,
  type LeafKind,
  reserved,
  struct,
  uint,
  union,
} from "./declare.js";
export { closest, didYouMean, editDistance } from "./did-you-mean.js";
export {
  DecodeError,
  DeviceFault,
  type Einval,
  ERROR_EXIT_STATUS,
  type ErrorCode,
  type Explained,
  einval,
  FieldError,
  isEinval,
  LayoutDefinitionError,
  SdmaAbortError,
  SdmaAssertError,
  SdmakitError,
  UsageError,
} from "./errors.js";
export { fromHex, hex32, jsonSafe, toHex, wordAt, wordsOf } from "./hex.js";
export {
  JSON_LIMITS,
  JsonLimitError,
  type JsonLimits,
  type JsonOverLimit,
  jsonExtent,
  parseJsonText,
} from "./json.js";
export {
  compileLayout,
  type DecodeIssue,
  type FieldReader,
  type Fields,
  type FieldValue,
  type Layout,
  type LayoutInput,
  type LayoutShape,
  type Leaf,
  reservedIssue,
} from "./layout.js";
export { lookupOwn } from "./lookup.js";
export { checkOptions, type OptionRule, type OptionRules } from "./option-check.js";
export type { DecodedValue, EncodedValue, InputOf, ShapeOf } from "./shape.js";
