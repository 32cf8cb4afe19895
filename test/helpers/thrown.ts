/** The error `f` throws (fails the test when it returns): for asserting an error's fields. */
export function thrown(f: () => unknown): unknown {
  try {
    f();
  } catch (e) {
    return e;
  }
  throw new Error("did not throw");
}
