/**
 * The page's inputs live in the URL fragment (`#view=decode&layout=fma-desc&hex=…`), so a link
 * reproduces the view. The fragment, not the query: it works the same from file:// and any host.
 * Every input is written as typed, defaults and empty fields too (an empty value is `key=`), on each
 * change; a view switch is a new history entry, so Back and Forward move within the page.
 */

/** The current inputs. */
export function readState(): URLSearchParams {
  return new URLSearchParams(location.hash.replace(/^#/, ""));
}

/** The fragment the page last wrote or was navigated to (main.ts tells navigations from edits). */
let written = location.hash;

/** Merge `changes` into the URL (a value is kept as typed, empty too); `undefined` removes a key. */
export function writeState(
  changes: Readonly<Record<string, string | undefined>>,
  how: "replace" | "push" = "replace",
): void {
  const state = readState();
  for (const [k, v] of Object.entries(changes)) {
    if (v === undefined) state.delete(k);
    else state.set(k, v);
  }
  const hash = `#${state.toString()}`;
  if (hash === location.hash) return;
  if (how === "push") history.pushState(null, "", hash);
  else history.replaceState(null, "", hash);
  written = location.hash;
}

/** The fragment before a navigation (Back, Forward, a link) and after it; undefined when unchanged. */
export function navigation():
  | { readonly before: URLSearchParams; readonly after: URLSearchParams }
  | undefined {
  if (location.hash === written) return undefined;
  const before = new URLSearchParams(written.replace(/^#/, ""));
  written = location.hash;
  return { before, after: readState() };
}

/**
 * Write every control's value under `prefix + its key` on each change, as typed (checkboxes as
 * `on` or empty): how a view keeps its inputs in the URL. Returns the write, for a view that sets
 * a control's value itself (no event fires then).
 */
export function keepInUrl(
  prefix: string,
  controls: Readonly<Record<string, HTMLInputElement | HTMLSelectElement>>,
): () => void {
  const write = () =>
    writeState(
      Object.fromEntries(
        Object.entries(controls).map(([k, c]) => [
          `${prefix}${k}`,
          c instanceof HTMLInputElement && c.type === "checkbox" ? (c.checked ? "on" : "") : c.value,
        ]),
      ),
    );
  for (const c of Object.values(controls)) {
    c.addEventListener("input", write);
    c.addEventListener("change", write);
  }
  write();
  return write;
}
