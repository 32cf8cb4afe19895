/**
 * Random bytes into every layout (decode, issues, the ADDR4-arm issues `validate` reports, and the
 * CLI's bit-exact JSON): right-length bytes never throw, and when they have no issue (and the layout
 * no union) the JSON of their fields encodes back to the very same bytes (floats included: review D9). Wrong lengths,
 * offsets and array types (review D14) throw DecodeError, TypeError or RangeError, nothing else.
 */

import { DecodeError } from "../../../src/bits/index.js";
import { bitExactJson } from "../../../src/cli/index.js";
import { issuesWithAddr4Arms } from "../../../src/isa/index.js";
import { LAYOUTS } from "../../../src/spec/index.js";
import { Rng } from "../rng.js";
import { describeThrow, Findings, type FuzzTarget } from "../target.js";

const hex = (b: Uint8Array) => Buffer.from(b).toString("hex");
const BAD_OFFSETS = [Number.NaN, 0.5, -1, 1e300, Number.POSITIVE_INFINITY];

function fuzzDecode(seed: number, cases: number) {
  const rng = new Rng(seed);
  const found = new Findings();
  for (let c = 0; c < cases; c++) {
    const layout = rng.pick(LAYOUTS);
    const bytes = rng.bytes(layout.bytes);
    // Sparse words too: most real fields are small, and zero reserved bits give issue-free bytes.
    if (rng.chance(0.5)) for (let i = 0; i < bytes.length; i++) if (rng.chance(0.8)) bytes[i] = 0;
    const where = `${layout.name} ${hex(bytes)} (fuzz seed ${seed}, case ${c})`;
    try {
      const fields = layout.decode(bytes);
      const issues = [...layout.issues(bytes), ...issuesWithAddr4Arms(layout, bytes)];
      // A union's inactive arm holds whatever the live arm's bits are: no round trip through it.
      if (issues.length === 0 && layout.leaves.every((l) => l.arms.length === 0)) {
        found.count("issue-free");
        const json = JSON.parse(
          JSON.stringify(bitExactJson(layout, bytes, fields).fields, (_k, v) =>
            typeof v === "bigint" ? v.toString() : v,
          ),
        );
        const again = layout.encode(json);
        if (hex(again) !== hex(bytes)) found.fail(`decode → JSON → encode gives ${hex(again)}: ${where}`);
      }
    } catch (e) {
      found.fail(`right-length bytes threw ${describeThrow(e)}: ${where}`);
    }
    // Wrong shapes: a typed refusal, never garbage or an engine message.
    const wrong: [string, () => unknown][] = [
      ["short", () => layout.decode(bytes.subarray(1))],
      ["offset", () => layout.issues(bytes, rng.pick(BAD_OFFSETS))],
      ["Uint16Array", () => layout.decode(new Uint16Array(layout.bytes) as unknown as Uint8Array)],
    ];
    for (const [what, call] of wrong) {
      try {
        call();
        found.fail(`${what} input was accepted: ${where}`);
      } catch (e) {
        if (
          !(e instanceof DecodeError || e instanceof TypeError || e instanceof RangeError) ||
          /BigInt|undefined|null/.test((e as Error).message)
        )
          found.fail(`${what} input threw ${describeThrow(e)}: ${where}`);
      }
    }
  }
  return found.result(cases);
}

export const decode: FuzzTarget = { name: "decode", run: fuzzDecode };
