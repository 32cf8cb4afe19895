/**
 * `sdmakit run s3d3 --arch trn2 [--core N] [--fill seq|random [--seed N]] [--reduce add|max|min]
 * [--sem i=v,…] [--nodes N] [--json] <hex>`: execute a 64-byte 0xBF word on a fresh simulated device
 * as core N's POOL engine — validate, lower to per-channel legs, post them through the runtime, run
 * the engine — and print the legs and the destination elements each channel wrote.
 */
import {
  DecodeError,
  FieldError,
  fromHex,
  isEinval,
  lookupOwn,
  toHex,
  UsageError,
} from "../../bits/index.js";
import { Device, semaphoreAddress } from "../../engine/index.js";
import type { S3d3Done, S3d3Word, Sb2sbLeg } from "../../isa/index.js";
import {
  decodeS3d3,
  executeS3d3,
  isValidSb2sbCollective,
  planS3d3,
  S3D3_BYTES,
  s3d3LoweringLimits,
} from "../../isa/index.js";
import { SrStream } from "../../numerics/index.js";
import { DTYPE_NAMES, LncSizeFmt, SdmaCceType } from "../../spec/index.js";
import { commandHelp, option, parseArgs, toJson } from "../args.js";
import type { Command, Io } from "../command.js";
import type { OptionTable } from "../options.js";

const OPTIONS = {
  arch: { type: "string", value: "ARCH", default: "trn2", help: "trn2 | trn3" },
  core: { type: "string", value: "N", default: "0", help: "the core whose POOL engine issues the word" },
  fill: {
    type: "string",
    value: "KIND",
    default: "seq",
    help: "seq | random: what every byte the move reads holds first",
  },
  seed: { type: "string", value: "N", help: "seed of --fill random (default 0)" },
  reduce: {
    type: "string",
    value: "OP",
    help: "add | max | min: drive the leg in reduce-copy mode (the word has no op)",
  },
  sem: { type: "string", value: "i=v,…", help: "set semaphores of the core first (so a wait can hold)" },
  nodes: { type: "string", value: "N", default: "1", help: "> 1 shows the multi-node refusal" },
  json: { type: "boolean", help: "JSON output" },
} as const satisfies OptionTable;

const USAGE = commandHelp("sdmakit run s3d3 [options] <hex>", OPTIONS, [
  "Executes the 64-byte S3D3 word (0xBF) on a fresh simulated device as the core's POOL engine and",
  "prints each channel's leg and the destination elements it wrote, in pattern order.",
  "seq fill = (partition offset + channel) & 0xff (destination + 0x80).",
  "exit 0 ran, 1 invalid word / refused / wait not met, 2 bad input",
]);

const REDUCE_OPS: Readonly<Record<string, SdmaCceType>> = {
  add: SdmaCceType.ADD,
  max: SdmaCceType.MAX,
  min: SdmaCceType.MIN,
};

function integer(name: string, text: string | undefined, fallback: number, max: number, min = 0): number {
  if (text === undefined) return fallback;
  const v = Number(text);
  if (!/^\d+$/.test(text.trim()) || v < min || v > max)
    throw new FieldError("run s3d3", name, text, `${min}..${max}`);
  return v;
}

/** `--sem 3=1,4=2` → [[3, 1], [4, 2]]. */
function semaphores(text: string | undefined): [number, number][] {
  if (text === undefined) return [];
  return text.split(",").map((pair) => {
    const m = /^\s*(\d+)\s*=\s*(\d+)\s*$/.exec(pair);
    if (m === null) throw new FieldError("run s3d3", "--sem", pair, "index=value pairs, comma-separated");
    return [integer("--sem index", m[1], 0, 255), integer("--sem value", m[2], 0, 0xffffffff)];
  });
}

