/** A small element builder: `el("td", { class: "x" }, "text", child)`. */
export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Readonly<Record<string, string>> = {},
  ...children: (Node | string)[]
): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  e.append(...children);
  return e;
}

/** A labelled control for the forms: `<label>name <control></label>`. */
export function labelled(text: string, control: HTMLElement): HTMLLabelElement {
  return el("label", {}, text, control);
}

/** Link values that were not among a select's options (main.ts shows them), cleared as read. */
const stale: string[] = [];

/** The stale link values noted since the last call (`arch="trn9" is not one of …; showing trn2`). */
export function takeStaleValues(): string[] {
  return stale.splice(0);
}

/**
 * A `<select>` of options (value = label unless given as pairs), with `value` selected. A value
 * that is no option (a stale or edited link) selects `fallback` (else the first option) and is
 * noted for {@link takeStaleValues}.
 */
export function select(
  name: string,
  options: readonly (string | readonly [string, string])[],
  value: string,
  fallback?: string,
): HTMLSelectElement {
  const s = el("select", { name });
  const values: string[] = [];
  for (const o of options) {
    const [v, label] = typeof o === "string" ? [o, o] : o;
    values.push(v);
    s.append(el("option", { value: v }, label));
  }
  if (values.includes(value)) s.value = value;
  else {
    s.value = fallback !== undefined && values.includes(fallback) ? fallback : (values[0] ?? "");
    stale.push(
      `${name}=${JSON.stringify(value)} is not one of ${values.map((v) => v || "(default)").join(" | ")}; showing ${s.value || "(default)"}`,
    );
  }
  return s;
}

/** A text `<input>`. */
export function input(
  name: string,
  value: string,
  attrs: Readonly<Record<string, string>> = {},
): HTMLInputElement {
  const i = el("input", { name, type: "text", ...attrs });
  i.value = value;
  return i;
}
