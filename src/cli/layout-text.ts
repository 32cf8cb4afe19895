/**
 * Text renderings of a layout for people and for docs: the per-word bit diagram `describe` prints and
 * the Markdown table docs/FORMATS.md is generated from. Both come from the layout's leaves, so they
 * cannot drift from the encoder.
 */
import type { Layout, Leaf } from "../bits/index.js";

/** `31:24` or `23` — bits inside their 32-bit word, high first. */
function wordBits(l: Leaf): string {
  const lo = l.bit % 32;
  const hi = lo + l.width - 1;
  return l.width === 1 ? `${lo}` : hi < 32 ? `${hi}:${lo}` : `${l.bit + l.width - 1}:${l.bit} (abs)`;
}

function kindText(l: Leaf): string {
  if (l.kind === "const") return `const=${l.value}`;
  if (l.kind === "enum") return "enum";
  if (l.zeroMeans !== undefined) return `uint, 0=${l.zeroMeans}`;
  return l.kind;
}

/** The JSON `describe --json` prints. */
export function describeJson(layout: Layout): object {
  return {
    name: layout.name,
    bytes: layout.bytes,
    doc: layout.doc,
    source: layout.source,
    fields: layout.leaves.map((l) => ({
      name: l.path,
      bit: l.bit,
      width: l.width,
      kind: l.kind,
      ...(l.names ? { names: l.names } : {}),
      ...(l.value !== undefined ? { value: l.value } : {}),
      ...(l.zeroMeans !== undefined ? { zeroMeans: l.zeroMeans } : {}),
      ...(l.doc ? { doc: l.doc } : {}),
      fidelity: l.fidelity,
    })),
  };
}

/** A per-word diagram: one line per 32-bit word, fields high bit first, then the field table. */
export function describeText(layout: Layout): string {
  const lines = [`${layout.name} — ${layout.bytes} bytes — ${layout.source}`, layout.doc, ""];
  const words = Math.ceil(layout.bytes / 4);
  for (let w = 0; w < words; w++) {
    const inWord = layout.leaves
      .filter((l) => l.bit >> 5 === w || (l.bit < w * 32 && l.bit + l.width > w * 32))
      .sort((a, b) => b.bit - a.bit);
    const cells = inWord.map(
      (l) => `[${l.bit >> 5 === w ? wordBits(l) : "…"} ${l.path}${l.kind === "const" ? `=${l.value}` : ""}]`,
    );
    lines.push(`W${w.toString().padEnd(2)} ${cells.join("") || "(none)"}`);
  }
  lines.push(
    "",
    `${"field".padEnd(40) + "bit".padStart(5) + "width".padStart(7)}  kind        fidelity  notes`,
  );
  for (const l of layout.leaves) {
    const notes = [
      l.doc ?? "",
      l.names
        ? `{${Object.entries(l.names)
            .map(([k, v]) => `${k}=${v}`)
            .join(", ")}}`
        : "",
    ]
      .filter(Boolean)
      .join(" ");
    lines.push(
      `${l.path.padEnd(40)}${String(l.bit).padStart(5)}${String(l.width).padStart(7)}  ${kindText(l).padEnd(12)}${l.fidelity.padEnd(10)}${notes}`,
    );
  }
  return `${lines.join("\n")}\n`;
}

/** The Markdown section docs/FORMATS.md holds for one layout. */
export function formatsMarkdown(layout: Layout): string {
  const esc = (s: string) => s.replace(/\|/g, "\\|");
  const rows = layout.leaves.map((l) => {
    const entries = Object.entries(l.names ?? {});
    const names =
      entries.length === 0
        ? ""
        : entries.length <= 8
          ? ` ${entries.map(([k, v]) => `${k}=${v}`).join(", ")}`
          : ` (${entries.length} named values, see \`sdmakit describe ${layout.name}\`)`;
    return `| \`${l.path}\` | ${l.bit} | ${l.width} | ${kindText(l)} | ${l.fidelity} | ${esc((l.doc ?? "") + names)} |`;
  });
  return [
    `## \`${layout.name}\` (${layout.bytes} bytes)`,
    "",
    `${esc(layout.doc)} Source: ${esc(layout.source)}.`,
    "",
    "| field | bit | width | kind | fidelity | notes |",
    "|---|---:|---:|---|---|---|",
    ...rows,
    "",
  ].join("\n");
}
