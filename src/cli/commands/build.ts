/**
 * `sdmakit build '<json request>' [--json]`: the descriptors libnrt would write for a copy or CCE
 * request, in ring order, one per line as hex with a decoded summary (issue 4). A request libnrt
 * refuses (an assert, an -EINVAL) prints libnrt's message and exits 1.
 */
import { isEinval, SdmaAssertError, UsageError } from "../../bits/index.js";
import { describeLine, describeWritten, parseBuildRequest, runBuildRequest } from "../../runtime/index.js";
import { commandHelp, JSON_ONLY, parseArgs, toJson } from "../args.js";
import type { Command, Io } from "../command.js";

const USAGE = commandHelp("sdmakit build '<json request>' [--json]", JSON_ONLY, [
  'request: {"arch": "trn1"|"trn2"|"trn3", "op": "copy"|"add"|"fma"|"min"|"max",',
  '          "sources": [addr...], "dests": [addr...], "size": bytes,',
  '          "inDtype", "accumDtype", "outDtype", "scales": [f32...], "scaleDtype",',
  '          "constant", "constantDtype", "sr": bool, "seed", "priorityClass", "dmb", "wrbar"}',
  'addresses are numbers or hex strings; FMA without "scales" is the null cce_info case.',
]);

export const buildCommand: Command = {
  usage: USAGE,
  run(args: readonly string[], io: Io): number {
    const p = parseArgs(args, JSON_ONLY);
    const asJson = p.flags.has("--json");
    const rest = p.positional;
    if (rest.length !== 1) throw new UsageError(`expected one '<json request>' argument; got ${rest.length}`);
    const req = parseBuildRequest(rest[0] as string);
    let result: ReturnType<typeof runBuildRequest>;
    try {
      result = runBuildRequest(req);
    } catch (e) {
      if (!(e instanceof SdmaAssertError)) throw e;
      return refuse(io, asJson, e.message);
    }
    if (isEinval(result)) return refuse(io, asJson, `-EINVAL: ${result.message}`);
    if (asJson) {
      const descriptors = result.written.map(describeWritten);
      const extra =
        result.reducePacketBytes === undefined ? {} : { reducePacketBytes: result.reducePacketBytes };
      io.out(`${toJson({ descriptors, ...extra })}\n`);
      return 0;
    }
    if (result.reducePacketBytes !== undefined) {
      io.out(
        `# encd_get_cce_reduce_packet_size: ${result.reducePacketBytes} bytes (priority class ${req.priorityClass})\n`,
      );
    }
    for (const w of result.written) io.out(`${describeLine(w)}\n`);
    return 0;
  },
};

function refuse(io: Io, asJson: boolean, message: string): number {
  if (asJson) io.out(`${toJson({ refused: message })}\n`);
  else io.err(`refused: ${message}\n`);
  return 1;
}
