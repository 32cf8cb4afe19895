/**
 * `npm run fuzz [-- --seconds S | --cases N] [--seed N] [--target name]`: the fuzz suite
 * (test/fuzz/targets), seeded and bounded. Each target runs batches of cases with seeds seed,
 * seed + 1, … until it has run `--cases` cases or spent `--seconds` (default 30 s per target); a
 * failure prints what reproduces it (target, seed, input) and the run exits 1. `npm test` runs a
 * short fixed budget of the same targets (test/fuzz/fuzz.test.ts); docs/FIDELITY.md records the
 * long runs.
 */
import { parseArgs } from "node:util";
import { TARGETS } from "../test/fuzz/targets/index.js";

const BATCH = 200;

const { values } = parseArgs({
  options: {
    seconds: { type: "string" },
    cases: { type: "string" },
    seed: { type: "string", default: "1" },
    target: { type: "string" },
  },
});

function count(name: string, text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const n = Number(text);
  if (!/^\d+$/.test(text) || n < 1)
    throw new RangeError(`--${name} ${JSON.stringify(text)}: expected a positive integer`);
  return n;
}

const cases = count("cases", values.cases);
const seconds = count("seconds", values.seconds) ?? (cases === undefined ? 30 : Number.POSITIVE_INFINITY);
const seed = count("seed", values.seed) ?? 1;
const targets = TARGETS.filter((t) => values.target === undefined || t.name === values.target);
if (targets.length === 0)
  throw new RangeError(`--target ${values.target}: expected one of ${TARGETS.map((t) => t.name).join(", ")}`);

let failed = 0;
for (const t of targets) {
  const start = performance.now();
  const stats: Record<string, number> = {};
  let done = 0;
  let batchSeed = seed;
  while ((cases === undefined || done < cases) && performance.now() - start < seconds * 1000) {
    const n = Math.min(BATCH, (cases ?? Number.POSITIVE_INFINITY) - done);
    const r = await t.run(batchSeed++, n);
    done += r.cases;
    for (const [k, v] of Object.entries(r.stats)) stats[k] = (stats[k] ?? 0) + v;
    for (const f of r.failures) {
      failed++;
      console.log(`FAIL ${t.name}: ${f}`);
    }
  }
  const s = ((performance.now() - start) / 1000).toFixed(1);
  console.log(`${t.name}: ${done} cases, seeds ${seed}..${batchSeed - 1}, ${s} s, ${JSON.stringify(stats)}`);
}
process.exitCode = failed > 0 ? 1 : 0;
