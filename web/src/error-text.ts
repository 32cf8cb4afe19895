/** Longest message shown as is; a longer one (a 1 MB paste quoted back) is cut with its length. */
const MAX_SHOWN = 400;

/** The message of anything thrown, with its class name for the library's typed errors. */
export function errorText(e: unknown): string {
  const text =
    e instanceof Error ? (e.name && e.name !== "Error" ? `${e.name}: ${e.message}` : e.message) : String(e);
  return text.length <= MAX_SHOWN ? text : `${text.slice(0, MAX_SHOWN)}… (${text.length} characters in all)`;
}
