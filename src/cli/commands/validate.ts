/**
 * `sdmakit validate <layout> <hex> [--arch trn1|trn2|trn3] [--json]`: what the libnrt validators
 * would say about a byte string. `s3d3` runs the full is_valid_sb2sb_collective; every other layout
 * reports its own reserved / constant / enum / undeclared-bit issues. A word valid by libnrt's rules
 * that sdmakit's lowering cannot run gets its lowering limits beside the verdict, marked as such
 * (code `sdmakit-lowering`, JSON `loweringLimits`): the exit code stays libnrt's verdict.
 */
import { didYouMean } from "../../bits/did-you-mean.js";
import { DecodeError, fromHex, lookupOwn, UsageError } from "../../bits/index.js";
import { archProfile } from "../../hal/index.js";
import {
  decodeS3d3,
  issuesWithAddr4Arms,
  isValidSb2sbCollective,
  s3d3LoweringLimits,
} from "../../isa/index.js";
import { validateCceInfo } from "../../runtime/index.js";
import { CCE_INFO, CCE_OP_BY_NAME, type CceOpName, LAYOUTS, layoutByName, S3D3 } from "../../spec/index.js";
import { commandHelp, option, parseArgs } from "../args.js";
import type { Command, Io } from "../command.js";
import type { OptionTable } from "../options.js";

/** One line of the answer, the same shape for the S3D3 validator and for layout issues. */
interface Reason {
  readonly code: string;
  readonly field: string;
  readonly message: string;
}

/** What the validator says, and (s3d3, valid words) what sdmakit's lowering cannot run. */
interface Answer {
  readonly reasons: readonly Reason[];
  readonly loweringLimits: readonly Reason[];
}

/** The CLI default generation for `validate s3d3`: the first with SB2SB. */
const DEFAULT_ARCH = "trn2";

const OPTIONS = {
  arch: {
    type: "string",
    value: "ARCH",
    default: DEFAULT_ARCH,
    help: "trn1 | trn2 | trn3 (s3d3, cce-info --op)",
  },
  op: {
    type: "string",
    value: "OP",
    help: "cce-info: fma | add | min | max — what libnrt checks for that op",
  },
  json: { type: "boolean", help: "JSON output" },
} as const satisfies OptionTable;

const usage = commandHelp("sdmakit validate <layout> <hex> [options]", OPTIONS, [
  "s3d3: the full S3D3 collective validator; cce-info --op: what libnrt checks for that op (FMA",
  "scale dtype vring.c:0x3BA, counts, the MIN/MAX constant dtype, the replication gate on --arch);",
  "other layouts: reserved, constant, enum and undeclared bits.",
  "exit 0 valid, 1 invalid, 2 bad input",
]);

interface Parsed {
  readonly layout: string;
  readonly hex: string;
  readonly arch: string;
  readonly op: CceOpName | undefined;
  readonly json: boolean;
}

function parse(args: readonly string[]): Parsed {
  const p = parseArgs(args, OPTIONS);
  const positional = p.positional;
  const arch = option(p, "--arch") as string;
  const json = p.flags.has("--json");
  const opText = option(p, "--op");
  if (opText !== undefined && lookupOwn(CCE_OP_BY_NAME, opText) === undefined)
    throw new UsageError(
      `--op takes one of ${Object.keys(CCE_OP_BY_NAME).join(", ")}; got ${JSON.stringify(opText)}`,
    );
  const op = opText as CceOpName | undefined;
  const [layout, hex, ...extra] = positional;
  if (layout === undefined || hex === undefined || extra.length > 0)
    throw new UsageError("validate takes a layout name and one hex string");
  return { layout, hex, arch, op, json };
}

function answerOf(p: Parsed): Answer {
  const layout = layoutByName(p.layout);
  if (layout === undefined)
    throw new UsageError(
      `unknown layout ${JSON.stringify(p.layout)}${didYouMean(
        p.layout,
        LAYOUTS.map((l) => l.name),
      )}; see \`sdmakit layouts\``,
    );
  const bytes = fromHex(p.hex);
  if (bytes.length !== layout.bytes) {
    throw new DecodeError(`${layout.name} is ${layout.bytes} bytes; got ${bytes.length}`);
  }
  const arch = archProfile(p.arch);
  if (layout === S3D3) {
    const word = decodeS3d3(bytes);
    const { reasons } = isValidSb2sbCollective(word, { arch });
    const loweringLimits = reasons.length === 0 ? s3d3LoweringLimits(word, arch, { core: 0 }) : [];
    return { reasons, loweringLimits };
  }
  if (p.op !== undefined && layout !== CCE_INFO) throw new UsageError("--op goes with the cce-info layout");
  const reasons: Reason[] = issuesWithAddr4Arms(layout, bytes).map((i) => ({
    code: i.kind,
    field: i.field,
    message: i.message,
  }));
  if (p.op === undefined) return { reasons, loweringLimits: [] };
  return { reasons: [...reasons, ...validateCceInfo(bytes, p.op, arch)], loweringLimits: [] };
}

function print(io: Io, p: Parsed, { reasons, loweringLimits }: Answer): void {
  if (p.json) {
    const limits = loweringLimits.length > 0 ? { loweringLimits } : {};
    io.out(`${JSON.stringify({ valid: reasons.length === 0, reasons, ...limits })}\n`);
  } else if (reasons.length === 0) {
    io.out(`${p.layout}: valid\n`);
    if (loweringLimits.length > 0)
      io.out("  sdmakit lowering limits (not libnrt rules; `run s3d3` refuses the word):\n");
    for (const r of loweringLimits) io.out(`  ${r.code}  ${r.field}: ${r.message}\n`);
  } else {
    io.out(`${p.layout}: invalid (${reasons.length} reason${reasons.length === 1 ? "" : "s"})\n`);
    for (const r of reasons) io.out(`  ${r.code}  ${r.field}: ${r.message}\n`);
  }
}

/**
 * The `validate` command.
 * @throws UsageError on bad arguments or an unknown layout / arch; DecodeError on non-hex or a wrong length.
 * @example sdmakit validate s3d3 bf10…00 --json
 */
export const validateCommand: Command = {
  usage,
  run(args, io) {
    const p = parse(args);
    const answer = answerOf(p);
    print(io, p, answer);
    return answer.reasons.length === 0 ? 0 : 1;
  },
};
