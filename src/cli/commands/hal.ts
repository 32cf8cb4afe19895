/**
 * `sdmakit hal <libnrt symbol> --arch trn1|trn2|trn3 '<json array of args>' [--json]`: run one
 * seed-003 accessor or leaf on a fresh simulated device and print the register writes it made.
 * An abort or assert exits 1 with its message; so does a -EINVAL return.
 */
import { parseJsonText, UsageError } from "../../bits/index.js";
import { HAL_SYMBOLS, runHalSymbol } from "../../hal/index.js";
import { commandHelp, option, parseArgs } from "../args.js";
import type { Command, Io } from "../command.js";
import type { OptionTable } from "../options.js";

const OPTIONS = {
  arch: { type: "string", value: "ARCH", help: "trn1 | trn2 | trn3 (required)" },
  json: { type: "boolean", help: "JSON output" },
} as const satisfies OptionTable;

const USAGE = commandHelp(
  "sdmakit hal <libnrt symbol> --arch ARCH ['<json array of args>'] [--json]",
  OPTIONS,
  [
    "       sdmakit hal list        (every symbol with its parameters)",
    'A HAL context argument is the SDMA CSR base it carries; 64-bit values may be "0x…" strings.',
    "e.g. sdmakit hal aws_mariana_sdma_write_seed --arch trn3 '[4096, 5, 3, 1234]'",
  ],
);

interface Parsed {
  readonly symbol: string;
  readonly arch: string;
  readonly args: unknown[];
  readonly json: boolean;
}

function parse(argv: readonly string[]): Parsed {
  const p = parseArgs(argv, OPTIONS);
  const arch = option(p, "--arch");
  const json = p.flags.has("--json");
  const rest = p.positional;
  const [symbol, argText, extra] = rest;
  if (symbol === undefined) throw new UsageError("missing <libnrt symbol> (sdmakit hal list shows them)");
  if (extra !== undefined) throw new UsageError(`unexpected ${rest.slice(2).join(" ")}`);
  if (arch === undefined) throw new UsageError("--arch is required");
  const args: unknown = argText === undefined ? [] : parseJsonText("arguments", argText);
  if (!Array.isArray(args)) throw new UsageError(`arguments must be a JSON array, got ${argText}`);
  return { symbol, arch, args, json };
}

function list(io: Io): number {
  for (const [name, s] of HAL_SYMBOLS) io.out(`${name}(${s.params.join(", ")})\n`);
  return 0;
}

export const halCommand: Command = {
  usage: USAGE,
  run(argv, io) {
    if (argv[0] === "list") return list(io);
    const { symbol, arch, args, json } = parse(argv);
    const { writes, result, log, error: failure } = runHalSymbol(arch, symbol, args);
    if (json) {
      const out: Record<string, unknown> = { writes, result, log };
      if (failure !== undefined) out.error = failure;
      io.out(`${JSON.stringify(out)}\n`);
    } else {
      for (const w of writes) io.out(`write ${w.addr} = ${w.value}  (${w.accessor})\n`);
      for (const m of log) io.out(`log: ${m}\n`);
      if (result !== null) io.out(`result: ${JSON.stringify(result)}\n`);
    }
    if (failure !== undefined) {
      io.err(`${failure}\n`);
      return 1;
    }
    return 0;
  },
};
