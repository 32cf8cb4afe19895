/**
 * `sdmakit cast <from> <to> [--rounding rne|sr] [--seed N] [--overflow ieee|nan|satfinite] [--json] <hex…>`:
 * convert element codes between dtypes the way the DMA does, source → FP32 → destination
 * (../shared/GROUND_TRUTH.md "Numbers and dtypes"), and print the destination codes in hex.
 */
import { FieldError, UsageError } from "../../bits/index.js";
import {
  decodeToF32,
  encodeFromF32,
  OVERFLOW_POLICIES,
  type OverflowPolicy,
  RNE,
  type Rounding,
  SrStream,
} from "../../numerics/index.js";
import { DTYPE_ALIASES, DTYPE_NAMES, type Dtype, dtypeBytes, dtypeFromName } from "../../spec/index.js";
import { commandHelp, parseArgs } from "../args.js";
import type { Command, Io } from "../command.js";
import { integerOption, type OptionTable } from "../options.js";

const OPTIONS = {
  rounding: { type: "string", value: "MODE", default: "rne", help: "rne | sr (stochastic)" },
  seed: {
    type: "string",
    value: "N",
    help: "seed of the stochastic-rounding stream (default 0; needs --rounding sr)",
  },
  overflow: { type: "string", value: "POLICY", default: "ieee", help: OVERFLOW_POLICIES.join(" | ") },
  json: { type: "boolean", help: "the codes as a JSON array" },
} as const satisfies OptionTable;

const USAGE = commandHelp("sdmakit cast <fromDtype> <toDtype> [options] <hex codes…>", OPTIONS, [
  `dtypes: ${DTYPE_NAMES.slice(1).join(", ")} (also ${DTYPE_ALIASES.join(", ")})`,
  "codes are the element's bits in hex (3f80 is bf16 1.0); output is one code per line, lowercase,",
  "2 hex digits per byte of <toDtype>.",
]);

function parseDtype(arg: string, text: string | undefined): Dtype {
  if (text === undefined) throw new UsageError(`missing <${arg}>`);
  const dt = dtypeFromName(text);
  if (dt === undefined || dt === 0) {
    throw new FieldError("cast", arg, text, {
      allowed: DTYPE_NAMES.slice(1).join("|"),
      detail: `unknown dtype "${text}"`,
    });
  }
  return dt;
}

/** Little-endian bytes of one hex code of `width` bytes. */
function parseCode(text: string, width: number): Uint8Array {
  const digits = text.replace(/^0x/i, "");
  const max = (1n << BigInt(8 * width)) - 1n;
  const allowed = `0..${max.toString(16)} in hex`;
  if (!/^[0-9a-f]+$/i.test(digits))
    throw new FieldError("cast", "code", text, { allowed, detail: `"${text}" is not hex` });
  let value = BigInt(`0x${digits}`);
  if (value > max) throw new FieldError("cast", "code", text, allowed);
  const bytes = new Uint8Array(width);
  for (let i = 0; i < width; i++, value >>= 8n) bytes[i] = Number(value & 0xffn);
  return bytes;
}

function parseRounding(mode: string | undefined, seedText: string | undefined): Rounding {
  if (mode === undefined || mode === "rne") {
    if (seedText !== undefined) throw new UsageError("cast: --seed needs --rounding sr");
    return RNE;
  }
  if (mode !== "sr") throw new FieldError("cast", "--rounding", mode, "rne|sr");
  const seed = seedText === undefined ? 0 : integerOption("--seed", seedText, 0, 0xffffffff);
  return { mode: "sr", rng: new SrStream(seed) };
}

function parseOverflow(text: string | undefined): OverflowPolicy {
  if (text === undefined) return "ieee";
  if (!(OVERFLOW_POLICIES as readonly string[]).includes(text)) {
    throw new FieldError("cast", "--overflow", text, OVERFLOW_POLICIES.join("|"));
  }
  return text as OverflowPolicy;
}

function run(args: readonly string[], io: Io): number {
  const parsed = parseArgs(args, OPTIONS);
  const [fromText, toText, ...codeTexts] = parsed.positional;
  const from = parseDtype("fromDtype", fromText);
  const to = parseDtype("toDtype", toText);
  if (codeTexts.length === 0) throw new UsageError("no codes given");
  const rounding = parseRounding(parsed.options.get("--rounding"), parsed.options.get("--seed"));
  const overflow = parseOverflow(parsed.options.get("--overflow"));

  const fromBytes = dtypeBytes(from);
  const toBytes = dtypeBytes(to);
  const input = new Uint8Array(codeTexts.length * fromBytes);
  codeTexts.forEach((text, i) => {
    input.set(parseCode(text, fromBytes), i * fromBytes);
  });
  const values = new Float32Array(codeTexts.length);
  decodeToF32(from, input, 0, codeTexts.length, values);
  const output = new Uint8Array(codeTexts.length * toBytes);
  encodeFromF32(to, values, 0, codeTexts.length, output, 0, rounding, overflow);

  const hex = codeTexts.map((_, i) =>
    [...output.subarray(i * toBytes, (i + 1) * toBytes)]
      .reverse()
      .map((b) => b.toString(16).padStart(2, "0"))
      .join(""),
  );
  io.out(parsed.flags.has("--json") ? `${JSON.stringify(hex)}\n` : `${hex.join("\n")}\n`);
  return 0;
}

/** The `cast` command (register in commands/index.ts). */
export const castCommand: Command = {
  usage: USAGE,
  run,
};
