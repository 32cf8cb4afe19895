import { describe, expect, it } from "vitest";
import { UsageError } from "../../src/bits/index.js";
import { decodeCommand, halCommand, validateCommand } from "../../src/cli/index.js";
import { HAL_SYMBOLS } from "../../src/hal/index.js";

async function run(...argv: string[]) {
  return runCommand(halCommand, argv);
}

async function runCommand(command: typeof halCommand, argv: string[]) {
  let out = "";
  let err = "";
  const io = {
    out: (t: string) => {
      out += t;
    },
    err: (t: string) => {
      err += t;
    },
  };
  const code = await command.run(argv, io);
  return { code, out, err };
}

describe("sdmakit hal", () => {
  it("write_seed on trn3 (the issue's example): one write at 0x1000 + 0x2000 + 8·(3 + 16·13)", async () => {
    const r = await run("aws_mariana_sdma_write_seed", "--arch", "trn3", "[4096, 5, 3, 1234]", "--json");
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out)).toMatchObject({ writes: [{ addr: "0x3698", value: "0x4d2" }], result: null });
  });
  it.each([
    ["trn1", "0x153c"],
    ["trn3", "0x1540"],
  ])("fabric trigger axi_req_sw_queue index 1 on %s writes %s", async (arch, addr) => {
    const r = await run(
      "aws_reg_write_tdma_model_notific_cfg_fabric_trigger_axi_req_sw_queue",
      "--arch",
      arch,
      "[4096, 1, 7]",
      "--json",
    );
    expect(JSON.parse(r.out).writes).toEqual([
      {
        addr,
        value: "0x7",
        accessor: "aws_reg_write_tdma_model_notific_cfg_fabric_trigger_axi_req_sw_queue",
      },
    ]);
  });
  it("text output lists the writes", async () => {
    const r = await run("aws_reg_write_xt_local_reg", "--arch", "trn2", "[4096, 38, 1]");
    expect(r.out).toBe("write 0x1098 = 0x1  (aws_reg_write_xt_local_reg)\n");
  });
  it("SUNDA xt-local: no writes, exit 0", async () => {
    const r = await run("aws_reg_write_xt_local_reg", "--arch", "trn1", "[4096, 38, 1]", "--json");
    expect([r.code, JSON.parse(r.out).writes]).toEqual([0, []]);
  });
  it("an abort exits 1 with its message", async () => {
    const r = await run("aws_mariana_sdma_write_seed", "--arch", "trn3", "[4096, 16, 0, 1]");
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/al_abort_program\(-1\)/);
  });
  it("the NULL-slot assert on trn2 exits 1", async () => {
    const r = await run("aws_hal_sdma_init_embedded_sem", "--arch", "trn2", "[4096]");
    expect(r.code).toBe(1);
    expect(r.err).toMatch(
      /al_hal_sdma.c:0x28E: aws_hal_sdma_init_embedded_sem: Assertion `kaena_khal.khal_sdma.init_embedded_sem' failed/,
    );
  });
  it("the RDM stub on trn3 returns 0xFFFFFFFF and logs", async () => {
    const r = await run("aws_hal_mariana_rdm_init", "--arch", "trn3", "[]", "--json");
    expect(JSON.parse(r.out)).toMatchObject({
      result: 0xffffffff,
      log: ["aws_hal_mariana_rdm_init is not supported for arch v4"],
    });
  });
  it("a -EINVAL transpose exits 1", async () => {
    const req = { dtype: 6, cols: 4, from: [{ addr: 4096, len: 8 }], to: [{ addr: 4096, len: 8 }] };
    const r = await run(
      "aws_cayman_sdma_m2m_build_transpose_packet",
      "--arch",
      "trn2",
      JSON.stringify([req]),
    );
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/v3 arch only supports transpose with SB as the destination/);
  });
  it("a transpose into SBUF prints its descriptors", async () => {
    const req = { dtype: 6, cols: 4, from: [{ addr: 4096, len: 8 }], to: [{ addr: "0x2000000000", len: 8 }] };
    const r = await run(
      "aws_cayman_sdma_m2m_build_transpose_packet",
      "--arch",
      "trn2",
      JSON.stringify([req]),
      "--json",
    );
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out).result.rx).toMatch(/^[0-9a-f]{32}$/);
  });
  it("bad usage throws UsageError: unknown symbol, wrong arity, no --arch, not an array", async () => {
    await expect(run("nope", "--arch", "trn1", "[]")).rejects.toThrow(UsageError);
    await expect(run("aws_mariana_sdma_write_seed", "--arch", "trn3", "[1]")).rejects.toThrow(/takes 4/);
    await expect(run("al_hal_tpb_get_arch_type")).rejects.toThrow(/--arch/);
    await expect(run("al_hal_tpb_get_arch_type", "--arch", "trn1", "{}")).rejects.toThrow(/JSON array/);
    await expect(run("al_hal_tpb_get_arch_type", "--arch", "trn9", "[]")).rejects.toThrow(UsageError);
  });
  it("list names every symbol", async () => {
    const r = await run("list");
    expect(r.out.trim().split("\n")).toHaveLength(HAL_SYMBOLS.size);
  });
});

describe("the HAL's embedded-semaphore descriptor is a valid udma-rx (len_ctrl bit 31 declared)", () => {
  it("s2m_set_embedded_sem_fields → decode / validate udma-rx: embedded_sem true, no undeclared bit", async () => {
    const sem = { sow: true, wr_mode: 0, wr_val: 1, reg_sel: 0, intra_reg_offset: 0 };
    const built = await run(
      "s2m_set_embedded_sem_fields",
      "--arch",
      "trn3",
      JSON.stringify(["00".repeat(16), sem]),
    );
    const hex = (built.out.match(/"([0-9a-f]{32})"/) as RegExpMatchArray)[1] as string;
    const decoded = await runCommand(decodeCommand, ["udma-rx", hex]);
    expect(decoded.code).toBe(0);
    expect(decoded.out).toMatch(/len_ctrl\.embedded_sem\s+true/);
    expect(decoded.out).not.toMatch(/undeclared/);
    const valid = await runCommand(validateCommand, ["udma-rx", hex]);
    expect([valid.code, valid.out.trim()]).toEqual([0, "udma-rx: valid"]);
  });
});
