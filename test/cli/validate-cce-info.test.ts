// `sdmakit validate cce-info <hex> --op …`: what libnrt checks on those bytes, run in-process.
import { describe, expect, it } from "vitest";
import { toHex, UsageError } from "../../src/bits/index.js";
import { validateCommand } from "../../src/cli/index.js";
import { CAYMAN, SUNDA } from "../../src/hal/index.js";
import { validateCceInfo } from "../../src/runtime/index.js";
import { CCE_INFO, Dtype } from "../../src/spec/index.js";
import { runInProcess } from "../helpers/cli.js";

const hex = (fields: Parameters<typeof CCE_INFO.encode>[0]) => toHex(CCE_INFO.encode(fields));
const FMA_OK = hex({
  num_sources: 2,
  num_dests: 1,
  "fma_info.scale_dtype": Dtype.FP32,
  "fma_info.scale.0": 1,
});
/** The review's probe: scale_dtype 1 (uint64), which libnrt asserts on (vring.c:0x3BA). */
const FMA_BAD_SCALE = hex({ num_sources: 2, num_dests: 1, "fma_info.scale_dtype": Dtype.UINT64 });

describe("sdmakit validate cce-info --op", () => {
  it("FMA with an fp32 scale dtype: exit 0", async () => {
    const r = await runInProcess(validateCommand, ["cce-info", FMA_OK, "--op", "fma"]);
    expect(r.stdout).toBe("cce-info: valid\n");
    expect(r.status).toBe(0);
  });
  it("FMA with scale_dtype uint64: exit 1 with libnrt's vring.c:0x3BA assert", async () => {
    const r = await runInProcess(validateCommand, ["cce-info", FMA_BAD_SCALE, "--op", "fma"]);
    expect(r.status).toBe(1);
    expect(r.stdout).toContain(
      "vring.c:0x3BA: vring_add_dma_packet_cce_int: Assertion `sdma_scale_dtype == al_sdma_m2m_meta_ctrl_data_type_fp32' failed.",
    );
    // The same bytes travel fine with ADD, which does not read fma_info.
    expect((await runInProcess(validateCommand, ["cce-info", FMA_BAD_SCALE, "--op", "add"])).status).toBe(0);
  });
  it("MIN/MAX with a constant of a dtype libnrt does not clamp against: -EINVAL message", async () => {
    const bytes = hex({
      num_sources: 2,
      num_dests: 1,
      "min_max_info.use_constant": true,
      "min_max_info.constant_dtype": Dtype.BFLOAT16,
    });
    const r = await runInProcess(validateCommand, ["cce-info", bytes, "--op", "min", "--json"]);
    expect(r.status).toBe(1);
    expect(JSON.parse(r.stdout).reasons).toEqual([
      { code: "einval", field: "cce_info", message: "Unsupported data type for min/max op bf16" },
    ]);
  });
  it("counts: 0 or 33 sources, 0 destinations; replication only past arch 2", () => {
    const info = (num_sources: number, num_dests: number) => CCE_INFO.encode({ num_sources, num_dests });
    expect(validateCceInfo(info(32, 1), "add", CAYMAN)).toEqual([]);
    expect(validateCceInfo(info(0, 1), "add", CAYMAN)[0]?.message).toMatch(
      /num_sources\): 0 is out of range 1\.\.32/,
    );
    expect(validateCceInfo(info(0xffffffff, 1), "add", CAYMAN)[0]?.message).toMatch(
      /4294967295 is out of range/,
    );
    expect(validateCceInfo(info(2, 0), "add", CAYMAN)[0]?.field).toBe("dests");
    expect(validateCceInfo(info(2, 2), "add", CAYMAN)).toEqual([]);
    expect(validateCceInfo(info(2, 2), "add", SUNDA)).toEqual([
      { code: "einval", field: "cce_info", message: "CCE replication not supported for v1/v2 archs" },
    ]);
    expect(validateCceInfo(info(2, 0xffffffff), "add", CAYMAN)).toEqual([
      { code: "einval", field: "cce_info", message: "CCE concatenation not supported" },
    ]);
  });
  it("--op is checked and goes with cce-info only", async () => {
    await expect(runInProcess(validateCommand, ["cce-info", FMA_OK, "--op", "toString"])).rejects.toThrow(
      UsageError,
    );
    await expect(runInProcess(validateCommand, ["cce-info", FMA_OK, "--op", "constructor"])).rejects.toThrow(
      UsageError,
    );
    await expect(runInProcess(validateCommand, ["fma-meta", "00000000", "--op", "fma"])).rejects.toThrow(
      UsageError,
    );
  });
});
