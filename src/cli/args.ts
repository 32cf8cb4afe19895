/**
 * The argument parser of the commands that list their spellings (`--arch`, `-r`): a thin layer over
 * the option tables of options.ts (node:util parseArgs), so `--key=value`, `-k8` and the refusals are
 * the same as everywhere else.
 */
import { UsageError } from "../bits/errors.js";
import { type OptionDef, parseOptions } from "./options.js";

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
  const table: Record<string, OptionDef> = {};
  const spelling = new Map<string, string>();
  const add = (s: string, type: "string" | "boolean") => {
    const key = s.replace(/^-+/, "");
    table[key] = s.startsWith("--") ? { type, help: "" } : { type, short: key, help: "" };
    spelling.set(key, s);
  };
  for (const s of spec.values ?? []) add(s, "string");
  for (const s of spec.flags ?? []) add(s, "boolean");
  const p = parseOptions(table, args);
  const out: ParsedArgs = { positional: [...p.positionals], options: new Map(), flags: new Set() };
  for (const [key, value] of Object.entries(p.values)) {
    const s = spelling.get(key) as string;
    if (typeof value === "string") out.options.set(s, value);
    else if (value === true) out.flags.add(s);
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
