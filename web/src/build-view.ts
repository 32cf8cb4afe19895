/**
 * Build: a CCE (or copy) request as `sdmakit build` takes it → the descriptors the runtime writes on
 * the TX and RX rings, each expandable into its bit diagram (and its meta-control word's), or
 * libnrt's refusal (the assert or -EINVAL message) when the request is one libnrt rejects.
 */
import { isEinval, SdmaAssertError, toHex } from "../../src/bits/index.js";
import {
  describeLine,
  describeWritten,
  parseBuildRequest,
  runBuildRequest,
  type WrittenDescriptor,
  wordBytes,
} from "../../src/runtime/index.js";
import { DTYPE_NAMES } from "../../src/spec/index.js";
import { bitDiagram } from "./bit-diagram.js";
import { el, input, labelled, select } from "./dom.js";
import { errorText } from "./error-text.js";
import { keepInUrl, readState } from "./url-state.js";

const DTYPES = DTYPE_NAMES.filter((n) => n !== "invalid");
const DEFAULT_DTYPE: readonly [string, string] = ["", "(default)"];

/** The form's fields and first values: a 3-source bf16 ADD. */
const FORM = {
  arch: "trn2",
  op: "add",
  sources: "0x1000, 0x2000, 0x3000",
  dests: "0x8000",
  size: "4096",
  inDtype: "bf16",
  accumDtype: "",
  outDtype: "",
  scales: "",
  scaleDtype: "",
  constant: "",
  constantDtype: "",
  sr: "",
  seed: "",
} as const;
type FormKey = keyof typeof FORM;

/**
 * The fields only some ops take (libnrt's request keys: a dtype for the CCE ops, scales for FMA, a
 * constant for MIN / MAX). For another op they are disabled and left out of the request, their
 * values kept for when the op comes back.
 */
const cce = (op: string) => op !== "copy";
const TAKEN_BY: Partial<Readonly<Record<FormKey, (op: string) => boolean>>> = {
  inDtype: cce,
  accumDtype: cce,
  outDtype: cce,
  scales: (op) => op === "fma",
  scaleDtype: (op) => op === "fma",
  constant: (op) => op === "min" || op === "max",
  constantDtype: (op) => op === "min" || op === "max",
};
const takes = (op: string, k: FormKey) => TAKEN_BY[k]?.(op) ?? true;

const list = (text: string) => text.split(/[\s,]+/).filter((t) => t !== "");
const numberOr = (text: string) =>
  text.trim() !== "" && Number.isFinite(Number(text)) ? Number(text) : text;

/**
 * The JSON request of the form's values; empty fields, and those the op does not take, are left out
 * so the library's defaults apply.
 */
function requestOf(v: Readonly<Record<FormKey, string>>): Record<string, unknown> {
  const req: Record<string, unknown> = {
    arch: v.arch,
    op: v.op,
    sources: list(v.sources),
    dests: list(v.dests),
    size: numberOr(v.size),
  };
  const given = (k: FormKey) => takes(v.op, k) && v[k].trim() !== "";
  for (const k of ["inDtype", "accumDtype", "outDtype", "scaleDtype", "constantDtype"] as const)
    if (given(k)) req[k] = v[k];
  if (given("scales")) req.scales = list(v.scales).map(numberOr);
  if (given("constant")) req.constant = numberOr(v.constant);
  if (v.sr === "on") req.sr = true;
  if (v.seed.trim() !== "") req.seed = numberOr(v.seed);
  return req;
}

function descriptorCard(w: WrittenDescriptor): HTMLElement {
  const d = describeWritten(w);
  const body = el("div", {}, bitDiagram(w.spec.layout, w.bytes));
  if (d.meta !== undefined && w.spec.metaLayout !== undefined) {
    body.append(el("p", {}, el("strong", {}, `meta-control word ${d.meta.word}`), ` (${d.meta.layout})`));
    body.append(bitDiagram(w.spec.metaLayout, wordBytes(Number(d.meta.word))));
  }
  body.append(el("a", { href: `#view=decode&layout=${d.layout}&hex=${toHex(w.bytes)}` }, "open in Decode"));
  return el("details", { class: "desc", "data-ring": w.ring }, el("summary", {}, describeLine(w)), body);
}

