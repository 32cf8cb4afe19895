/**
 * A small argument parser shared by the commands: `--flag`, `--key value`, `--key=value`, `-k value`,
 * and positionals. Each command declares which options take a value and which are flags; anything
 * else is a usage error that names the option.
 */
import { UsageError } from "../bits/errors.js";

export interface ArgSpec {
  /** Options that take a value (`--arch trn2`, `-r 8`), by every spelling. */
  readonly values?: readonly string[];
  /** Options that are plain switches (`--json`). */
  readonly flags?: readonly string[];
}

export interface ParsedArgs {
  readonly positional: string[];
  readonly options: Map<string, string>;
  readonly flags: Set<string>;
}

/** @throws UsageError for an unknown option or a value option with no value. */
export function parseArgs(args: readonly string[], spec: ArgSpec): ParsedArgs {
  const values = new Set(spec.values ?? []);
  const flags = new Set(spec.flags ?? []);
  const out: ParsedArgs = { positional: [], options: new Map(), flags: new Set() };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    const isOption = /^--?[a-zA-Z]/.test(arg);
    if (!isOption) {
      out.positional.push(arg);
      continue;
    }
    const eq = arg.indexOf("=");
    const name = eq > 0 ? arg.slice(0, eq) : arg;
    if (flags.has(name) && eq < 0) out.flags.add(name);
    else if (values.has(name)) {
      const value = eq > 0 ? arg.slice(eq + 1) : args[++i];
      if (value === undefined) throw new UsageError(`option ${name} needs a value`);
      out.options.set(name, value);
    } else {
      const known = [...values, ...flags].join(", ");
      throw new UsageError(`unknown option ${name}${known ? ` (known: ${known})` : ""}`);
    }
  }
  return out;
}

/** The value of the first spelling present, or undefined. */
export function option(parsed: ParsedArgs, ...names: string[]): string | undefined {
  for (const n of names) {
    const v = parsed.options.get(n);
    if (v !== undefined) return v;
  }
  return undefined;
}

/** JSON.stringify that writes bigints as decimal strings (64-bit values in sdmakit's JSON). */
export function toJson(value: unknown, indent?: number): string {
  return JSON.stringify(value, (_k, v) => (typeof v === "bigint" ? v.toString() : v), indent);
}

/** @throws UsageError naming the first positional argument past the `max` a command takes. */
export function rejectExtraPositionals(parsed: ParsedArgs, max: number): void {
  const extra = parsed.positional[max];
  if (extra !== undefined) throw new UsageError(`unexpected argument ${JSON.stringify(extra)}`);
}
