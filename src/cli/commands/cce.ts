/**
 * `sdmakit cce --arch trn2 --op add|fma|min|max --in <dtype> --accum <dtype> --out <dtype>
 * [--scales a,b,…] [--const c] [--sr --seed N] [--json] <source hex…>`: build the CCE packet with
 * the runtime (add_dma_packet_cce), write it on a simulated queue's rings, run the engine, and print
 * the destination bytes. Each source is the little-endian bytes of its elements, as hex.
 */
import { FieldError, fromHex, isEinval, lookupOwn, toHex, UsageError } from "../../bits/index.js";
import { Device, HBM_BASE } from "../../engine/index.js";
import { addDmaPacketCce, type CceInfo, fmaInfo, minMaxConstant, Vring } from "../../runtime/index.js";
import {
  CCE_OP_BY_NAME,
  DTYPE_NAMES,
  Dtype,
  dtypeBytes,
  dtypeFromName,
  KbinDmaDescOp,
} from "../../spec/index.js";
import { commandHelp, option, parseArgs, toJson } from "../args.js";
import type { Command, Io } from "../command.js";
import type { OptionTable } from "../options.js";

const OPTIONS = {
  arch: { type: "string", value: "ARCH", default: "trn2", help: "trn1 | trn2 | trn3" },
  op: { type: "string", value: "OP", help: "add | fma | min | max (required)" },
  in: { type: "string", value: "DTYPE", help: "the sources' dtype (required)" },
  accum: { type: "string", value: "DTYPE", default: "fp32", help: "the accumulator's dtype" },
  out: { type: "string", value: "DTYPE", help: "the destination's dtype (default --in)" },
  scales: { type: "string", value: "a,b,…", help: "FMA: one fp32 scale per source" },
  const: { type: "string", value: "C", help: "MIN / MAX: clamp against this fp32 constant" },
  sr: { type: "boolean", help: "stochastic rounding" },
  seed: { type: "string", value: "N", help: "the SR seed (default 0; needs --sr)" },
  json: { type: "boolean", help: "also the descriptors and engine events, as JSON" },
} as const satisfies OptionTable;

const USAGE = commandHelp("sdmakit cce --op OP --in DTYPE [options] <source hex…>", OPTIONS, [
  `dtypes: ${DTYPE_NAMES.slice(1).join(", ")}.`,
  "Each source is its elements' little-endian bytes in hex. FMA: acc = s0·scale0 + 0, then + si·scalei.",
  "Prints the destination bytes as one hex string.",
]);

/** MODEL placement of the CLI's buffers in HBM: rings, then sources 64 KiB apart, then the destination. */
const TX_RING = HBM_BASE;
const RX_RING = HBM_BASE + 0x1000n;
const SOURCES = HBM_BASE + 0x10000n;
const SOURCE_STRIDE = 0x10000n;

function dtypeOption(parsed: ReturnType<typeof parseArgs>, name: string, fallback?: Dtype): Dtype {
  const text = option(parsed, name);
  if (text === undefined) {
    if (fallback === undefined) throw new UsageError(`${name} is required`);
    return fallback;
  }
  const dt = dtypeFromName(text);
  if (dt === undefined || dt === Dtype.INVALID)
    throw new FieldError("cce", name, text, DTYPE_NAMES.slice(1).join("|"));
  return dt;
}

function f32Word(value: number): number {
  return new Uint32Array(Float32Array.of(value).buffer)[0] as number;
}

function parseNumber(name: string, text: string): number {
  const v = Number(text);
  if (text.trim() === "" || (Number.isNaN(v) && text.trim().toLowerCase() !== "nan"))
    throw new FieldError("cce", name, text, "a number");
  return v;
}

type Parsed = ReturnType<typeof parseArgs>;

/** The sources given as hex: all the same length, a whole number of `--in` elements. */
function sourcesOf(parsed: Parsed, inDt: Dtype): Uint8Array[] {
  if (parsed.positional.length === 0) throw new UsageError("no sources given");
  const sources = parsed.positional.map((h) => fromHex(h));
  const size = sources[0]?.length ?? 0;
  for (const [i, s] of sources.entries()) {
    if (s.length !== size)
      throw new FieldError("cce", `source ${i}`, s.length, `${size} bytes (as source 0)`);
  }
  if (size === 0 || size % dtypeBytes(inDt) !== 0)
    throw new FieldError("cce", "source bytes", size, `a positive multiple of ${dtypeBytes(inDt)}`);
  return sources;
}