/** Build the Build view into `root`. */
export function mountBuild(root: HTMLElement): void {
  const state = readState();
  const value = (k: FormKey) => state.get(`b_${k}`) ?? FORM[k];
  const dt = (k: FormKey) => select(k, [DEFAULT_DTYPE, ...DTYPES], value(k), FORM[k]);
  const controls: Record<FormKey, HTMLInputElement | HTMLSelectElement> = {
    arch: select("arch", ["trn1", "trn2", "trn3"], value("arch"), FORM.arch),
    op: select("op", ["copy", "add", "fma", "min", "max"], value("op"), FORM.op),
    sources: input("sources", value("sources"), { class: "wide" }),
    dests: input("dests", value("dests"), { class: "wide" }),
    size: input("size", value("size")),
    inDtype: dt("inDtype"),
    accumDtype: dt("accumDtype"),
    outDtype: dt("outDtype"),
    scales: input("scales", value("scales")),
    scaleDtype: dt("scaleDtype"),
    constant: input("constant", value("constant")),
    constantDtype: dt("constantDtype"),
    sr: el("input", { name: "sr", type: "checkbox" }),
    seed: input("seed", value("seed")),
  };
  (controls.sr as HTMLInputElement).checked = value("sr") === "on";
  keepInUrl("b_", controls);
  const form = el("div", { class: "controls" });
  for (const [k, c] of Object.entries(controls))
    form.append(labelled(k === "sr" ? "stochastic rounding" : k, c));
  const out = el("div", { id: "build-out" });
  root.append(form, out);

  const show = (): void => {
    const v = {} as Record<FormKey, string>;
    for (const [k, c] of Object.entries(controls) as [FormKey, HTMLInputElement][])
      v[k] = c.type === "checkbox" ? (c.checked ? "on" : "") : c.value;
    const json = JSON.stringify(requestOf(v));
    out.replaceChildren(el("p", { class: "mono muted" }, `sdmakit build '${json}'`));
    let result: ReturnType<typeof runBuildRequest>;
    try {
      result = runBuildRequest(parseBuildRequest(json));
    } catch (e) {
      const refused = e instanceof SdmaAssertError;
      out.append(
        el(
          "p",
          { class: "error", id: refused ? "refusal" : "build-error", role: "alert" },
          refused ? `refused: ${(e as Error).message}` : `bad input: ${errorText(e)}`,
        ),
      );
      return;
    }
    if (isEinval(result)) {
      out.append(
        el("p", { class: "error", id: "refusal", role: "alert" }, `refused: -EINVAL: ${result.message}`),
      );
      return;
    }
    if (result.reducePacketBytes !== undefined)
      out.append(el("p", {}, `encd_get_cce_reduce_packet_size: ${result.reducePacketBytes} bytes`));
    for (const ring of ["tx", "rx"] as const) {
      const written = result.written.filter((w) => w.ring === ring);
      out.append(
        el(
          "h3",
          {},
          `${ring.toUpperCase()} ring (${ring === "tx" ? "M2S" : "S2M"}): ${written.length} descriptor${written.length === 1 ? "" : "s"}`,
        ),
      );
      for (const w of written) out.append(descriptorCard(w));
    }
  };
  for (const c of Object.values(controls))
    c.addEventListener(c instanceof HTMLSelectElement || c.type === "checkbox" ? "change" : "input", show);
  adaptToOp(controls);
  controls.op.addEventListener("change", () => {
    adaptToOp(controls);
    show();
  });
  show();
}

/** The sources and destinations a copy replaced, given back when a CCE op is picked again. */
const beforeCopy = new WeakMap<HTMLElement, { readonly copy: string; readonly cce: string }>();

/**
 * Fit the form to its op: a copy takes one source and one destination (the first of each is kept,
 * the rest given back when another op is picked, unless edited meanwhile); the fields the op does
 * not take are disabled.
 */
function adaptToOp(controls: Readonly<Record<FormKey, HTMLInputElement | HTMLSelectElement>>): void {
  const op = controls.op.value;
  for (const k of ["sources", "dests"] as const) {
    const c = controls[k];
    const saved = beforeCopy.get(c);
    if (op === "copy" && list(c.value).length > 1) {
      const first = list(c.value)[0] as string;
      beforeCopy.set(c, { copy: first, cce: c.value });
      c.value = first;
      c.dispatchEvent(new Event("change"));
    } else if (op !== "copy" && saved !== undefined) {
      beforeCopy.delete(c);
      if (c.value === saved.copy) {
        c.value = saved.cce;
        c.dispatchEvent(new Event("change"));
      }
    }
  }
  for (const [k, c] of Object.entries(controls) as [FormKey, HTMLInputElement | HTMLSelectElement][]) {
    c.disabled = !takes(op, k);
    c.title = c.disabled ? `${k}: not taken by ${op}` : "";
  }
}
