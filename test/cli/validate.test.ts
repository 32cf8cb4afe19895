// `sdmakit validate`, run in-process with a capturing io.
import { describe, expect, it } from "vitest";
import { DecodeError, toHex, UsageError } from "../../src/bits/index.js";
import { validateCommand } from "../../src/cli/index.js";
import { encodeS3d3, issuesWithAddr4Arms, S3D3_RULES } from "../../src/isa/index.js";
import { ADDR4, LAYOUTS, S3D3, TENSOR3D } from "../../src/spec/index.js";
import { runInProcess } from "../helpers/cli.js";
import { VALID_WORD } from "../isa/s3d3-fixtures.js";

const VALID_HEX = toHex(encodeS3d3(VALID_WORD));
const BAD_HEX = toHex(encodeS3d3({ ...VALID_WORD, num_active_channels: 129, lnc_size_fmt: 2 }));

describe("sdmakit validate s3d3", () => {
  it("a valid word: exit 0", async () => {
    const r = await runInProcess(validateCommand, ["s3d3", VALID_HEX]);
    expect(r.status).toBe(0);
    expect(r.stdout).toBe("s3d3: valid\n");
  });

  it("prints every reason and exits 1", async () => {
    const r = await runInProcess(validateCommand, ["s3d3", BAD_HEX]);
    expect(r.status).toBe(1);
    expect(r.stdout).toContain("invalid (2 reasons)");
    expect(r.stdout).toContain("lnc-size-fmt-unsupported  lnc_size_fmt:");
    expect(r.stdout).toContain(
      "active-channels-range  num_active_channels: num_active_channels = 129 is out of range 1..128",
    );
  });

  it("--json gives {valid, reasons: [{code, field, message}]}", async () => {
    const r = await runInProcess(validateCommand, ["s3d3", BAD_HEX, "--json"]);
    const j = JSON.parse(r.stdout) as {
      valid: boolean;
      reasons: { code: string; field: string; message: string }[];
    };
    expect(j.valid).toBe(false);
    expect(j.reasons.map((x) => x.code)).toEqual(["lnc-size-fmt-unsupported", "active-channels-range"]);
    for (const x of j.reasons) {
      expect(Object.keys(x)).toEqual(["code", "field", "message"]);
      expect(Object.keys(S3D3_RULES)).toContain(x.code);
    }
    const ok = await runInProcess(validateCommand, ["s3d3", VALID_HEX, "--json"]);
    expect(JSON.parse(ok.stdout)).toEqual({ valid: true, reasons: [] });
  });

  it("--arch trn1 rejects any 0xBF word (SUNDA has no SB2SB)", async () => {
    const r = await runInProcess(validateCommand, ["s3d3", VALID_HEX, "--arch", "trn1", "--json"]);
    expect(r.status).toBe(1);
    expect(JSON.parse(r.stdout).reasons[0].code).toBe("arch-no-sb2sb");
  });

  it("wrong length or non-hex is a DecodeError (exit 2); bad arguments a UsageError", async () => {
    await expect(runInProcess(validateCommand, ["s3d3", VALID_HEX.slice(2)])).rejects.toThrow(DecodeError);
    await expect(runInProcess(validateCommand, ["s3d3", `${VALID_HEX}00`])).rejects.toThrow(
      /64 bytes; got 65/,
    );
    await expect(runInProcess(validateCommand, ["s3d3", "zz"])).rejects.toThrow(DecodeError);
    await expect(runInProcess(validateCommand, ["s3d4", VALID_HEX])).rejects.toThrow(UsageError);
    await expect(runInProcess(validateCommand, ["s3d3"])).rejects.toThrow(UsageError);
    await expect(runInProcess(validateCommand, ["s3d3", VALID_HEX, "--arch", "trn9"])).rejects.toThrow(
      UsageError,
    );
    await expect(runInProcess(validateCommand, ["s3d3", VALID_HEX, "--frob"])).rejects.toThrow(UsageError);
  });
});

describe("sdmakit validate <other layout>", () => {
  it("reports exactly the layout's own issues, for every layout but s3d3", async () => {
    for (const layout of LAYOUTS.filter((l) => l !== S3D3)) {
      for (const fill of [0x00, 0xff]) {
        const bytes = new Uint8Array(layout.bytes).fill(fill);
        const expected = issuesWithAddr4Arms(layout, bytes).map((i) => ({
          code: i.kind,
          field: i.field,
          message: i.message,
        }));
        const r = await runInProcess(validateCommand, [layout.name, toHex(bytes), "--json"]);
        expect(JSON.parse(r.stdout)).toEqual({ valid: expected.length === 0, reasons: expected });
        expect(r.status).toBe(expected.length === 0 ? 0 : 1);
      }
    }
    const seed = await runInProcess(validateCommand, ["seed-init-desc", "ff".repeat(16)]);
    expect(seed.status).toBe(1);
    expect(seed.stdout).toContain("reserved  reserved_w2:");
  });

  it("ADDR4: reserved bytes of the register arm count only when the marker says register", async () => {
    const imm = ADDR4.encode({ addr_immediate: 0x0012_3456 });
    expect((await runInProcess(validateCommand, ["addr4", toHex(imm)])).status).toBe(0);
    const reg = Uint8Array.from([5, 1, 0, 0x80]);
    const r = await runInProcess(validateCommand, ["addr4", toHex(reg), "--json"]);
    expect(r.status).toBe(1);
    expect(JSON.parse(r.stdout).reasons).toEqual([
      expect.objectContaining({ code: "reserved", field: "addr_reg.reserved0" }),
    ]);
    const t = TENSOR3D.encode({
      "start_addr.addr_immediate": 0x0000_ff00,
      "num_elem.0": 1,
      "num_elem.1": 1,
      "num_elem.2": 1,
    });
    expect((await runInProcess(validateCommand, ["tensor3d", toHex(t)])).status).toBe(0);
  });
});
