/**
 * "Did you mean" for a misspelt name: the closest of the names a place knows, by edit distance
 * with adjacent transpositions counted as one edit (`bf61` → `bf16`, `alr` → `allr`,
 * `--minbyte` → `--minbytes`), when it is close enough to be a typo rather than another word.
 */

/** Optimal string alignment distance (Levenshtein plus adjacent transposition), case-insensitive. */
export function editDistance(a: string, b: string): number {
  const s = a.toLowerCase();
  const t = b.toLowerCase();
  const rows = Array.from({ length: s.length + 1 }, (_, i) =>
    Array.from({ length: t.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= s.length; i++) {
    const row = rows[i] as number[];
    const up = rows[i - 1] as number[];
    for (let j = 1; j <= t.length; j++) {
      const cost = s[i - 1] === t[j - 1] ? 0 : 1;
      let d = Math.min((up[j] as number) + 1, (row[j - 1] as number) + 1, (up[j - 1] as number) + cost);
      if (i > 1 && j > 1 && s[i - 1] === t[j - 2] && s[i - 2] === t[j - 1])
        d = Math.min(d, ((rows[i - 2] as number[])[j - 2] as number) + 1);
      row[j] = d;
    }
  }
  return (rows[s.length] as number[])[t.length] as number;
}

/** The most edits a typo of a word this long makes: one per three letters, at least one. */
const budget = (word: string) => Math.max(1, Math.floor(word.replace(/^-+/, "").length / 3));

/** The known name closest to `word` within a typo's reach, or undefined (ties: the first listed). */
export function closest(word: string, known: Iterable<string>): string | undefined {
  let best: string | undefined;
  let bestDistance = budget(word) + 1;
  for (const name of known) {
    const d = editDistance(word, name);
    if (d < bestDistance && name !== word) {
      best = name;
      bestDistance = d;
    }
  }
  return best;
}

/**
 * `; did you mean "X"?` for the closest known name, or "" when none is close; `shown` names the
 * match as the message should (a field's full path for a match on its last name).
 */
export function didYouMean(
  word: string,
  known: Iterable<string>,
  shown: (name: string) => string = (n) => n,
): string {
  const name = closest(word, known);
  return name === undefined ? "" : `; did you mean ${JSON.stringify(shown(name))}?`;
}
