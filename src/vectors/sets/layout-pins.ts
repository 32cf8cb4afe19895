/**
 * The ledger facts (docs/FIDELITY.md seed-fact rows, by a phrase of the row) that a layout's encode
 * cases are the subject of.
 */
export const LAYOUT_PINS: Readonly<Record<string, readonly string[]>> = {};
