/**
 * `sdmakit validate <layout> <hex> [--arch trn1|trn2|trn3] [--json]`: what the libnrt validators
 * would say about a byte string. `s3d3` runs the full is_valid_sb2sb_collective; every other layout
 * reports its own reserved / constant / enum / undeclared-bit issues.
 */
import { DecodeError, fromHex, UsageError } from "../../bits/index.js";
import { issuesWithAddr4Arms, isValidSb2sbCollective } from "../../isa/index.js";
import { layoutByName, S3D3 } from "../../spec/index.js";
import { commandHelp, option, parseArgs } from "../args.js";
import type { Command, Io } from "../command.js";
import type { OptionTable } from "../options.js";

/** One line of the answer, the same shape for the S3D3 validator and for layout issues. */
interface Reason {
  readonly code: string;
  readonly field: string;
  readonly message: string;
}

/** The CLI default generation for `validate s3d3`: the first with SB2SB. */
const DEFAULT_ARCH = "trn2";

const OPTIONS = {
  arch: { type: "string", value: "ARCH", default: DEFAULT_ARCH, help: "trn1 | trn2 | trn3 (s3d3)" },
  json: { type: "boolean", help: "JSON output" },
} as const satisfies OptionTable;

const usage = commandHelp("sdmakit validate <layout> <hex> [options]", OPTIONS, [
  "s3d3: the full S3D3 collective validator; other layouts: reserved, constant, enum and undeclared bits.",
  "exit 0 valid, 1 invalid, 2 bad input",
]);

interface Parsed {
  readonly layout: string;
  readonly hex: string;
  readonly arch: string;
  readonly json: boolean;
}

function parse(args: readonly string[]): Parsed {
  const p = parseArgs(args, OPTIONS);
  const positional = p.positional;
  const arch = option(p, "--arch") as string;
  const json = p.flags.has("--json");
  const [layout, hex, ...extra] = positional;
  if (layout === undefined || hex === undefined || extra.length > 0)
    throw new UsageError("validate takes a layout name and one hex string");
  return { layout, hex, arch, json };
}

function reasonsOf(p: Parsed): Reason[] {
  const layout = layoutByName(p.layout);
  if (layout === undefined)
    throw new UsageError(`unknown layout ${JSON.stringify(p.layout)}; see \`sdmakit layouts\``);
  const bytes = fromHex(p.hex);
  if (bytes.length !== layout.bytes) {
    throw new DecodeError(`${layout.name} is ${layout.bytes} bytes; got ${bytes.length}`);
  }
  if (layout === S3D3) return [...isValidSb2sbCollective(bytes, { arch: p.arch }).reasons];
  return issuesWithAddr4Arms(layout, bytes).map((i) => ({
    code: i.kind,
    field: i.field,
    message: i.message,
  }));
}

function print(io: Io, p: Parsed, reasons: readonly Reason[]): void {
  if (p.json) {
    io.out(`${JSON.stringify({ valid: reasons.length === 0, reasons })}\n`);
  } else if (reasons.length === 0) {
    io.out(`${p.layout}: valid\n`);
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
  name: "validate",
  summary: "check bytes against a layout (s3d3: the full SB2SB collective validator)",
  usage,
  run(args, io) {
    const p = parse(args);
    const reasons = reasonsOf(p);
    print(io, p, reasons);
    return reasons.length === 0 ? 0 : 1;
  },
};
