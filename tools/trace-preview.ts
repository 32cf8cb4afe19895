// Render a Chrome trace-event file (what `sdmakit allr --trace` writes) to a static HTML/SVG
// timeline, so the README can show a picture of a trace without a network connection:
//   npx tsx tools/trace-preview.ts trace.json trace.html
// then screenshot it (e.g. chromium --headless --screenshot). The trace itself opens in Perfetto.
import { readFileSync } from "node:fs";
import { writeOutput } from "../src/cli/output-file.js";

interface TraceEvent {
  name: string;
  cat?: string;
  ph: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  id?: number | string;
  args?: Record<string, unknown>;
}

const [input, output] = process.argv.slice(2);
if (!input || !output) throw new Error("usage: tsx tools/trace-preview.ts <trace.json> <out.html>");
const raw = JSON.parse(readFileSync(input, "utf8")) as TraceEvent[] | { traceEvents: TraceEvent[] };
const events = Array.isArray(raw) ? raw : raw.traceEvents;

const key = (e: { pid: number; tid: number }) => `${e.pid}/${e.tid}`;
const names = new Map<string, string>();
const processes = new Map<number, string>();
for (const e of events.filter((x) => x.ph === "M")) {
  if (e.name === "process_name") processes.set(e.pid, String(e.args?.name));
  if (e.name === "thread_name") names.set(key(e), String(e.args?.name));
}
const slices = events.filter((e) => e.ph === "X");
const tracks = [...new Set(slices.map(key))].sort((a, b) => {
  const [pa, ta] = a.split("/").map(Number) as [number, number];
  const [pb, tb] = b.split("/").map(Number) as [number, number];
  return pa - pb || ta - tb;
});
const row = new Map(tracks.map((t, i) => [t, i]));
const end = Math.max(...slices.map((e) => e.ts + (e.dur ?? 0)));

const LABEL = 190;
const WIDTH = 1500;
const ROW = 16;
const TOP = 30;
const x = (ts: number) => LABEL + (ts / end) * (WIDTH - LABEL - 10);
const y = (t: string) => TOP + (row.get(t) ?? 0) * ROW;
const palette = ["#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2", "#edc948", "#b07aa1", "#9c755f"];
const cats = [...new Set(slices.map((e) => e.cat ?? e.name))];
const color = (e: TraceEvent) => palette[cats.indexOf(e.cat ?? e.name) % palette.length];

const parts: string[] = [];
for (const t of tracks) {
  const pid = Number(t.split("/")[0]);
  parts.push(
    `<text x="4" y="${y(t) + 11}" font-size="10">${processes.get(pid) ?? pid} · ${names.get(t) ?? t}</text>`,
  );
  parts.push(`<line x1="${LABEL}" x2="${WIDTH}" y1="${y(t) + ROW}" y2="${y(t) + ROW}" stroke="#eee"/>`);
}
for (const e of slices) {
  const w = Math.max(0.6, x(e.ts + (e.dur ?? 0)) - x(e.ts));
  parts.push(
    `<rect x="${x(e.ts).toFixed(2)}" y="${y(key(e)) + 2}" width="${w.toFixed(2)}" height="${ROW - 4}" fill="${color(e)}"><title>${e.name} ${e.ts}µs +${e.dur}µs</title></rect>`,
  );
}
const starts = new Map(events.filter((e) => e.ph === "s").map((e) => [e.id, e]));
for (const f of events.filter((e) => e.ph === "f")) {
  const s = starts.get(f.id);
  if (!s) continue;
  parts.push(
    `<line x1="${x(s.ts)}" y1="${y(key(s)) + ROW / 2}" x2="${x(f.ts)}" y2="${y(key(f)) + ROW / 2}" stroke="#333" stroke-width="0.6" opacity="0.5"/>`,
  );
}
const ticks = Array.from({ length: 11 }, (_, i) => (end * i) / 10);
for (const t of ticks) {
  parts.push(`<text x="${x(t)}" y="20" font-size="10" text-anchor="middle">${t.toFixed(1)} µs</text>`);
}
const legend = cats.map((c, i) => `<tspan fill="${palette[i % palette.length]}">■ ${c}</tspan>`).join("  ");
const height = TOP + tracks.length * ROW + 30;
parts.push(`<text x="${LABEL}" y="${height - 8}" font-size="11">${legend}</text>`);
writeOutput(
  output,
  `<!doctype html><html><body style="margin:0;font-family:sans-serif"><svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${height}">${parts.join("")}</svg></body></html>\n`,
);
console.log(`${tracks.length} tracks, ${slices.length} slices, ${end.toFixed(2)} µs → ${output}`);
