/**
 * The one validator of the library's public options objects, for callers in plain JavaScript where
 * no type checker ran: an object of own keys only (an unknown key, or one read through the
 * prototype, is refused), enums by a frozen list (so `"__proto__"` or `"constructor"` never match),
 * integers and numbers by range, booleans as booleans. A refusal is a FieldError naming the
 * function, the option, the value and what is allowed — never an internal TypeError later.
 */
import { didYouMean } from "./did-you-mean.js";
import { FieldError } from "./errors.js";

export type OptionRule =
  | { readonly oneOf: readonly (string | number)[] }
  | { readonly integer: readonly [number, number] }
  /** A number in [min, max] (Infinity allowed only when a bound is infinite). */
  | { readonly number: readonly [number, number]; readonly above?: number }
  | { readonly boolean: true }
  /** True when the value is fine; `allowed` says what is. */
  | { readonly check: (value: unknown) => boolean; readonly allowed: string };

export type OptionRules = Readonly<Record<string, OptionRule>>;

/** Why `value` breaks `rule` (the allowed text), or undefined. */
function breaks(rule: OptionRule, value: unknown): { allowed: string } | undefined {
  if ("oneOf" in rule)
    return rule.oneOf.includes(value as string | number) ? undefined : { allowed: rule.oneOf.join(" | ") };
  if ("integer" in rule) {
    const [lo, hi] = rule.integer;
    const ok = typeof value === "number" && Number.isInteger(value) && value >= lo && value <= hi;
    return ok ? undefined : { allowed: `an integer ${lo}..${hi}` };
  }
  if ("number" in rule) {
    const [lo, hi] = rule.number;
    const above = rule.above;
    const ok =
      typeof value === "number" && value >= lo && value <= hi && (above === undefined || value > above);
    return ok ? undefined : { allowed: `a number ${above === undefined ? lo : `> ${above}`}..${hi}` };
  }
  if ("boolean" in rule) return typeof value === "boolean" ? undefined : { allowed: "true | false" };
  return rule.check(value) ? undefined : { allowed: rule.allowed };
}

/** A value as a message shows it: objects as JSON (a cycle or a bigint inside: its type). */
function shownValue(value: unknown): unknown {
  if (typeof value !== "object" || value === null) return value;
  try {
    return JSON.stringify(value);
  } catch {
    return Array.isArray(value) ? "an array" : "an object";
  }
}

/**
 * Check `options` against `rules`: a plain object whose own keys all have a rule and whose values
 * keep them (undefined counts as left out). `required` keys must be present.
 * @throws FieldError naming `context(key)`, the value and what is allowed.
 */
export function checkOptions(
  context: string,
  options: unknown,
  rules: OptionRules,
  required: readonly string[] = [],
): void {
  if (typeof options !== "object" || options === null || Array.isArray(options))
    throw new FieldError(context, "options", options, "an object of options");
  const known = Object.keys(rules);
  for (const key of Object.keys(options)) {
    if (!Object.hasOwn(rules, key))
      throw new FieldError(context, key, key, {
        allowed: known.join(", "),
        detail: `unknown option ${JSON.stringify(key)}${didYouMean(key, known)}; expected one of ${known.join(", ")}`,
      });
  }
  for (const key of known) {
    if (!Object.hasOwn(options, key)) {
      if (key in options)
        throw new FieldError(context, key, undefined, {
          allowed: "an own property",
          detail: "inherited from the prototype; give it as an own property",
        });
      if (required.includes(key))
        throw new FieldError(context, key, undefined, { allowed: "required", detail: "missing (required)" });
      continue;
    }
    const value = (options as Record<string, unknown>)[key];
    if (value === undefined) {
      if (required.includes(key))
        throw new FieldError(context, key, undefined, { allowed: "required", detail: "missing (required)" });
      continue;
    }
    const bad = breaks(rules[key] as OptionRule, value);
    if (bad !== undefined) throw new FieldError(context, key, shownValue(value), bad.allowed);
  }
}
