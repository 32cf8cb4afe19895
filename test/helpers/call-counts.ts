/**
 * Call counts by key, and a wrapper that counts a function's calls under a key — for a vi.mock
 * factory that counts a module's calls (import it there: factories run before the test's imports).
 */
export const callCounts: Record<string, number> = {};

export const counted =
  <A extends unknown[], R>(key: string, f: (...a: A) => R) =>
  (...a: A): R => {
    callCounts[key] = (callCounts[key] ?? 0) + 1;
    return f(...a);
  };
