/**
 * A test title that pins a byte-exact seed-fact row of docs/FIDELITY.md which no vector can hold
 * (a host function-table offset, a marker the vectors only carry inside whole words).
 * test/conformance/ledger-pins.test.ts finds the call by its literal text, so `row` must be a
 * string literal: the start of the row's fact cell. The file holding the call must also write
 * every hex value of that fact cell as a literal, so the row cannot be pinned by a title alone.
 */
export const ledgerRow = (row: string, title: string): string => `${title} (ledger: ${row})`;
