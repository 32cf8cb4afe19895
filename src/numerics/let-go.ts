/**
 * Arenas let go. Numerics keeps a few memos of the last arena it worked in (a buffer tag's last
 * look-up, the scratch a one-source ADD filled with its start code), and each would keep an arena
 * its owner dropped alive: every holder registers how it forgets, and {@link letGoOfArenas} tells
 * them all. Device memory calls it when it is released, a worker thread after each task.
 */
const forgetters: (() => void)[] = [];

/**
 * The buffers of arenas whose owner calls {@link letGoOfArenas} when it drops them (device memory's,
 * those a worker adopts): only these are kept at hand past a call. An arena a caller made through
 * the public API is never kept: nothing would tell numerics that its owner dropped it.
 */
const letGoByOwner = new WeakSet<ArrayBufferLike>();

/** `buffer`'s owner calls {@link letGoOfArenas} when it drops it: numerics may keep it at hand. */
export function keepAtHandUntilLetGo(buffer: ArrayBufferLike): void {
  letGoByOwner.add(buffer);
}

/** Whether numerics may keep `buffer` at hand past a call ({@link keepAtHandUntilLetGo}). */
export function mayKeepAtHand(buffer: ArrayBufferLike): boolean {
  return letGoByOwner.has(buffer);
}

/** Register what a module does to forget the arenas it keeps at hand. */
export function whenArenasLetGo(forget: () => void): void {
  forgetters.push(forget);
}

/** Forget every arena numerics keeps at hand; the next call finds its arena again. */
export function letGoOfArenas(): void {
  for (const forget of forgetters) forget();
}
