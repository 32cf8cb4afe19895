/**
 * sdmakit cli: the command-line front end (not a library subpath): `main`, each command, the
 * option tables and the text helpers the commands share. Tests import it from here.
 * @module
 */
export { collectiveSettings } from "./collective-options.js";
export { COLLECTIVE_OPTIONS } from "./collective-table.js";
export { buildCommand } from "./commands/build.js";
export { calibrateCommand } from "./commands/calibrate.js";
export { castCommand } from "./commands/cast.js";
export { cceCommand } from "./commands/cce.js";
export { allgCommand, allrCommand, redsctCommand, sendrecvCommand } from "./commands/collective.js";
export { demoCommand } from "./commands/demo.js";
export { halCommand } from "./commands/hal.js";
export { COMMANDS } from "./commands/index.js";
export { decodeCommand, describeCommand, encodeCommand, layoutsCommand } from "./commands/layout-commands.js";
export { runCommand } from "./commands/run-s3d3.js";
export { validateCommand } from "./commands/validate.js";
export { vectorsCommand } from "./commands/vectors.js";
export { bitExactJson } from "./f32-fields.js";
export { formatsDocument } from "./formats-doc.js";
export { readJsonFile } from "./json-file.js";
export { main } from "./main.js";
export { parseOptions } from "./options.js";
export {
  checkOutputs,
  type FileOps,
  type OutputFile,
  openOutputs,
  removeTemporaries,
  writeOutput,
} from "./output-file.js";
export { createProgress } from "./progress.js";
export { parseSize } from "./sizes.js";
export { VERSION } from "./version.js";
