/** The package's version, read from its package.json (one place), for `sdmakit --version` and reports. */
import { createRequire } from "node:module";

export const VERSION: string = (createRequire(import.meta.url)("../../package.json") as { version: string })
  .version;