/** cce_info from `--scales` (FMA: one per source) or `--const` (MIN / MAX, an fp32 clamp). */
function cceInfoOf(parsed: Parsed, op: number, sources: number): CceInfo | null {
  const scalesText = option(parsed, "--scales");
  const constText = option(parsed, "--const");
  if (scalesText !== undefined && op !== KbinDmaDescOp.FMA)
    throw new UsageError("cce: --scales applies to --op fma");
  if (constText !== undefined && op !== KbinDmaDescOp.MIN && op !== KbinDmaDescOp.MAX)
    throw new UsageError("cce: --const applies to --op min|max");
  if (op === KbinDmaDescOp.FMA) {
    const scales = (scalesText ?? "")
      .split(",")
      .filter((s) => s !== "")
      .map((s) => parseNumber("--scales", s));
    if (scales.length !== sources)
      throw new FieldError("cce", "--scales", scales.length, `${sources} values, one per source`);
    return { num_sources: sources, num_dests: 1, ...fmaInfo(scales) };
  }
  if (constText === undefined) return null;
  const constant = f32Word(parseNumber("--const", constText));
  return { num_sources: sources, num_dests: 1, ...minMaxConstant(constant) };
}

/** A vring on engine 0 queue 0 of the device, with the command's SR settings. */
function vringOf(dev: Device, parsed: Parsed): Vring {
  const seedText = option(parsed, "--seed");
  if (seedText !== undefined && !parsed.flags.has("--sr")) throw new UsageError("cce: --seed needs --sr");
  return new Vring({
    profile: dev.profile,
    memory: dev.memory,
    registers: dev.regs,
    engine: 0,
    queue: 0,
    txBase: TX_RING,
    rxBase: RX_RING,
    slots: 256,
    stochasticRounding: parsed.flags.has("--sr"),
    srSeed: seedText === undefined ? 0 : parseNumber("--seed", seedText),
  });
}

function run(args: readonly string[], io: Io): number {
  const parsed = parseArgs(args, OPTIONS);
  const opText = option(parsed, "--op");
  if (opText === undefined) throw new UsageError("missing --op (add | fma | min | max)");
  const op = lookupOwn<number>(CCE_OP_BY_NAME, opText);
  if (op === undefined) throw new FieldError("cce", "--op", opText, "add|fma|min|max");
  const dev = new Device(option(parsed, "--arch") as string);
  const inDt = dtypeOption(parsed, "--in");
  const accumDt = dtypeOption(parsed, "--accum");
  const outDt = dtypeOption(parsed, "--out", inDt);
  const sources = sourcesOf(parsed, inDt);
  const size = (sources[0] as Uint8Array).length;
  const cceInfo = cceInfoOf(parsed, op, sources.length);
  const vring = vringOf(dev, parsed);

  const srcAddrs = sources.map((_, i) => SOURCES + BigInt(i) * SOURCE_STRIDE);
  const dest = SOURCES + BigInt(sources.length) * SOURCE_STRIDE;
  for (const [i, s] of sources.entries()) dev.memory.write(srcAddrs[i] as bigint, s);
  const request = { op, sources: srcAddrs, dests: [dest], size, inDtype: inDt, accumDtype: accumDt };
  const written = addDmaPacketCce(vring, { ...request, outDtype: outDt, cceInfo });
  if (isEinval(written)) {
    io.err(`cce: refused: ${written.message}\n`);
    return 1;
  }
  const report = dev.run();
  for (const f of report.faults) io.err(`cce: fault: ${f.message}\n`);
  for (const s of report.stalls) io.err(`cce: stall: ${s.reason}\n`);
  if (report.faults.length > 0 || report.stalls.length > 0) return 1;
  const elements = size / dtypeBytes(inDt);
  const out = toHex(dev.memory.read(dest, elements * dtypeBytes(outDt)));
  if (!parsed.flags.has("--json")) {
    io.out(`${out}\n`);
    return 0;
  }
  const descriptors = written.map((w) => ({ ring: w.ring, slot: w.slot, hex: toHex(w.bytes) }));
  io.out(`${toJson({ destination: out, descriptors, events: report.events }, 2)}\n`);
  return 0;
}

/** The `cce` command (register in commands/index.ts). */
export const cceCommand: Command = {
  usage: USAGE,
  run,
};
