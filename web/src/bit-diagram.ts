/**
 * A layout's bit diagram from the library's one declaration: one row per little-endian u32 word
 * (bit 31 on the left), one coloured band per field with its name and bits, and a table of every
 * field with its bits, raw value and decoded value (enum names, floats, 64-bit values exact).
 * Bits a well-formed value would not have (`layout.issues`: reserved, constant, enum, undeclared)
 * are flagged. With `onEdit`, each field is an input: the library encodes the new value (with its
 * own range checks) and only that field's bits change.
 */
import {
  type DecodeIssue,
  FieldError,
  type FieldValue,
  hex32,
  type Layout,
  type Leaf,
  readBigBits,
  readBits,
  wordsOf,
} from "../../src/bits/index.js";
import { el } from "./dom.js";
import { errorText } from "./error-text.js";

export interface DiagramOptions {
  /** Called with the new bytes when a field is edited; without it the diagram is read-only. */
  readonly onEdit?: (bytes: Uint8Array) => void;
  /** Fields a validator names (a field, or a struct whose leaves all count), flagged too. */
  readonly flag?: readonly string[];
}

const colour = (i: number) => `hsl(${(i * 47) % 360} 70% 84%)`;

/** Index of the first leaf covering each bit, −1 where no field is declared. */
function owners(layout: Layout): Int32Array {
  const owner = new Int32Array(layout.bytes * 8).fill(-1);
  layout.leaves.forEach((l, i) => {
    for (let b = l.bit; b < l.bit + l.width; b++) if (owner[b] === -1) owner[b] = i;
  });
  return owner;
}

const bitAt = (bytes: Uint8Array, b: number) => ((bytes[b >> 3] as number) >> (b & 7)) & 1;

function raw(bytes: Uint8Array, l: Leaf): string {
  const v = l.width > 32 ? readBigBits(bytes, 0, l.bit, l.width) : BigInt(readBits(bytes, 0, l.bit, l.width));
  return `0x${v.toString(16).padStart(Math.ceil(l.width / 4), "0")}`;
}

/** The decoded value as people read it. */
function shown(l: Leaf, v: FieldValue): string {
  if (l.kind === "enum") return `${v} (${l.names?.[v as number] ?? "no such code"})`;
  if (l.kind === "const") return `${v} (constant)`;
  if (l.zeroMeans !== undefined && v === l.zeroMeans) return `${v} (written as 0)`;
  if (typeof v === "bigint") return `${v} (0x${v.toString(16)})`;
  if (typeof v === "number" && l.kind === "uint" && l.width > 8) return `${v} (0x${v.toString(16)})`;
  return String(v);
}

const bitsLabel = (l: Leaf) => (l.width === 1 ? `${l.bit}` : `${l.bit + l.width - 1}:${l.bit}`);

function grid(
  layout: Layout,
  bytes: Uint8Array,
  owner: Int32Array,
  flagged: ReadonlySet<number>,
): HTMLElement {
  const g = el("div", { class: "bits" }, el("div"));
  for (let i = 31; i >= 0; i--) g.append(el("div", { class: "idx" }, String(i)));
  wordsOf(bytes).forEach((word, w) => {
    g.append(el("div", { class: "word mono" }, `w${w} ${hex32(word)}`));
    let hi = 31;
    while (hi >= 0) {
      const who = owner[w * 32 + hi] as number;
      let lo = hi;
      while (lo > 0 && owner[w * 32 + lo - 1] === who) lo--;
      const leaf = layout.leaves[who];
      let digits = "";
      for (let b = hi; b >= lo; b--) digits += bitAt(bytes, w * 32 + b);
      const name = leaf?.path ?? "undeclared";
      const band = el(
        "div",
        {
          class: `band${leaf === undefined || leaf.kind === "reserved" ? " reserved" : ""}${flagged.has(who) || (leaf === undefined && digits.includes("1")) ? " flagged" : ""}`,
          style: `grid-column: span ${hi - lo + 1};${leaf && leaf.kind !== "reserved" ? ` background: ${colour(who)}` : ""}`,
          title: `${name} — bits ${w * 32 + hi}:${w * 32 + lo}`,
          "data-field": name,
        },
        el("span", { class: "name" }, name),
        el("span", { class: "val" }, digits),
      );
      g.append(band);
      hi = lo - 1;
    }
  });
  return g;
}

/**
 * A float field's text: a decimal number (`-0` kept), `nan` / `inf` spelled out, or `0x` and up to
 * 8 digits as the raw FP32 bits. Anything else is refused, naming the field (never a silent NaN).
 */
function parseF32(l: Leaf, text: string): number {
  if (/^0x[0-9a-f]{1,8}$/i.test(text)) {
    const view = new DataView(new ArrayBuffer(4));
    view.setUint32(0, Number.parseInt(text.slice(2), 16));
    return view.getFloat32(0);
  }
  if (/^[+-]?nan$/i.test(text)) return Number.NaN;
  if (/^[+-]?inf(inity)?$/i.test(text)) return text.startsWith("-") ? -Infinity : Infinity;
  const v = text === "" ? Number.NaN : Number(text);
  if (Number.isNaN(v))
    throw new FieldError(l.path, "value", text, "a decimal number, nan, ±inf, or 0x and the FP32 bits");
  return v;
}

