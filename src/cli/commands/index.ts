/**
 * Every command, in the order `sdmakit help` lists them: its name, other words for it and its line
 * of help here, its module loaded only when the command runs or shows its usage (`sdmakit
 * --version` and `sdmakit help` load none of them).
 */
import { COLLECTIVES } from "../../collectives/plan/plan.js";
import type { CommandEntry } from "../command.js";
import { COLLECTIVE_COMMANDS } from "./collective-names.js";

const collective = (name: (typeof COLLECTIVES)[number]): CommandEntry => ({
  name,
  ...COLLECTIVE_COMMANDS[name],
  load: async () => (await import("./collective.js")).collectiveCommand(name),
  help: async () => (await import("../collective-table.js")).collectiveHelp(name),
});

export const COMMANDS: readonly CommandEntry[] = [
  ...COLLECTIVES.map(collective),
  {
    name: "calibrate",
    summary: "fit the timing model to your nccom-test reports; writes a --timing-profile file",
    load: async () => (await import("./calibrate.js")).calibrateCommand,
  },
  {
    name: "layouts",
    summary: "list every declared layout",
    load: async () => (await import("./layout-commands.js")).layoutsCommand,
  },
  {
    name: "describe",
    summary: "show a layout's fields and bit positions",
    load: async () => (await import("./layout-commands.js")).describeCommand,
  },
  {
    name: "encode",
    summary: "encode a JSON object of fields as hex",
    load: async () => (await import("./layout-commands.js")).encodeCommand,
  },
  {
    name: "decode",
    summary: "decode hex bytes into fields",
    load: async () => (await import("./layout-commands.js")).decodeCommand,
  },
  {
    name: "validate",
    summary: "check bytes against a layout (s3d3: the full SB2SB collective validator)",
    load: async () => (await import("./validate.js")).validateCommand,
  },
  {
    name: "run",
    summary: "execute an S3D3 (0xBF) word on a simulated device: legs, engine run, destination bytes",
    load: async () => (await import("./run-s3d3.js")).runCommand,
  },
  {
    name: "build",
    summary: "show the descriptors libnrt builds for a copy / CCE request, as written on the rings",
    load: async () => (await import("./build.js")).buildCommand,
  },
  {
    name: "cast",
    summary: "convert element codes between dtypes through FP32 (RNE or stochastic rounding)",
    load: async () => (await import("./cast.js")).castCommand,
  },
  {
    name: "cce",
    summary: "build a CCE reduce packet with the runtime, run it on the simulated engine, print the result",
    load: async () => (await import("./cce.js")).cceCommand,
  },
  {
    name: "hal",
    summary: "run one per-arch HAL accessor / leaf (seed 003) and print its register writes",
    load: async () => (await import("./hal.js")).halCommand,
  },
  {
    name: "vectors",
    summary: "write the conformance vector sets, or --check a set against this build",
    load: async () => (await import("./vectors.js")).vectorsCommand,
  },
  {
    name: "demo",
    summary: "encode and decode the seed's worked FMA example (dst = 0.5·s0 + 0.5·s1)",
    load: async () => (await import("./demo.js")).demoCommand,
  },
];
