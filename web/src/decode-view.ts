/**
 * Decode: paste hex, pick a layout or let the page guess it, see the bit diagram, the validator's
 * reasons (S3D3: is_valid_sb2sb_collective; every other layout: its reserved / constant / enum /
 * undeclared bits, as `sdmakit validate` reports them), and edit fields back into hex.
 */

import type { Layout } from "../../src/bits/index.js";
import { DecodeError } from "../../src/bits/index.js";
import { issuesWithAddr4Arms, isValidSb2sbCollective } from "../../src/isa/index.js";
import { LAYOUTS, layoutByName, S3D3 } from "../../src/spec/index.js";
import { bitDiagram } from "./bit-diagram.js";
import { el, labelled, select } from "./dom.js";
import { errorText } from "./error-text.js";
import { formatHex, type HexOrder, parseHexInput } from "./hex-input.js";
import { guessLayouts, layoutSizes } from "./layout-guess.js";
import { DESCRIPTOR_BYTES, guessRing, mayBeRing, slotLine } from "./ring-guess.js";
import { readState, writeState } from "./url-state.js";

/** The seed 000 §9.2 FMA descriptor (the README tour): what the page shows first. */
const EXAMPLE_HEX = "0000800000001002000000090000003f";
/** A paste longer than this stays out of the URL (a link that long is slow to open, or refused). */
export const MAX_URL_HEX = 4096;
/** A paste longer than this is decoded once typing pauses this long (ms), not on every key. */
const LARGE_PASTE = 20_000;
const SETTLE_MS = 250;

interface Reason {
  readonly code: string;
  readonly field: string;
  readonly message: string;
}

function reasonsOf(layout: Layout, bytes: Uint8Array, arch: string): Reason[] {
  if (layout === S3D3) return [...isValidSb2sbCollective(bytes, { arch }).reasons];
  return issuesWithAddr4Arms(layout, bytes).map((i) => ({
    code: i.kind,
    field: i.field,
    message: i.message,
  }));
}

function reasonsList(layout: Layout, reasons: readonly Reason[]): HTMLElement {
  const what = layout === S3D3 ? "is_valid_sb2sb_collective" : `${layout.name} checks`;
  if (reasons.length === 0) return el("p", { class: "ok", id: "verdict" }, `${what}: valid`);
  const list = el("ul", { class: "reasons", id: "reasons" });
  for (const r of reasons)
    list.append(el("li", { "data-code": r.code }, el("code", {}, r.code), ` ${r.field}: ${r.message}`));
  return el(
    "div",
    {},
    el(
      "p",
      { class: "error", id: "verdict" },
      `${what}: invalid (${reasons.length} reason${reasons.length === 1 ? "" : "s"})`,
    ),
    list,
  );
}

/** The most descriptors the page reads as a ring (each a card with a bit diagram). */
const MAX_RING = 256;
/** The layout select's value for "a ring of 16-byte descriptors". */
const RING = "ring";

/**
 * Whether guessing should read `bytes` as a ring: no one layout reads them as valid (its checks, or
 * S3D3's validator on `arch`), every descriptor is read cleanly by its own guess, and each lies in
 * a packet (the paste opens with FIRST and closes with LAST): an invalid S3D3 word stays S3D3.
 */
function ringFits(bytes: Uint8Array, whole: Layout | undefined, arch: string): boolean {
  if (!mayBeRing(bytes.length) || bytes.length > MAX_RING * DESCRIPTOR_BYTES) return false;
  if (whole !== undefined && reasonsOf(whole, bytes, arch).length === 0) return false;
  return guessRing(bytes).every((s) => s.clean && s.packet !== undefined);
}

/** A ring paste: one card per descriptor, in order, with its layout, part and packet; edits write back. */
function ringView(bytes: Uint8Array, onEdit: (b: Uint8Array) => void): HTMLElement {
  const slots = guessRing(bytes);
  const packets = new Set(slots.flatMap((s) => (s.packet === undefined ? [] : [s.packet]))).size;
  const box = el(
    "div",
    { id: "ring" },
    el(
      "p",
      { id: "decode-head" },
      el("strong", { id: "decoded-layout" }, RING),
      ` — ${slots.length} descriptors of ${DESCRIPTOR_BYTES} B, ${packets} packet${packets === 1 ? "" : "s"} (FIRST … LAST), each guessed on its own`,
    ),
  );
  for (const s of slots) {
    const card = el(
      "details",
      { class: "desc", "data-slot": String(s.slot) },
      el("summary", {}, slotLine(s)),
    );
    const layout = s.layout;
    if (layout !== undefined)
      card.addEventListener(
        "toggle",
        () => {
          card.append(
            bitDiagram(layout, s.bytes, {
              onEdit: (edited) => {
                const next = bytes.slice();
                next.set(edited, s.offset);
                onEdit(next);
              },
            }),
          );
        },
        { once: true },
      );
    box.append(card);
  }
  return box;
}

