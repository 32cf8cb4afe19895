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

/** A `<select>` of options (value = label unless given as pairs), with `value` selected. */
export function select(
  name: string,
  options: readonly (string | readonly [string, string])[],
  value: string,
): HTMLSelectElement {
  const s = el("select", { name });
  for (const o of options) {
    const [v, label] = typeof o === "string" ? [o, o] : o;
    s.append(el("option", { value: v }, label));
  }
  s.value = value;
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
