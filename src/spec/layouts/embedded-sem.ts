/**
 * al_embedded_sem_t (6 bytes), packed by s2m_set_embedded_sem_fields @0x465500 (seed 003 §4). The
 * seed names the members (sow / wr_mode / wr_val / reg_sel / intra_reg_offset) but not their widths:
 * MODEL widths, one byte each except a 16-bit value.
 */
import { bool, compileLayout, uint } from "../../bits/index.js";

export const EMBEDDED_SEM = compileLayout({
  name: "embedded-sem",
  bytes: 6,
  doc: "The embedded-semaphore write an S2M descriptor performs on completion.",
  source: "libnrt al_embedded_sem_t, s2m_set_embedded_sem_fields @0x465500, seed 003 §4 (widths MODEL)",
  fields: [
    bool("sow", 0, { fidelity: "model", doc: "semaphore-on-write enable" }),
    uint("wr_mode", 8, 8, { fidelity: "model", doc: "write mode (set / increment / ...)" }),
    uint("wr_val", 16, 16, { fidelity: "model", doc: "value written" }),
    uint("reg_sel", 32, 8, { fidelity: "model", doc: "embedded-semaphore region (0..31)" }),
    uint("intra_reg_offset", 40, 8, { fidelity: "model", doc: "semaphore index within the region" }),
  ],
});

/**
 * The same members packed into an S2M descriptor's W1 (buf2_ptr_lo) by s2m_set_embedded_sem_fields
 * (seed 003 §4 gives the members, not their bits: MODEL positions, docs/FIDELITY.md).
 */
export const EMBEDDED_SEM_W1 = compileLayout({
  name: "embedded-sem-w1",
  bytes: 4,
  doc: "al_embedded_sem_t packed into an S2M descriptor's W1 (buf2_ptr_lo).",
  source: "libnrt s2m_set_embedded_sem_fields @0x465500, seed 003 §4 (bit positions MODEL)",
  fields: [
    uint("wr_val", 0, 16, { fidelity: "model", doc: "value written" }),
    uint("intra_reg_offset", 16, 8, { fidelity: "model", doc: "semaphore index within the region" }),
    uint("reg_sel", 24, 5, { fidelity: "model", doc: "embedded-semaphore region (32 regions)" }),
    uint("wr_mode", 29, 2, { fidelity: "model", doc: "write mode" }),
    bool("sow", 31, { fidelity: "model", doc: "semaphore-on-write enable" }),
  ],
});
