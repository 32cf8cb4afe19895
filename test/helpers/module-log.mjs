// `node --import ./module-log.mjs …`: appends the URL of every module the process loads, one a
// line, to the file named by SDMAKIT_MODULE_LOG (the hooks run on their own thread, so they write
// to a file rather than posting back). test/cli/lazy-commands.test.ts counts what a command loads.
import { register } from "node:module";

const HOOKS = `
import { appendFileSync } from "node:fs";
let log;
export function initialize(data) { log = data.log; }
export async function load(url, context, next) {
  if (url.startsWith("file:")) appendFileSync(log, url + "\\n");
  return next(url, context);
}
`;
const log = process.env.SDMAKIT_MODULE_LOG;
if (log !== undefined) register(`data:text/javascript,${encodeURIComponent(HOOKS)}`, { data: { log } });
