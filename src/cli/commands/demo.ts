/**
 * `sdmakit demo`: the seed's worked weighted-average FMA (seed 000 §9.2), encoded from the declared
 * layouts and decoded back — a tour of what sdmakit knows about one CCE request.
 */
import { hex32, toHex, wordsOf } from "../../bits/index.js";
import { Dtype, FMA_DESC, FMA_META, FmaOperand } from "../../spec/index.js";
import { commandHelp, parseArgs, rejectExtraPositionals } from "../args.js";
import type { Command } from "../command.js";

export const demoCommand: Command = {
  usage: commandHelp("sdmakit demo", {}, ["Takes no arguments."]),
  run(args, io) {
    rejectExtraPositionals(parseArgs(args, {}), 0);
    io.out("seed 000 §9.2: dst = 0.5·s0 + 0.5·s1, bf16 in, fp32 accumulate\n\n");
    for (const [i, last] of [
      [0, false],
      [1, true],
    ] as const) {
      const desc = FMA_DESC.encode({
        a_sel: FmaOperand.INPUT_BUFFER,
        b_sel: FmaOperand.SCALE,
        c_sel: FmaOperand.STORED_BUFFER,
        scale: 0.5,
      });
      const meta = FMA_META.encode({
        in_dt: Dtype.BFLOAT16,
        scale_dt: Dtype.FP32,
        accum_dt: Dtype.FP32,
        last,
      });
      io.out(`source ${i}: fma-desc ${toHex(desc)}  W = ${wordsOf(desc).map(hex32).join(" ")}\n`);
      io.out(`          fma-meta ${hex32(wordsOf(meta)[0] as number)}  last=${last}\n`);
    }
    io.out(
      "\nW3 = 0x3f000000 is the FP32 scale 0.5; W2 = 0x09000000 holds a_sel=1 (input), b_sel=2 (scale), c_sel=0 (stored).\n",
    );
    return 0;
  },
};