/** Fill every byte each leg reads: its source segments, and its destination ones (a reduce reads them). */
function fill(dev: Device, legs: readonly Sb2sbLeg[], kind: string, seed: number): void {
  const rng = new SrStream(seed);
  const partitionStride = BigInt(dev.profile.sbufPartitionStride);
  for (const side of ["src", "dst"] as const) {
    for (const leg of legs) {
      for (const seg of leg.segments) {
        const at = seg[side];
        const offset = Number(at % partitionStride);
        const bytes = new Uint8Array(seg.bytes);
        for (let i = 0; i < bytes.length; i++) {
          bytes[i] =
            kind === "random"
              ? rng.nextU32() & 0xff
              : (offset + i + leg.channel + (side === "dst" ? 0x80 : 0)) & 0xff;
        }
        dev.memory.write(at, bytes);
      }
    }
  }
}

const hexAddr = (a: bigint) => `0x${a.toString(16)}`;

/** What `run s3d3` was asked, parsed and checked. */
interface RunRequest {
  readonly word: S3d3Word;
  readonly dev: Device;
  readonly core: number;
  readonly options: { core: number; nodes: number; reduceOp?: SdmaCceType };
  readonly reduceText: string | undefined;
  readonly fillKind: string;
  readonly seed: number;
  readonly sem: [number, number][];
  readonly json: boolean;
}

function parseRequest(args: readonly string[]): RunRequest {
  const parsed = parseArgs(args, OPTIONS);
  const [what, hex, ...extra] = parsed.positional;
  if (what !== "s3d3" || hex === undefined || extra.length > 0)
    throw new UsageError("run takes `s3d3` and one hex word");
  const bytes = fromHex(hex);
  if (bytes.length !== S3D3_BYTES)
    throw new DecodeError(`an S3D3 word is ${S3D3_BYTES} bytes; got ${bytes.length}`);
  const fillKind = option(parsed, "--fill") as string;
  if (fillKind !== "seq" && fillKind !== "random")
    throw new FieldError("run s3d3", "--fill", fillKind, "seq|random");
  const seedText = option(parsed, "--seed");
  if (seedText !== undefined && fillKind !== "random")
    throw new UsageError("run s3d3: --seed needs --fill random");
  const reduceText = option(parsed, "--reduce");
  const reduceOp = reduceText === undefined ? undefined : lookupOwn(REDUCE_OPS, reduceText);
  if (reduceText !== undefined && reduceOp === undefined)
    throw new FieldError("run s3d3", "--reduce", reduceText, "add|max|min");
  const dev = new Device(option(parsed, "--arch") as string);
  const core = integer("--core", option(parsed, "--core"), 0, dev.profile.neuronCores - 1);
  const nodes = integer("--nodes", option(parsed, "--nodes"), 1, 0xffff, 1);
  return {
    word: decodeS3d3(bytes),
    dev,
    core,
    options: { core, nodes, ...(reduceOp !== undefined && { reduceOp }) },
    reduceText,
    fillKind,
    seed: integer("--seed", seedText, 0, 0xffffffff),
    sem: semaphores(option(parsed, "--sem")),
    json: parsed.flags.has("--json"),
  };
}

/** Print why the word does not run (invalid, or past sdmakit's lowering); true when it does not. */
function refused(io: Io, q: RunRequest): boolean {
  const { word, dev, json } = q;
  const verdict = isValidSb2sbCollective(word, { arch: dev.profile });
  if (!verdict.valid) {
    if (json) io.out(`${toJson({ valid: false, reasons: verdict.reasons })}\n`);
    else {
      io.out(`s3d3: invalid on ${dev.profile.name} (${verdict.reasons.length} reason(s)); not run\n`);
      for (const r of verdict.reasons) io.out(`  ${r.code}  ${r.field}: ${r.message}\n`);
    }
    return true;
  }
  const limits = s3d3LoweringLimits(word, dev.profile, q.options);
  if (limits.length > 0) {
    if (json) io.out(`${toJson({ valid: true, lowered: false, loweringLimits: limits })}\n`);
    else {
      io.out(`s3d3: valid, but sdmakit's lowering cannot run it (${limits.length} limit(s)); not run\n`);
      for (const r of limits) io.out(`  ${r.code}  ${r.field}: ${r.message}\n`);
    }
    return true;
  }
  return false;
}

