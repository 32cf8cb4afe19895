/**
 * The page's inputs live in the URL fragment (`#view=decode&layout=fma-desc&hex=…`), so a link
 * reproduces the view. The fragment, not the query: it works the same from file:// and any host.
 */

/** The current inputs. */
export function readState(): URLSearchParams {
  return new URLSearchParams(location.hash.replace(/^#/, ""));
}

/** Merge `changes` into the URL (an empty string removes a key) without a new history entry. */
export function writeState(changes: Readonly<Record<string, string>>): void {
  const state = readState();
  for (const [k, v] of Object.entries(changes)) {
    if (v === "") state.delete(k);
    else state.set(k, v);
  }
  history.replaceState(null, "", `#${state.toString()}`);
}
