/**
 * Every HAL symbol (the `sdmakit hal` table) on every arch with random argument lists — right and
 * wrong arity, numbers small and huge, negative, fractional, hex strings, junk: a symbol returns or
 * throws one of sdmakit's own errors (a usage error naming the argument, an emulated libnrt assert),
 * never anything else.
 */
import { SdmakitError } from "../../../src/bits/index.js";
import { createHalDevice, HAL_SYMBOLS } from "../../../src/hal/index.js";
import { Rng } from "../rng.js";
import { describeThrow, Findings, type FuzzTarget } from "../target.js";

const ARCHES = ["trn1", "trn2", "trn3"];
const SYMBOLS = [...HAL_SYMBOLS.entries()];

function argument(rng: Rng): unknown {
  switch (rng.int(10)) {
    case 0:
      return rng.pick([-1, 0.5, Number.NaN, 2 ** 53, -(2 ** 31), 1e300]);
    case 1:
      return `0x${rng.u32().toString(16)}${rng.chance(0.5) ? rng.u32().toString(16).padStart(8, "0") : ""}`;
    case 2:
      return rng.pick(["", "x", "0x", "-5", "1e3", "__proto__", "constructor", null, true, [], {}]);
    case 3:
      return rng.u32();
    default:
      return rng.int(rng.pick([2, 4, 16, 256, 4096, 65536]));
  }
}

function fuzzHal(seed: number, cases: number) {
  const rng = new Rng(seed);
  const found = new Findings();
  for (let c = 0; c < cases; c++) {
    const [name, symbol] = rng.pick(SYMBOLS);
    const arity = rng.chance(0.9) ? symbol.arity : rng.int(symbol.arity + 2);
    const args = Array.from({ length: arity }, () => argument(rng));
    const arch = rng.pick(ARCHES);
    try {
      symbol.run(createHalDevice(arch), args);
      found.count("returned");
    } catch (e) {
      if (e instanceof SdmakitError) found.count("refused");
      else
        found.fail(
          `${name} on ${arch} with ${JSON.stringify(args)} threw ${describeThrow(e)} (fuzz seed ${seed}, case ${c})`,
        );
    }
  }
  return found.result(cases);
}

export const hal: FuzzTarget = { name: "hal", run: fuzzHal };