function run(args: readonly string[], io: Io): number {
  const q = parseRequest(args);
  if (refused(io, q)) return 1;
  const { word, dev, core, options } = q;
  const planned = planS3d3(dev.profile, word, options);
  if (!isEinval(planned)) fill(dev, planned.legs, q.fillKind, q.seed);
  for (const [index, value] of q.sem)
    dev.memory.writeU32(semaphoreAddress(dev.profile, core, "set", index), value);

  const r = executeS3d3(dev, word, options);
  if (isEinval(r)) {
    io.err(`s3d3: refused (-EINVAL): ${r.message}\n`);
    return 1;
  }
  if (r.status === "invalid") throw new Error("unreachable: validated above");
  if (r.status === "waiting") {
    const w = r.wait;
    io.err(
      `s3d3: not issued: waits on semaphore ${w.index} of core ${r.block} ${w.compare} ${w.value}; it is ${r.observed} (set it with --sem ${w.index}=${w.value})\n`,
    );
    return 1;
  }
  (q.json ? printJson : printText)(io, q, r);
  return 0;
}

/** The destination bytes a leg wrote, in pattern order. */
function destination(dev: Device, leg: Sb2sbLeg): string {
  return toHex(concat(leg.segments.map((s) => dev.memory.read(s.dst, s.bytes))));
}

function printJson(io: Io, q: RunRequest, r: S3d3Done): void {
  const legs = r.posted.map((p) => ({
    channel: p.leg.channel,
    kind: p.leg.kind,
    ...(p.leg.op !== undefined && { op: q.reduceText }),
    srcCore: p.leg.srcCore,
    dstCore: p.leg.dstCore,
    partition: p.leg.partition,
    bytes: p.leg.bytes,
    queue: p.queue,
    packets: p.packets.length,
    segments: p.leg.segments.map((s) => ({ src: hexAddr(s.src), dst: hexAddr(s.dst), bytes: s.bytes })),
    destination: destination(q.dev, p.leg),
  }));
  const head = { valid: true, arch: q.dev.profile.name, core: q.core, dtype: dtypeOf(q.word) };
  io.out(`${toJson({ ...head, events: r.events, legs, signal: signalOf(r.signal) }, 2)}\n`);
}

function printText(io: Io, q: RunRequest, r: S3d3Done): void {
  const { dev, word } = q;
  const first = r.legs[0] as Sb2sbLeg;
  const pair = word.lnc_size_fmt === LncSizeFmt.LNC2 ? "LNC2 partner" : "LNC1 self-test";
  const mode = q.reduceText === undefined ? "copy" : `reduce-copy ${q.reduceText}`;
  io.out(
    `s3d3 on ${dev.profile.name} core ${q.core} → core ${first.dstCore} (${pair}), ${r.legs.length} channel(s), ${dtypeOf(word)}, ${mode}\n`,
  );
  for (const p of r.posted) {
    const l = p.leg;
    const s0 = l.segments[0];
    io.out(
      `  ch${l.channel}  ${l.kind}  ${s0 ? `${hexAddr(s0.src)} → ${hexAddr(s0.dst)}` : "-"}  ${l.bytes} bytes  ${l.segments.length} run(s), ${p.packets.length} packet(s) on engine ${p.queue.engine} queue ${p.queue.queue}\n`,
    );
  }
  for (const l of r.legs) io.out(`  dst ch${l.channel}: ${destination(dev, l)}\n`);
  if (r.signal)
    io.out(
      `  signal: semaphore ${r.signal.index} of core ${r.signal.block} ${r.signal.window} ${r.signal.value} → ${dev.semaphore(r.signal.block, r.signal.index)}\n`,
    );
}

const dtypeOf = (word: S3d3Word) => DTYPE_NAMES[word.in_dtype] ?? String(word.in_dtype);

function signalOf(s: { block: number; index: number; window: string; value: number } | undefined) {
  return s === undefined ? null : { core: s.block, index: s.index, window: s.window, value: s.value };
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** The `run` command (`run s3d3`; register in commands/index.ts). */
export const runCommand: Command = {
  usage: USAGE,
  run,
};
