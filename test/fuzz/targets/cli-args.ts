/**
 * The CLI's argument parsers, in process through the public `main(argv, io)`: random argument lists
 * for every command built from its options, their plausible and absurd values, and junk. Every call
 * must end with exit 0, 1 or 2; exit 2 with a message; never an exception out of main, a stack trace
 * or a JavaScript engine message (`Cannot read properties`, `is not a function`, …) shown as if it
 * were about the user's input. Sizes stay small (a functional collective of a few KiB): the fuzz
 * is about parsing, not about the size limits (issue 16 item 4 has its own tests).
 */

import { toHex } from "../../../src/bits/index.js";
import { main } from "../../../src/cli/index.js";
import { encodeS3d3 } from "../../../src/isa/index.js";
import { runInProcess } from "../../helpers/cli.js";
import { VALID_WORD } from "../../isa/s3d3-fixtures.js";
import { Rng } from "../rng.js";
import { describeThrow, Findings, type FuzzTarget } from "../target.js";

const S3D3_HEX = toHex(encodeS3d3(VALID_WORD));
const JUNK = [
  "",
  " ",
  "-",
  "--",
  "-x",
  "--bogus",
  "--json=1",
  "__proto__",
  "constructor",
  "toString",
  "NaN",
  "1e400",
  "-0",
  "0x10",
  "\u00e9",
  "{}",
  "[]",
  "null",
];
const NUMBERS = ["0", "1", "2", "3", "7", "-1", "1.5", "", "x", "1e3", "0x4", " 4", "4294967296", "NaN"];
const DTYPES = ["bf16", "fp16", "fp32", "fp8_e4", "fp8_e5", "int8", "bogus", "", "__proto__"];
const ARCHES = ["trn1", "trn2", "trn3", "2", "3", "4", "sunda", "x", ""];
const LAYOUT_NAMES = ["fma-desc", "udma-tx", "udma-rx", "s3d3", "cce-info", "add-meta", "bogus", ""];
const HEXES = ["00", "zz", "", "0000800000001002000000090000003f", S3D3_HEX, "bf", "00".repeat(16)];

/** Per command: its options and the values they draw from; flags take none. */
const OPTIONS: Record<
  string,
  { values: Record<string, readonly string[]>; flags: readonly string[]; positional: () => string[] }
> = {};
const collective = {
  values: {
    "-r": ["1", "2", "4", "8", "0", "-1", "x", "", "2.5"],
    "-N": ["1", "2", "0", "x"],
    "-b": ["8", "64", "1kb", "0", "-1", "x", "", "1e3", "3"],
    "-f": ["2", "4", "1", "0.5", "x", ""],
    "-i": ["512", "1024", "0", "x", ""],
    "-n": NUMBERS,
    "-w": NUMBERS,
    "-d": DTYPES,
    "-o": ["sum", "max", "min", "avg", "prod", "", "constructor"],
    "--arch": ARCHES,
    "--algo": ["auto", "ring", "kangaring", "mesh", "x", "__proto__"],
    "--check-mode": ["exact", "reference", "x"],
    "--seed": NUMBERS,
  },
  flags: ["--check", "--no-check", "--sr", "--timing-only", "--sb2sb", "--json"],
  positional: () => [] as string[],
};
for (const c of ["allr", "allg", "redsct", "sendrecv"]) OPTIONS[c] = collective;
OPTIONS.layouts = { values: {}, flags: ["--json"], positional: () => [] };
OPTIONS.describe = { values: {}, flags: ["--json"], positional: () => [LAYOUT_NAMES[0] as string] };
OPTIONS.decode = { values: {}, flags: ["--json"], positional: () => ["fma-desc", HEXES[3] as string] };
OPTIONS.encode = { values: {}, flags: [], positional: () => ["fma-desc", '{"scale":0.5}'] };
OPTIONS.validate = { values: { "--arch": ARCHES }, flags: ["--json"], positional: () => ["s3d3", S3D3_HEX] };
OPTIONS.run = {
  values: {
    "--arch": ARCHES,
    "--core": NUMBERS,
    "--fill": ["seq", "random", "x"],
    "--seed": NUMBERS,
    "--reduce": ["add", "max", "min", "fma", "toString"],
    "--sem": ["3=1", "3=1,4=2", "x", "256=1", "3="],
    "--nodes": NUMBERS,
  },
  flags: ["--json"],
  positional: () => ["s3d3", S3D3_HEX],
};
OPTIONS.cast = {
  values: { "--rounding": ["rne", "sr", "x"], "--seed": NUMBERS },
  flags: ["--json"],
  positional: () => ["fp32", "bf16", "3f800000"],
};
OPTIONS.cce = {
  values: {
    "--arch": ARCHES,
    "--op": ["add", "fma", "min", "max", "x", "constructor"],
    "--in": DTYPES,
    "--accum": DTYPES,
    "--out": DTYPES,
    "--scales": ["0.5,0.5", "1", "x", ""],
    "--const": ["0", "1.5", "x"],
    "--seed": NUMBERS,
  },
  flags: ["--sr", "--json"],
  positional: () => ["0040", "803f"],
};
OPTIONS.build = {
  values: {},
  flags: ["--json"],
  positional: () => [
    '{"arch":"trn2","op":"add","sources":["0x1000","0x2000"],"dests":["0x3000"],"size":4096,"inDtype":"bf16"}',
  ],
};
OPTIONS.hal = {
  values: { "--arch": ARCHES },
  flags: ["--json"],
  positional: () => ["aws_hal_sdma_write_seed", "[0,1]"],
};
OPTIONS.demo = { values: {}, flags: [], positional: () => [] };

