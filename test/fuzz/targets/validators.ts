/**
 * The S3D3 validator (is_valid_sb2sb_collective) on every arch, over random words and mutations of
 * valid ones: no exception, every reason a known code, and on a valid word the lowering either runs
 * or names its limits (review D12) — never an untyped error.
 */
import { SdmakitError } from "../../../src/bits/index.js";
import { archProfile } from "../../../src/hal/index.js";
import {
  decodeS3d3,
  encodeS3d3,
  isValidSb2sbCollective,
  S3D3_REASON_CODES,
  s3d3LoweringLimits,
} from "../../../src/isa/index.js";
import { VALID_WORD } from "../../isa/s3d3-fixtures.js";
import { Rng } from "../rng.js";
import { describeThrow, Findings, type FuzzTarget } from "../target.js";

const ARCHES = ["trn1", "trn2", "trn3"].map((a) => archProfile(a));
const VALID_BYTES = encodeS3d3(VALID_WORD);
const hex = (b: Uint8Array) => Buffer.from(b).toString("hex");

function fuzzValidators(seed: number, cases: number) {
  const rng = new Rng(seed);
  const found = new Findings();
  for (let c = 0; c < cases; c++) {
    const bytes = rng.chance(0.3) ? rng.bytes(64) : VALID_BYTES.slice();
    if (bytes[0] !== 0xbf && rng.chance(0.5)) bytes[0] = 0xbf;
    for (let k = rng.int(4); k > 0; k--) rng.flip(bytes);
    const arch = rng.pick(ARCHES);
    const where = `${arch.name} ${hex(bytes)} (fuzz seed ${seed}, case ${c})`;
    try {
      const word = decodeS3d3(bytes);
      const verdict = isValidSb2sbCollective(word, { arch });
      if (verdict.valid !== (verdict.reasons.length === 0))
        found.fail(`verdict and reasons disagree: ${where}`);
      const unknown = verdict.reasons.find((r) => !S3D3_REASON_CODES.includes(r.code));
      if (unknown) found.fail(`unknown reason code ${unknown.code}: ${where}`);
      if (verdict.valid) {
        found.count("valid");
        const limits = s3d3LoweringLimits(word, arch, { core: rng.int(arch.neuronCores) });
        if (limits.length > 0) found.count("lowering limits");
      }
    } catch (e) {
      found.fail(
        `${e instanceof SdmakitError ? "typed" : "untyped"} exception: ${describeThrow(e)}: ${where}`,
      );
    }
  }
  return found.result(cases);
}

export const validators: FuzzTarget = { name: "validators", run: fuzzValidators };
