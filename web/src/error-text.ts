/** The message of anything thrown, with its class name for the library's typed errors. */
export function errorText(e: unknown): string {
  if (e instanceof Error) return e.name && e.name !== "Error" ? `${e.name}: ${e.message}` : e.message;
  return String(e);
}
