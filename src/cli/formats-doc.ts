/** docs/FORMATS.md, generated from the declared layouts (`npm run docs`; a test fails when stale). */
import { LAYOUTS } from "../spec/index.js";
import { formatsMarkdown } from "./layout-text.js";

export function formatsDocument(): string {
  return [
    "# Formats",
    "",
    "Generated from `src/spec/layouts` by `npm run docs` — do not edit by hand. Bits are absolute, numbered",
    "from bit 0 of byte 0, little-endian. `fidelity`: `seed` = read off libnrt by the seeds, `public` = the",
    "public driver / SDK, `model` = chosen by sdmakit where both are silent (see docs/FIDELITY.md).",
    "",
    ...LAYOUTS.map(formatsMarkdown),
  ].join("\n");
}
