/**
 * Checks for the positional arguments of the public calls (the engine's Device, its memory, queues
 * and semaphores; the HAL's and runtime's doors), for callers in plain JavaScript where no type
 * checker ran: a wrong type, a non-integer or a value out of range is a FieldError naming the call,
 * the argument, the value and what is allowed — never a silent wrap (`>>> 0`) or an internal
 * TypeError later. Each passes its value through, so a call site reads `x = intArg(...)`; the test
 * is a few comparisons, cheap enough for a door the engine's executor also goes through per packet.
 */
import { FieldError } from "./errors.js";

/** 2^64 − 1: the largest device address (a 64-bit bus). */
export const MAX_ADDRESS = (1n << 64n) - 1n;
/** The largest unsigned 32-bit word. */
export const MAX_U32 = 0xffff_ffff;

/** The refusal: the value's type named when it is not the one expected. */
function refuse(context: string, field: string, value: unknown, allowed: string, type: string): never {
  const got = value === null ? "null" : typeof value;
  const detail =
    got === type
      ? undefined
      : `${got === "string" ? JSON.stringify(value) : String(value)} (${got}) is not ${allowed}`;
  throw new FieldError(context, field, value, { allowed, detail });
}

const isIntIn = (v: unknown, min: number, max: number): v is number =>
  typeof v === "number" && Number.isInteger(v) && v >= min && v <= max;

/**
 * An integer in 0..max (a count, an index, a register word).
 * @throws FieldError otherwise.
 * @example uintArg("Device.queue", "engine", engine, engines - 1);
 */
export function uintArg(context: string, field: string, value: unknown, max: number): number {
  return isIntIn(value, 0, max) ? value : refuse(context, field, value, `an integer 0..${max}`, "number");
}

/**
 * An integer in [min, max] (a signed word, a length with a floor).
 * @throws FieldError otherwise.
 * @example intArg("RegisterFile.write32", "value", v, { min: -(2 ** 31), max: 2 ** 32 - 1 });
 */
export function intArg(context: string, field: string, value: unknown, range: IntRange): number {
  const { min, max } = range;
  return isIntIn(value, min, max)
    ? value
    : refuse(context, field, value, `an integer ${min}..${max}`, "number");
}

/** The bounds of intArg, both included. */
export interface IntRange {
  readonly min: number;
  readonly max: number;
}

/**
 * A finite number in 0..max (a time in ns).
 * @throws FieldError otherwise (NaN, ±Infinity, a negative, a string).
 */
export function finiteArg(context: string, field: string, value: unknown, max: number): number {
  if (typeof value === "number" && value >= 0 && value <= max && Number.isFinite(value)) return value;
  return refuse(context, field, value, `a finite number 0..${max}`, "number");
}

/**
 * A device address: a bigint in 0..2^64 − 1.
 * @throws FieldError otherwise (a Number, a negative or wider bigint).
 */
export function addrArg(context: string, field: string, value: unknown): bigint {
  if (typeof value === "bigint" && value >= 0n && value <= MAX_ADDRESS) return value;
  return refuse(context, field, value, "a bigint address 0x0..0xffffffffffffffff", "bigint");
}

/**
 * Bytes: a Uint8Array (a Node Buffer is one).
 * @throws FieldError otherwise (another typed array, an array of numbers).
 */
export function bytesArg(context: string, field: string, value: unknown): Uint8Array {
  if (value instanceof Uint8Array) return value;
  const got = ArrayBuffer.isView(value)
    ? `a ${value.constructor.name}`
    : Array.isArray(value)
      ? "an array"
      : `${String(value)} (${value === null ? "null" : typeof value})`;
  throw new FieldError(context, field, got, {
    allowed: "a Uint8Array",
    detail: `${got} is not a Uint8Array`,
  });
}

/** A boolean. @throws FieldError otherwise (`"no"` is not false). */
export function boolArg(context: string, field: string, value: unknown): boolean {
  if (typeof value === "boolean") return value;
  return refuse(context, field, value, "true | false", "boolean");
}

/** A string (a label for messages). @throws FieldError otherwise. */
export function stringArg(context: string, field: string, value: unknown): string {
  if (typeof value === "string") return value;
  return refuse(context, field, value, "a string", "string");
}
