// HAL facts of seed 003 pinned to the seed's literal text.
import { describe, expect, it } from "vitest";
import { SdmaAssertError } from "../../src/bits/index.js";
import {
  archProfile,
  createHalDevice,
  KHAL_REGISTRARS,
  khalCall,
  khalSlotSpec,
} from "../../src/hal/index.js";

describe("seed 003 §1: the khal registrars and trampolines", () => {
  it("kaena_khal_register_funcs_v{2,3,4} @0x468740 / @0x46ED70 / @0x4622E0 map to SUNDA 2 / CAYMAN 3 / MARIANA 4", () => {
    expect(
      [2, 3, 4].map((a) => [KHAL_REGISTRARS[a as 2 | 3 | 4].symbol, KHAL_REGISTRARS[a as 2 | 3 | 4].address]),
    ).toEqual([
      ["kaena_khal_register_funcs_v2", 0x468740],
      ["kaena_khal_register_funcs_v3", 0x46ed70],
      ["kaena_khal_register_funcs_v4", 0x4622e0],
    ]);
  });
  it("aws_hal_sdma_init_embedded_sem @0x451e90 dispatches through kaena_khal + 0x528", () => {
    const spec = khalSlotSpec("init_embedded_sem");
    expect([spec.trampoline?.symbol, spec.trampoline?.address, spec.offset]).toEqual([
      "aws_hal_sdma_init_embedded_sem",
      0x451e90,
      0x528,
    ]);
  });
  it("an INVALID hal_target fails inside al_hal_tpb_get_arch_type, before the trampoline's own :0x28D check or the slot", () => {
    const dev = createHalDevice("trn3");
    dev.halTarget = 0;
    let err: unknown;
    try {
      khalCall(dev, "init_embedded_sem", 0x1000n);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(SdmaAssertError);
    expect((err as SdmaAssertError).func).toBe("al_hal_tpb_get_arch_type");
    expect(dev.regs.log).toEqual([]);
  });
});

describe("GROUND_TRUTH public figures the profiles carry (cross-check)", () => {
  const KiB = 1024;
  it.each([
    // arch, cores, engines/core, queues/engine, B/ns per engine, CCE factor, SBUF KiB/partition, HBM GiB, HBM GB/s
    // (chip-to-chip links are a timing parameter: collectives/topology/timing-params.ts)
    ["trn1", 2, 16, 16, 17, 0.5, 192, 32n, 820],
    ["trn2", 8, 16, 16, 23, 0.5, 224, 96n, 2900],
    ["trn3", 8, 16, 16, 33, 1, 256, 144n, 4900],
  ] as const)("%s", (arch, cores, engines, queues, rate, cce, sbufKiB, hbmGiB, hbm) => {
    const p = archProfile(arch);
    expect([
      p.neuronCores,
      p.dmaEnginesPerCore,
      p.queuesPerEngine,
      p.dmaBytesPerNs,
      p.cceRateFactor,
      p.sbufPartitionBytes,
      p.hbmBytes,
      p.hbmBytesPerNs,
    ]).toEqual([cores, engines, queues, rate, cce, sbufKiB * KiB, hbmGiB * 1024n ** 3n, hbm]);
    // 128 partitions at a 256 KiB stride, PSUM 2 MiB, engine register stride 0x100000 (Trn1 0x40000:
    // the driver's V2_APB_SENG_UDMA_SIZE), 32-source CCE cap (seed; public docs say 16).
    expect([
      p.sbufPartitions,
      p.sbufPartitionStride,
      p.psumBytes,
      p.sdmaEngineStride,
      p.maxCceSources,
    ]).toEqual([128, 256 * KiB, 2 * 1024 * KiB, arch === "trn1" ? 0x40000n : 0x100000n, 32]);
    expect(p.queueArbitration).toBe(arch === "trn3" ? "qos" : "round-robin");
  });
});
