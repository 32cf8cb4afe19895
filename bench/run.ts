// `npm run bench`: every bench/*.bench.ts default-exports an async function returning rows of
// { name, ratio, note }, each ratio measured against a baseline in the same run (this machine is
// shared and noisy: absolute timings are not comparable between runs, ratios are).
import { readdirSync } from "node:fs";

interface BenchRow {
  name: string;
  ratio: number;
  note?: string;
}

const dir = new URL("./", import.meta.url);
const files = readdirSync(dir)
  .filter((f) => f.endsWith(".bench.ts"))
  .sort();
for (const file of files) {
  const mod = (await import(new URL(file, dir).href)) as { default: () => Promise<BenchRow[]> };
  console.log(`\n${file}`);
  for (const row of await mod.default()) {
    console.log(`  ${row.name.padEnd(56)} ${row.ratio.toFixed(3).padStart(8)}×  ${row.note ?? ""}`);
  }
}
