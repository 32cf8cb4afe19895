/**
 * One declarative option table per command, on Node's built-in `node:util` parseArgs (no runtime
 * dependency): the same table gives the parse (short and long spellings, `-b8`, `--x=y`), the
 * defaults and the `--help` text. Every refusal is one UsageError that names the option and echoes
 * what was typed.
 */

import { parseArgs } from "node:util";
import { didYouMean } from "../bits/did-you-mean.js";
import { UsageError } from "../bits/errors.js";

export interface OptionDef {
  readonly type: "string" | "boolean";
  /** One-letter spelling (`-b`). */
  readonly short?: string;
  /** More long spellings that mean the same option (nccom-test / nccl-tests names). */
  readonly aliases?: readonly string[];
  /** Filled in when the option is not given; shown by --help. */
  readonly default?: string | boolean;
  /** The value's placeholder in --help (`SIZE`). */
  readonly value?: string;
  readonly help: string;
  /**
   * A value that may be left out (nccom-test's `-c [random|all_ones]`): the next word is the value
   * only when it matches; a bare option reads as `bare`.
   */
  readonly optional?: { readonly match: RegExp; readonly bare: string };
  /** Further words that belong to the value (nccom-test's `-t avg p50 p99`). */
  readonly more?: RegExp;
  /** Not listed by --help (a compatibility spelling the help mentions in a note). */
  readonly hidden?: boolean;
}

export type OptionTable = Readonly<Record<string, OptionDef>>;

type ValueOf<D extends OptionDef> = D["type"] extends "boolean" ? boolean : string;
/** Parsed values: options with a default are always set. */
export type OptionValues<T extends OptionTable> = {
  readonly [K in keyof T]: T[K] extends { default: string | boolean }
    ? ValueOf<T[K]>
    : ValueOf<T[K]> | undefined;
};

export interface Parsed<T extends OptionTable> {
  readonly values: OptionValues<T>;
  readonly positionals: readonly string[];
  /** The options the user typed (not filled from a default), by table name. */
  readonly given: ReadonlySet<keyof T & string>;
}

function spellings(name: string, def: OptionDef): string[] {
  return [`--${name}`, ...(def.aliases ?? []).map((a) => `--${a}`), ...(def.short ? [`-${def.short}`] : [])];
}

/** The table option a typed word starts with, and the attached value if any (`-b8`, `--x=y`). */
function matchWord(table: OptionTable, word: string): { name: string; attached?: string } | undefined {
  for (const [name, def] of Object.entries(table)) {
    for (const s of spellings(name, def)) {
      if (word === s) return { name };
      if (s.startsWith("--") && word.startsWith(`${s}=`)) return { name, attached: word.slice(s.length + 1) };
      if (!s.startsWith("--") && word.startsWith(s) && word.length > 2)
        return { name, attached: word.slice(2) };
    }
  }
  return undefined;
}

/** Rewrite optional and multi-word values into `--name=value` so parseArgs sees one value. */
function normalise(table: OptionTable, args: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const word = args[i] as string;
    if (word === "--") {
      out.push(...args.slice(i));
      break;
    }
    const m = matchWord(table, word);
    const def = m && table[m.name];
    const next = args[i + 1];
    // A negative number is a value, not an option: `--seed -1` reaches the option's own check.
    if (
      m &&
      def?.type === "string" &&
      m.attached === undefined &&
      next !== undefined &&
      /^-[\d.]/.test(next)
    ) {
      out.push(`--${m.name}=${next}`);
      i++;
      continue;
    }
    if (
      m &&
      def?.type === "string" &&
      !def.optional &&
      !def.more &&
      m.attached === undefined &&
      next !== undefined
    ) {
      out.push(word, next); // the next word is this option's value, never an option of its own
      i++;
      continue;
    }
    if (!m || !def || (!def.optional && !def.more) || def.type !== "string") {
      out.push(word);
      continue;
    }
    let value = m.attached;
    if (value === undefined) {
      if (def.optional && (next === undefined || !def.optional.match.test(next))) value = def.optional.bare;
      else if (next !== undefined) {
        value = next;
        i++;
      }
    }
    if (value === undefined) {
      out.push(word);
      continue;
    }
    while (def.more && i + 1 < args.length && def.more.test(args[i + 1] as string)) value += ` ${args[++i]}`;
    out.push(`--${m.name}=${value}`);
  }
  return out;
}

/** Every spelling of the table's options: `--name`, `--alias`, `-x`. */
function optionWords(table: OptionTable): string[] {
  return Object.entries(table).flatMap(([name, def]) => [
    `--${name}`,
    ...(def.aliases ?? []).map((a) => `--${a}`),
    ...(def.short === undefined ? [] : [`-${def.short}`]),
  ]);
}