/** Build the Decode view into `root`. */
export function mountDecode(root: HTMLElement): void {
  const state = readState();
  const layoutSel = select(
    "layout",
    [
      ["guess", "guess from the bytes"],
      [RING, "a ring of 16-byte descriptors"],
      ...LAYOUTS.map((l) => [l.name, `${l.name} (${l.bytes} B)`] as const),
    ],
    state.get("layout") ?? "guess",
    "guess",
  );
  const orderSel = select(
    "order",
    [
      ["auto", "auto"],
      ["bytes", "bytes in memory order"],
      ["words", "little-endian u32 words"],
    ],
    state.get("order") ?? "auto",
    "auto",
  );
  const archSel = select("arch", ["trn1", "trn2", "trn3"], state.get("arch") ?? "trn2", "trn2");
  const hex = el("textarea", { name: "hex", rows: "3", spellcheck: "false" });
  hex.value = state.get("hex") ?? EXAMPLE_HEX;
  const out = el("div", { id: "decode-out" });
  const urlNote = el("p", { class: "muted", id: "hex-note", hidden: "" });
  root.append(
    el(
      "div",
      { class: "controls" },
      labelled("layout", layoutSel),
      labelled("hex is", orderSel),
      labelled("arch (S3D3 validator)", archSel),
    ),
    labelled("hex — a digit run, bytes with spaces or 0x, or 0x u32 words as a dump prints them", hex),
    urlNote,
    out,
  );

  const show = (): void => {
    const text = hex.value.trim();
    const inUrl = text.length <= MAX_URL_HEX;
    writeState({
      layout: layoutSel.value,
      order: orderSel.value,
      arch: archSel.value,
      hex: inUrl ? text : undefined,
    });
    urlNote.hidden = inUrl;
    urlNote.textContent = inUrl
      ? ""
      : `This paste (${text.length} characters) is too long for a link: it is not in the URL, so a copied link opens the example.`;
    out.replaceChildren();
    let parsed: ReturnType<typeof parseHexInput>;
    let layout: Layout | undefined;
    try {
      parsed = parseHexInput(hex.value, orderSel.value as HexOrder);
      const { bytes: all, read: as } = parsed;
      const guesses = layoutSel.value === "guess" ? guessLayouts(all) : [];
      if (
        layoutSel.value === RING ||
        (layoutSel.value === "guess" && ringFits(all, guesses[0], archSel.value))
      ) {
        if (!mayBeRing(all.length) || all.length > MAX_RING * DESCRIPTOR_BYTES)
          throw new DecodeError(
            `a ring is 2 to ${MAX_RING} descriptors of ${DESCRIPTOR_BYTES} bytes; got ${all.length} bytes`,
          );
        out.append(
          ringView(all, (edited) => {
            hex.value = formatHex(edited, as);
            show();
          }),
        );
        return;
      }
      layout = layoutSel.value === "guess" ? guesses[0] : layoutByName(layoutSel.value);
      if (layout === undefined)
        throw new DecodeError(
          `no layout is ${all.length} bytes with these constant bits (layout sizes: ${layoutSizes().join(", ")} B)${
            mayBeRing(all.length)
              ? `; as a ring it is ${all.length / DESCRIPTOR_BYTES} descriptors (choose "${RING}")`
              : ""
          }`,
        );
      if (parsed.bytes.length !== layout.bytes)
        throw new DecodeError(
          `${layout.name} is ${layout.bytes} bytes (${layout.bytes * 2} hex digits); got ${parsed.bytes.length}`,
        );
      const head = el(
        "p",
        { id: "decode-head" },
        el("strong", { id: "decoded-layout" }, layout.name),
        ` — ${layout.doc} `,
        el("span", { class: "muted" }, `(${layout.source}; read as ${parsed.read})`),
      );
      if (guesses.length > 1)
        head.append(
          el(
            "span",
            { class: "muted" },
            ` · also fits: ${guesses
              .slice(1)
              .map((g) => g.name)
              .join(", ")}`,
          ),
        );
      out.append(head);
      const { bytes, read } = parsed;
      const reasons = reasonsOf(layout, bytes, archSel.value);
      out.append(
        reasonsList(layout, reasons),
        bitDiagram(layout, bytes, {
          flag: reasons.map((r) => r.field),
          onEdit: (edited) => {
            hex.value = formatHex(edited, read);
            show();
          },
        }),
      );
    } catch (e) {
      out.append(el("p", { class: "error", id: "decode-error", role: "alert" }, errorText(e)));
    }
  };
  let settle: ReturnType<typeof setTimeout> | undefined;
  const showSoon = (): void => {
    clearTimeout(settle);
    if (hex.value.length <= LARGE_PASTE) show();
    else settle = setTimeout(show, SETTLE_MS);
  };
  for (const c of [layoutSel, orderSel, archSel]) c.addEventListener("change", show);
  hex.addEventListener("input", showSoon);
  show();
}
