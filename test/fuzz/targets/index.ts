/** Every fuzz target, in the order `npm run fuzz` runs them. */
import type { FuzzTarget } from "../target.js";
import { cliArgs } from "./cli-args.js";
import { decode } from "./decode.js";
import { engineChains } from "./engine-chains.js";
import { hal } from "./hal.js";
import { validators } from "./validators.js";

export const TARGETS: readonly FuzzTarget[] = [decode, validators, engineChains, hal, cliArgs];
