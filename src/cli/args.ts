/**
 * The argument parser of the commands that list their spellings (`--arch`, `-r`): a thin layer over
 * the option tables of options.ts (node:util parseArgs), so `--key=value`, `-k8` and the refusals are
 * the same as everywhere else.
 */
import { UsageError } from "../bits/errors.js";
import { type OptionDef, type OptionTable, optionsHelp, parseOptions } from "./options.js";

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

function isTable(spec: ArgSpec | OptionTable): spec is OptionTable {
  return !Array.isArray((spec as ArgSpec).values) && !Array.isArray((spec as ArgSpec).flags);
}

/** A spelling list as a table (`-r` → short r, `--arch` → arch). */
function tableOf(spec: ArgSpec): OptionTable {
  const table: Record<string, OptionDef> = {};
  const add = (s: string, type: "string" | "boolean") => {
    const key = s.replace(/^-+/, "");
    table[key] = s.startsWith("--") ? { type, help: "" } : { type, short: key, help: "" };
  };
  for (const s of spec.values ?? []) add(s, "string");
  for (const s of spec.flags ?? []) add(s, "boolean");
  return table;
}

/**
 * Parse against an option table (or a list of spellings). Values are keyed by their spelling: the
 * table's `arch` is `--arch`, a listed `-r` stays `-r`. Table defaults are filled in.
 * @throws UsageError for an unknown option or a value option with no value.
 */
export function parseArgs(args: readonly string[], spec: ArgSpec | OptionTable): ParsedArgs {
  const table = isTable(spec) ? spec : tableOf(spec);
  const p = parseOptions(table, args);
  const out: ParsedArgs = { positional: [...p.positionals], options: new Map(), flags: new Set() };
  for (const [key, value] of Object.entries(p.values)) {
    const def = table[key] as OptionDef;
    const s = !isTable(spec) && def.short === key ? `-${key}` : `--${key}`;
    if (typeof value === "string") out.options.set(s, value);
    else if (value === true) out.flags.add(s);
  }
  return out;
}

/** The one option of commands whose only switch is JSON output. */
export const JSON_ONLY = { json: { type: "boolean", help: "JSON output" } } as const satisfies OptionTable;

/** A command's help: its synopsis, the option table, then notes. */
export function commandHelp(synopsis: string, table: OptionTable, notes: readonly string[] = []): string {
  const opts = Object.keys(table).length > 0 ? `\n\n${optionsHelp(table)}` : "";
  return `usage: ${synopsis}${opts}${notes.length > 0 ? `\n\n${notes.join("\n")}` : ""}`;
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
