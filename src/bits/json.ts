/**
 * JSON text parsed within bounds: its size in UTF-8 bytes and its nesting depth are measured in one
 * pass that does not recurse, before `JSON.parse` sees it, so a huge or deeply nested input is
 * refused with a {@link JsonLimitError} naming where it came from, the limit and what was found —
 * never a "Maximum call stack size exceeded" from the parser or from whatever walks the value next.
 */
import { UsageError } from "./errors.js";

/** The bounds a JSON input is held to. */
export interface JsonLimits {
  /** The most UTF-8 bytes the text may have. */
  readonly maxBytes: number;
  /** The deepest nesting of arrays and objects (a scalar is depth 0, `[]` depth 1, `[[1]]` depth 2). */
  readonly maxDepth: number;
}

/**
 * The defaults: every JSON sdmakit reads (groups, streams, pairs, metadata, build requests, fields)
 * is a few levels deep and far below 16 MiB; past these it is the wrong input.
 */
export const JSON_LIMITS: JsonLimits = Object.freeze({ maxBytes: 16 << 20, maxDepth: 64 });

/** A JSON input over a bound: `source` names it (an option and a path, or what the text is). */
export class JsonLimitError extends UsageError {
  override name = "JsonLimitError";
  readonly source: string;
  readonly limit: "bytes" | "depth";
  readonly max: number;
  /** What was found; for a stream cut off at the bound, the bytes read (max + 1). */
  readonly found: number;
  /** @example new JsonLimitError({ source: "--streams-json s.json", limit: "bytes", max: 1000, found: 1203 }) */
  constructor(over: JsonOverLimit) {
    const { source, limit, max, found } = over;
    super(
      limit === "bytes"
        ? `${source}: ${over.cutOff ? `more than ${max}` : found} bytes; at most ${max} bytes of JSON`
        : `${source}: JSON nested ${found} deep; at most ${max} levels`,
    );
    this.source = source;
    this.limit = limit;
    this.max = max;
    this.found = found;
  }
}

/** What a JsonLimitError reports; `cutOff` when a stream was read only up to the bound. */
export interface JsonOverLimit {
  readonly source: string;
  readonly limit: "bytes" | "depth";
  readonly max: number;
  readonly found: number;
  readonly cutOff?: boolean;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;

/** UTF-8 bytes of one UTF-16 code unit (a surrogate half counts 2, a pair 4). */
function utf8Bytes(c: number): number {
  if (c < 0x80) return 1;
  if (c < 0x800 || (c >= 0xd800 && c <= 0xdfff)) return 2;
  return 3;
}

/**
 * The UTF-8 size and the deepest array / object nesting of a JSON text, outside strings; linear, no
 * recursion. Text that is not JSON gets numbers too (the parser refuses it afterwards).
 */
export function jsonExtent(text: string): { bytes: number; depth: number } {
  let bytes = 0;
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    bytes += utf8Bytes(c);
    if (inString) {
      if (c === BACKSLASH) {
        i++;
        if (i < text.length) bytes += utf8Bytes(text.charCodeAt(i));
      } else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) inString = true;
    else if (c === OPEN_BRACKET || c === OPEN_BRACE) {
      depth++;
      if (depth > deepest) deepest = depth;
    } else if (c === CLOSE_BRACKET || c === CLOSE_BRACE) depth--;
  }
  return { bytes, depth: deepest };
}

/**
 * Parse JSON text within `limits`.
 * @param source what the text is, for the errors: `--streams-json groups.json`, `build request`.
 * @throws JsonLimitError over a bound; UsageError naming `source` for text that is not JSON.
 * @example parseJsonText("fields", '{"a": 1}') // { a: 1 }
 */
export function parseJsonText(source: string, text: string, limits: JsonLimits = JSON_LIMITS): unknown {
  const { bytes, depth } = jsonExtent(text);
  if (bytes > limits.maxBytes)
    throw new JsonLimitError({ source, limit: "bytes", max: limits.maxBytes, found: bytes });
  if (depth > limits.maxDepth)
    throw new JsonLimitError({ source, limit: "depth", max: limits.maxDepth, found: depth });
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new UsageError(`${source}: not JSON (${(e as Error).message})`);
  }
}
