import type { Command } from "../command.js";
import { buildCommand } from "./build.js";
import { castCommand } from "./cast.js";
import { cceCommand } from "./cce.js";
import { allgCommand, allrCommand, redsctCommand, sendrecvCommand } from "./collective.js";
import { demoCommand } from "./demo.js";
import { halCommand } from "./hal.js";
import { decodeCommand, describeCommand, encodeCommand, layoutsCommand } from "./layout-commands.js";
import { runCommand } from "./run-s3d3.js";
import { validateCommand } from "./validate.js";
import { vectorsCommand } from "./vectors.js";

/** Every command, in the order `sdmakit help` lists them. */
export const COMMANDS: readonly Command[] = [
  allrCommand,
  allgCommand,
  redsctCommand,
  sendrecvCommand,
  layoutsCommand,
  describeCommand,
  encodeCommand,
  decodeCommand,
  validateCommand,
  runCommand,
  buildCommand,
  castCommand,
  cceCommand,
  halCommand,
  vectorsCommand,
  demoCommand,
];