/** parseArgs' own messages are long and name no value: say it the sdmakit way. */
function refusal(e: unknown, args: readonly string[], table: OptionTable): UsageError {
  const err = e as { code?: string; message?: string };
  const message = err.message ?? String(e);
  const named = /'([^']+)'/.exec(message)?.[1] ?? "";
  if (err.code === "ERR_PARSE_ARGS_UNKNOWN_OPTION")
    return new UsageError(`unknown option ${named}${didYouMean(named, optionWords(table))}`);
  // The option's long name, whichever spelling parseArgs quoted (`-d`, `-d, --datatype <value>`).
  const spelled = named.split(/[ ,]+/).filter((w) => w.startsWith("-"));
  const name = Object.keys(table).find((k) =>
    spelled.some(
      (w) => w === `--${k}` || w === `-${table[k]?.short}` || table[k]?.aliases?.includes(w.slice(2)),
    ),
  );
  const long = name === undefined ? (spelled[0] ?? named) : `--${name}`;
  if (/does not take an argument/.test(message)) {
    const typed = args.find((a) => spelled.some((w) => a.startsWith(`${w}=`))) ?? long;
    return new UsageError(`${long} takes no value; got ${JSON.stringify(typed)}`);
  }
  if (/ambiguous/.test(message)) {
    const at = args.findIndex((a) => spelled.includes(a));
    const typed = args[at + 1] ?? "";
    return new UsageError(
      `${long} ${JSON.stringify(typed)}: a value starting with "-" must be attached: ${long}=${typed}`,
    );
  }
  if (/argument missing/.test(message)) return new UsageError(`${long} needs a value`);
  return new UsageError(message);
}

/**
 * Parse `args` against `table`.
 * @throws UsageError for an unknown option, a missing value, a value given to a switch, or one
 *   option typed twice under two spellings with different values.
 * @example parseOptions({ json: { type: "boolean", help: "JSON output" } }, ["--json"]).values.json; // true
 */
export function parseOptions<T extends OptionTable>(table: T, args: readonly string[]): Parsed<T> {
  type NodeOption = { type: "string" | "boolean"; short?: string };
  const config: Record<string, NodeOption> = {};
  const canonical = new Map<string, string>();
  for (const [name, def] of Object.entries(table)) {
    config[name] = def.short ? { type: def.type, short: def.short } : { type: def.type };
    canonical.set(name, name);
    for (const a of def.aliases ?? []) {
      config[a] = { type: def.type };
      canonical.set(a, name);
    }
  }
  const words = normalise(table, args);
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({
      args: words,
      options: config,
      allowPositionals: true,
      strict: true,
    });
  } catch (e) {
    throw refusal(e, words, table);
  }
  const values: Record<string, string | boolean> = {};
  const given = new Set<string>();
  for (const [key, value] of Object.entries(parsed.values)) {
    const name = canonical.get(key) as string;
    const prior = values[name];
    if (prior !== undefined && prior !== value)
      throw new UsageError(`--${name} given twice: ${JSON.stringify(prior)} and ${JSON.stringify(value)}`);
    values[name] = value as string | boolean;
    given.add(name);
  }
  for (const [name, def] of Object.entries(table))
    if (values[name] === undefined && def.default !== undefined) values[name] = def.default;
  return {
    values: values as OptionValues<T>,
    positionals: parsed.positionals,
    given: given as Set<keyof T & string>,
  };
}

/** The options part of a command's --help, one line per option with its default. */
export function optionsHelp(table: OptionTable): string {
  const rows: [string, string][] = [];
  for (const [name, def] of Object.entries(table)) {
    if (def.hidden) continue;
    const names = [
      def.short ? `-${def.short}` : "",
      `--${name}`,
      ...(def.aliases ?? []).map((a) => `--${a}`),
    ];
    const left = names.filter(Boolean).join(", ") + (def.value ? ` ${def.value}` : "");
    const dflt =
      def.default === undefined || def.default === false ? "" : ` (default ${String(def.default)})`;
    rows.push([left, def.help + dflt]);
  }
  const width = Math.min(40, Math.max(...rows.map(([l]) => l.length)));
  return rows
    .map(([l, r]) =>
      l.length > width ? `  ${l}\n  ${"".padEnd(width)}  ${r}` : `  ${l.padEnd(width)}  ${r}`,
    )
    .join("\n");
}

/** A whole-number option value: digits only (no '', no 4e0, no Infinity). */
export function integerOption(option: string, text: string, min: number, max: number): number {
  const v = /^\s*\d+\s*$/.test(text) ? Number(text) : Number.NaN;
  if (!Number.isSafeInteger(v) || v < min || v > max)
    throw new UsageError(`${option} ${JSON.stringify(text)}: expected an integer ${min}..${max}`);
  return v;
}

/** One of the listed words. */
export function choiceOption<T extends string>(option: string, text: string, allowed: readonly T[]): T {
  if (!(allowed as readonly string[]).includes(text))
    throw new UsageError(
      `${option} ${JSON.stringify(text)}: expected ${allowed.join(" | ")}${didYouMean(text, allowed)}`,
    );
  return text as T;
}
