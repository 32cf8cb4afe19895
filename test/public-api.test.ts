// The package's public entry points, imported by name the way a user does (after `npm run build`).
import { expect, it } from "vitest";

it("exposes one namespace per layer, and each layer by its subpath", async () => {
  const api = await import("sdmakit");
  expect(Object.keys(api).sort()).toEqual([
    "bits",
    "collectives",
    "engine",
    "hal",
    "isa",
    "numerics",
    "runtime",
    "spec",
  ]);
  const spec = await import("sdmakit/spec");
  expect(api.bits.toHex(spec.FMA_DESC.encode({ a_sel: 1, b_sel: 2, c_sel: 0, scale: 0.5 }))).toBe(
    "0000800000001002000000090000003f",
  );
  for (const layer of ["bits", "numerics", "hal", "runtime", "engine", "isa", "collectives"]) {
    expect(Object.keys(await import(`sdmakit/${layer}`)).length).toBeGreaterThan(0);
  }
});
