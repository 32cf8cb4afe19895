/**
 * The error classes of sdmakit. Each has a fixed `code` so callers (and the CLI's one top-level
 * catch) can tell them apart without string matching. The four libnrt failure styles map to:
 * `__assert_fail` → {@link SdmaAssertError}; `al_abort_program(-1)` → {@link SdmaAbortError};
 * `-EINVAL` → a returned {@link Einval} value (not thrown); `0xFFFFFFFF` stubs and silent no-ops
 * are plain return values at their call sites.
 */

/**
 * Every error code sdmakit throws — a closed list — with the CLI exit status each maps to:
 * 2 for bad input (the usage is printed), 1 for what the modelled system refused or did.
 */
export const ERROR_EXIT_STATUS = {
  SDMAKIT: 1,
  FIELD: 2,
  DECODE: 2,
  USAGE: 2,
  LAYOUT_DEFINITION: 1,
  ASSERT: 1,
  ABORT: 1,
  FAULT: 1,
  DESCRIPTOR_FAULT: 1,
  WATCHDOG: 1,
  RING_FULL: 1,
} as const;
export type ErrorCode = keyof typeof ERROR_EXIT_STATUS;

/** Base class: every error sdmakit throws on purpose is one of these. */
export class SdmakitError extends Error {
  readonly code: ErrorCode = "SDMAKIT";
  override name = "SdmakitError";
}

/**
 * A value does not fit the field it is meant for. Names the field path, the value and the
 * allowed range, e.g. `fma-meta(in_dt): 16 is out of range 0..15`.
 */
export class FieldError extends SdmakitError {
  override readonly code: ErrorCode = "FIELD";
  override name = "FieldError";
  /** What the value may be, e.g. `0..15`. */
  readonly allowed: string;
  /**
   * @param allowed what the value may be; with a `detail`, the message says the detail instead of
   *   "is out of range" (an unknown name with its near miss, a type that is not the one expected).
   * @example new FieldError("cast", "code", text, { allowed: "hex", detail: `"${text}" is not hex` })
   */
  constructor(
    /** Where the value was given: a layout, a command (`run s3d3`), a function or libnrt symbol. */
    readonly context: string,
    readonly field: string,
    readonly value: unknown,
    allowed: string | Explained,
  ) {
    const { allowed: range, detail } = typeof allowed === "string" ? { allowed, detail: undefined } : allowed;
    super(`${context}(${field}): ${detail ?? outOfRange(show(value), range)}`);
    this.allowed = range;
  }
}

/**
 * "16 is out of range 0..15"; a range said in words takes a colon, so it does not run on
 * ("7 is out of range: an integer 0..3").
 */
function outOfRange(value: string, range: string): string {
  return /^an? /.test(range) ? `${value} is out of range: ${range}` : `${value} is out of range ${range}`;
}

/** A FieldError's allowed range with the message to say instead of "is out of range". */
export interface Explained {
  readonly allowed: string;
  readonly detail: string | undefined;
}

/** Bytes that cannot be decoded as a layout at all (wrong length, not hex). */
export class DecodeError extends SdmakitError {
  override readonly code: ErrorCode = "DECODE";
  override name = "DecodeError";
}

/** A layout declaration that contradicts itself (overlap, field past the end). Thrown at load. */
export class LayoutDefinitionError extends SdmakitError {
  override readonly code: ErrorCode = "LAYOUT_DEFINITION";
  override name = "LayoutDefinitionError";
}

/** Bad input to a command or an API call that is not a layout field (unknown dtype name, ...). */
export class UsageError extends SdmakitError {
  override readonly code: ErrorCode = "USAGE";
  override name = "UsageError";
}

/**
 * libnrt `__assert_fail`: the reference aborts the process. Carries the source file and line the
 * seed gives (`vring.c:0x3BA`) and the failing function.
 */
export class SdmaAssertError extends SdmakitError {
  override readonly code: ErrorCode = "ASSERT";
  override name = "SdmaAssertError";
  constructor(
    readonly file: string,
    readonly line: number,
    readonly func: string,
    readonly assertion: string,
  ) {
    super(`${file}:0x${line.toString(16).toUpperCase()}: ${func}: Assertion \`${assertion}' failed.`);
  }
}

/** libnrt `al_abort_program(-1)`, reached from an index bound check in a HAL accessor. */
export class SdmaAbortError extends SdmakitError {
  override readonly code: ErrorCode = "ABORT";
  override name = "SdmaAbortError";
  constructor(
    readonly func: string,
    readonly assertion: string,
  ) {
    super(`${func}: al_abort_program(-1): ${assertion}`);
  }
}

/** A simulated device fault: an access outside mapped memory, a bad descriptor, ... */
export class DeviceFault extends SdmakitError {
  override readonly code: ErrorCode = "FAULT";
  override name = "DeviceFault";
}

/** Linux errno values libnrt returns negated. */
export const EINVAL = 22;

/** A `-EINVAL` return of a libnrt path, with the message libnrt logs on the way out. */
export interface Einval {
  readonly status: -22;
  readonly message: string;
}

/** Build the `-EINVAL` result a libnrt path returns. */
export function einval(message: string): Einval {
  return { status: -EINVAL as -22, message };
}

/** True when a libnrt-style result is an `-EINVAL` return. */
export function isEinval(x: unknown): x is Einval {
  return typeof x === "object" && x !== null && (x as { status?: unknown }).status === -EINVAL;
}

function show(v: unknown): string {
  if (typeof v === "bigint") return `${v}n`;
  if (typeof v === "string") return JSON.stringify(v);
  return String(v);
}
