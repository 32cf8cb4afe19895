/** Bytes as a person reads them in a message: GiB / MiB / KiB (powers of 1024), three significant digits. */
export function formatBytes(bytes: number): string {
  for (const [unit, size] of [
    ["GiB", 2 ** 30],
    ["MiB", 2 ** 20],
    ["KiB", 2 ** 10],
  ] as const)
    if (bytes >= size) {
      const x = bytes / size;
      return `${x >= 100 ? x.toFixed(0) : x.toPrecision(3)} ${unit}`;
    }
  return `${bytes} B`;
}