/** The value an input's text stands for, in the type the layout's encoder takes. */
function parseInput(l: Leaf, control: HTMLInputElement | HTMLSelectElement): unknown {
  if (l.kind === "bool") return (control as HTMLInputElement).checked;
  const text = control.value.trim();
  if (l.kind === "enum") return Number(text);
  if (l.kind === "f32") return parseF32(l, text);
  if (l.width > 32 && /^(0x[0-9a-f]+|\d+)$/i.test(text)) return BigInt(text);
  return text === "" ? Number.NaN : Number(text);
}

/** Copy one field's bits from `from` into a copy of `to`. */
function withField(to: Uint8Array, from: Uint8Array, l: Leaf): Uint8Array {
  const out = to.slice();
  for (let b = l.bit; b < l.bit + l.width; b++) {
    const m = 1 << (b & 7);
    out[b >> 3] = ((out[b >> 3] as number) & ~m) | ((from[b >> 3] as number) & m);
  }
  return out;
}

function editor(
  layout: Layout,
  bytes: Uint8Array,
  l: Leaf,
  v: FieldValue,
  onEdit: (b: Uint8Array) => void,
): HTMLElement {
  let control: HTMLInputElement | HTMLSelectElement;
  if (l.kind === "enum") {
    control = el("select", { name: l.path, "aria-label": l.path });
    const names = l.names ?? {};
    for (const [code, name] of Object.entries(names))
      control.append(el("option", { value: code }, `${code} ${name}`));
    // A code with no name is shown as its number, as the CLI prints it.
    if (names[v as number] === undefined)
      control.append(el("option", { value: String(v) }, `${v} (no such code)`));
    control.value = String(v);
  } else if (l.kind === "bool") {
    control = el("input", { name: l.path, type: "checkbox", "aria-label": l.path });
    control.checked = v === true;
  } else {
    control = el("input", { name: l.path, type: "text", "aria-label": l.path });
    control.value = typeof v === "bigint" ? `0x${v.toString(16)}` : Object.is(v, -0) ? "-0" : String(v);
  }
  const err = el("div", { class: "err", role: "alert" });
  control.addEventListener("change", () => {
    try {
      const encoded = layout.encode({ [l.path]: parseInput(l, control) });
      onEdit(withField(bytes, encoded, l));
    } catch (e) {
      err.textContent = errorText(e);
    }
  });
  return el("div", {}, control, err);
}

function table(
  layout: Layout,
  bytes: Uint8Array,
  flagged: ReadonlySet<number>,
  opts: DiagramOptions,
): HTMLElement {
  const fields = layout.decode(bytes);
  const t = el("table", { class: "fields" });
  t.append(
    el(
      "tr",
      {},
      el("th", {}, el("span", { class: "sr-only" }, "colour")),
      el("th", {}, "field"),
      el("th", {}, "bits"),
      el("th", {}, "raw"),
      el("th", {}, "value"),
      el("th", {}, "meaning"),
    ),
  );
  layout.leaves.forEach((l, i) => {
    const v = fields[l.path] as FieldValue;
    const editable = opts.onEdit !== undefined && l.kind !== "const" && l.kind !== "reserved";
    const value = editable && opts.onEdit ? editor(layout, bytes, l, v, opts.onEdit) : shown(l, v);
    const swatch = el("td", {
      class: "swatch",
      style: `background: ${l.kind === "reserved" ? "#e1e4ea" : colour(i)}`,
    });
    const row = el(
      "tr",
      { "data-field": l.path, class: flagged.has(i) ? "flagged" : "" },
      swatch,
      el("td", { class: "mono" }, l.path),
      el("td", { class: "mono" }, bitsLabel(l)),
      el("td", { class: "mono" }, raw(bytes, l)),
      el("td", { class: "value" }, value, editable ? el("span", { class: "muted" }, ` ${shownNote(v)}`) : ""),
      el("td", { class: "doc muted" }, l.doc ?? ""),
    );
    t.append(row);
  });
  return t;
}

/** Beside an input, what the value means when the input does not say it (exact 64-bit hex). */
function shownNote(v: FieldValue): string {
  return typeof v === "bigint" ? `0x${v.toString(16)}` : "";
}

/**
 * The diagram and field table of `bytes` read with `layout`.
 * @throws DecodeError when `bytes` is shorter than the layout.
 */
export function bitDiagram(layout: Layout, bytes: Uint8Array, opts: DiagramOptions = {}): HTMLElement {
  const issues: DecodeIssue[] = layout.issues(bytes);
  const index = new Map(layout.leaves.map((l, i) => [l.path, i]));
  const flagged = new Set(issues.flatMap((i) => (index.has(i.field) ? [index.get(i.field) as number] : [])));
  for (const name of opts.flag ?? [])
    layout.leaves.forEach((l, i) => {
      if (l.path === name || l.path.startsWith(`${name}.`)) flagged.add(i);
    });
  return el(
    "div",
    // focusable: it scrolls sideways on a narrow screen
    { class: "diagram", tabindex: "0", role: "region", "aria-label": `${layout.name} bit diagram` },
    grid(layout, bytes, owners(layout), flagged),
    table(layout, bytes, flagged, opts),
  );
}