/** The engine's own words, shown to a user as if about their input, mean a missed check. */
const ENGINE_MESSAGE =
  /Cannot read propert|Cannot convert|is not a function|is not iterable|Maximum call stack|Invalid typed array|\n\s+at /;

function argv(rng: Rng): string[] {
  const name = rng.chance(0.02) ? rng.pick(["help", "bogus", ""]) : rng.pick(Object.keys(OPTIONS));
  const spec = OPTIONS[name];
  if (!spec) return [name, ...Array.from({ length: rng.int(3) }, () => rng.pick(JUNK))];
  const args: string[] = rng.chance(0.85) ? spec.positional() : [];
  const values = Object.entries(spec.values);
  for (let k = rng.int(5); k > 0; k--) {
    const r = rng.int(10);
    if (r < 6 && values.length > 0) {
      const [opt, pool] = rng.pick(values);
      if (rng.chance(0.1)) args.push(`${opt}=${rng.pick(pool)}`);
      else args.push(opt, ...(rng.chance(0.95) ? [rng.pick(pool)] : []));
    } else if (r < 8 && spec.flags.length > 0) args.push(rng.pick(spec.flags));
    else if (r < 9) args.push(rng.pick(JUNK));
    else args.splice(rng.int(args.length + 1), 0, rng.pick([...HEXES, ...LAYOUT_NAMES]));
  }
  // Sizes stay small: a functional collective of at most 4 KiB, whatever else was drawn.
  if (spec === collective) args.push("-e", rng.pick(["8", "64", "4kb"]));
  return [name, ...args];
}

async function fuzzCli(seed: number, cases: number) {
  const rng = new Rng(seed);
  const found = new Findings();
  for (let c = 0; c < cases; c++) {
    const args = argv(rng);
    const where = `sdmakit ${JSON.stringify(args)} (fuzz seed ${seed}, case ${c})`;
    try {
      const { status, stdout, stderr } = await runInProcess({ run: main }, args);
      found.count(`exit ${status}`);
      if (![0, 1, 2].includes(status)) found.fail(`exit ${status}: ${where}`);
      if (status === 2 && stderr.trim() === "") found.fail(`exit 2 without a message: ${where}`);
      const engine = ENGINE_MESSAGE.exec(stderr) ?? ENGINE_MESSAGE.exec(stdout);
      if (engine)
        found.fail(
          `JavaScript engine message "${engine[0]}" in the output: ${stderr.split("\n")[0]}: ${where}`,
        );
    } catch (e) {
      found.fail(`exception out of main: ${describeThrow(e)}: ${where}`);
    }
  }
  return found.result(cases);
}

export const cliArgs: FuzzTarget = { name: "cli-args", run: fuzzCli };
