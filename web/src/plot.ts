/**
 * busbw against message size as an SVG: sizes on a log₂ axis, one point per row of the table. The
 * grid, axes and text take the page's theme colours from style.css (classes, not fixed colours), so
 * the plot follows prefers-color-scheme.
 */
import type { MeasuredRow, ReportRow } from "../../src/collectives/index.js";
import { log2Span, niceStep, tickLabel } from "./axis.js";

const NS = "http://www.w3.org/2000/svg";
const W = 560;
const H = 260;
const PAD = { left: 56, right: 34, top: 24, bottom: 40 };

function svg<K extends keyof SVGElementTagNameMap>(
  tag: K,
  attrs: Readonly<Record<string, string | number>>,
  text?: string,
): SVGElementTagNameMap[K] {
  const e = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  if (text !== undefined) e.textContent = text;
  return e;
}

/** `1 KiB`, `4 MiB` for a power-of-two byte count. */
export function sizeLabel(bytes: number): string {
  const units = ["B", "KiB", "MiB", "GiB"];
  let u = 0;
  while (bytes >= 1024 && u < units.length - 1) {
    bytes /= 1024;
    u++;
  }
  return `${Number.isInteger(bytes) ? bytes : bytes.toFixed(1)} ${units[u]}`;
}

/** The plot of `rows` (empty axes when there are none yet), with `measured` rows as diamonds. */
export function busbwPlot(rows: readonly ReportRow[], measured: readonly MeasuredRow[] = []): SVGSVGElement {
  const s = svg("svg", {
    viewBox: `0 0 ${W} ${H}`,
    class: "plot",
    id: "busbw-plot",
    role: "img",
    "aria-label": "busbw vs size",
  });
  const { lo, hi } = log2Span(rows.map((r) => r.size));
  const shown = measured.filter((m) => m.busbw !== undefined && m.size > 0);
  const yMax = Math.max(0.01, ...rows.map((r) => r.busbw), ...shown.map((m) => m.busbw as number)) * 1.1;
  const x = (size: number) => PAD.left + ((Math.log2(size) - lo) / (hi - lo)) * (W - PAD.left - PAD.right);
  const y = (bw: number) => H - PAD.bottom - (bw / yMax) * (H - PAD.top - PAD.bottom);
  s.append(svg("text", { x: PAD.left, y: 15, "font-size": 12, "font-weight": 600 }, "busbw (GB/s) vs size"));
  const step = niceStep(yMax, 5);
  for (let v = 0; v <= yMax; v += step) {
    s.append(svg("line", { x1: PAD.left, x2: W - PAD.right, y1: y(v), y2: y(v), class: "grid" }));
    s.append(
      svg(
        "text",
        { x: PAD.left - 6, y: y(v) + 4, "font-size": 10, "text-anchor": "end" },
        tickLabel(v, step),
      ),
    );
  }
  const every = Math.max(1, Math.ceil((hi - lo) / 8));
  for (let e = Math.ceil(lo); e <= hi; e += every) {
    s.append(
      svg("line", {
        x1: x(2 ** e),
        x2: x(2 ** e),
        y1: H - PAD.bottom,
        y2: H - PAD.bottom + 4,
        class: "axis",
      }),
    );
    s.append(
      svg(
        "text",
        { x: x(2 ** e), y: H - PAD.bottom + 16, "font-size": 10, "text-anchor": "middle" },
        sizeLabel(2 ** e),
      ),
    );
  }
  s.append(
    svg("line", {
      x1: PAD.left,
      x2: W - PAD.right,
      y1: H - PAD.bottom,
      y2: H - PAD.bottom,
      class: "axis",
    }),
  );
  s.append(
    svg(
      "text",
      { x: (W + PAD.left) / 2, y: H - 6, "font-size": 11, "text-anchor": "middle" },
      "message size",
    ),
  );
  if (rows.length > 0) {
    s.append(
      svg("polyline", {
        points: rows.map((r) => `${x(r.size)},${y(r.busbw)}`).join(" "),
        fill: "none",
        stroke: "#4c7df0",
        "stroke-width": 2,
      }),
    );
  }
  for (const r of rows) {
    const dot = svg("circle", {
      cx: x(r.size),
      cy: y(r.busbw),
      r: 3.5,
      fill: r.wrong > 0 ? "#d32f2f" : "#4c7df0",
      class: "point",
    });
    dot.append(svg("title", {}, `${r.size} B: ${r.busbw.toFixed(2)} GB/s`));
    s.append(dot);
  }
  for (const m of shown) {
    const [cx, cy] = [x(m.size), y(m.busbw as number)];
    if (!Number.isFinite(cx) || cx < PAD.left - 1 || cx > W - PAD.right + 1) continue;
    const d = svg("path", {
      d: `M${cx} ${cy - 5}L${cx + 5} ${cy}L${cx} ${cy + 5}L${cx - 5} ${cy}Z`,
      fill: "#e0701e",
      class: "measured",
    });
    d.append(svg("title", {}, `measured ${m.size} B: ${(m.busbw as number).toFixed(2)} GB/s`));
    s.append(d);
  }
  if (shown.length > 0)
    s.append(
      svg(
        "text",
        { x: W - PAD.right, y: 15, "font-size": 11, "text-anchor": "end", class: "measured-key" },
        "◆ measured",
      ),
    );
  return s;
}
