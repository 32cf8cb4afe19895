/**
 * How a packet sits on a queue's two rings — written once here; the runtime's vring writer
 * produces exactly this and the engine's decoder consumes exactly this.
 *
 * MODEL (docs/FIDELITY.md "ring model"): the seeds give each 16-byte descriptor's bits but not how a
 * compute descriptor sits beside its data descriptor; we take the public UDMA model (GROUND_TRUTH):
 * a copy is a TX (M2S) descriptor chain for the source stream plus an RX (S2M) chain for the
 * destination, on one queue, each chain opened by FIRST and closed by LAST in len_ctrl.
 *
 * Plain copy (add_dma_packet):
 *   TX: udma-tx × k   (buf_ptr = source, length ≤ 65536 — 65536 written as 0 —, meta_ctrl
 *                      0x01080003, has_meta clear)
 *   RX: udma-rx × k'  (buf1_ptr = destination, has_meta clear)
 *   The bytes read on TX are written on RX in order; both chains carry the same total length.
 *
 * CCE compute (add_dma_packet_cce → vring_add_dma_packet_cce_int):
 *   TX, in order:
 *     [seed-init-desc]                          when stochastic rounding is on (seed in W3)
 *     [min-max-desc]                            MIN/MAX with use_const: the constant sub-descriptor
 *     per source i:
 *       [fma-desc]                              FMA only: operand selectors + the FP32 scale of i
 *       udma-tx                                 buf_ptr = source i, length = its bytes,
 *                                               meta_ctrl = the op's meta-control word
 *                                               (add-meta / fma-meta / min-max-meta / gce-meta),
 *                                               `last` (meta bit 7) set on the final source only
 *     [replication-desc × (num_dests − 1)]       combo path, arch > 2: one per extra destination
 *   Every descriptor of the chain has len_ctrl.ring_id = the ring phase, FIRST on the first, LAST on
 *   the last. Compute descriptors (has_meta = 1, W0 bit 23) carry the ring phase in meta_idx bits
 *   1:0 and FIRST / LAST in bits 2 / 3 — the same bits as the udma len_ctrl view.
 *   RX: udma-rx × 1 for destination 0, with has_meta set and buf2_ptr_lo = the S2M meta-control:
 *   an add-meta word whose out_dt is the output dtype and accum_dt the accumulation dtype.
 *
 * The engine reads the CCE op from the meta-control word: op (bits 25:23) = 4 means compute, and
 * optype (bits 22:20) selects ADD 0 / FMA 1 / MAX 2 / MIN 3 / EXT 4 / GCE 5 (min-max-meta's const_dt
 * field is written with the optype). The input dtype of a source is the in_dt nibble (11:8) — for
 * ADD, whose meta-control has no in_dt, the out_dt nibble (15:12) of the TX word.
 *
 * Completion: a packet that must signal is followed on the same TX / RX rings by a 4-byte plain copy
 * whose destination is a semaphore increment window (NeuronCore event block + 0x2700000 + 0x1800 +
 * 4·index, GROUND_TRUTH); the engine's memory map turns that write into the increment.
 */

/** Bit 23 of len_ctrl: the descriptor is a compute descriptor / carries an S2M meta-control. */
export const LEN_CTRL_HAS_META = 1 << 23;
/** len_ctrl FIRST (bit 26) and LAST (bit 27). */
export const LEN_CTRL_FIRST = 1 << 26;
export const LEN_CTRL_LAST = 1 << 27;
/** The largest length one descriptor moves; written as 0 in the 16-bit length field. */
export const MAX_DESCRIPTOR_BYTES = 65536;
/** The first ring phase after reset; +1 mod 4 at every wrap. */
export const INITIAL_RING_PHASE = 1;
/** Bytes per descriptor slot. */
export const DESCRIPTOR_BYTES = 16;
/** Rings are 256-byte aligned and a multiple of 16 descriptors. */
export const RING_ALIGN_BYTES = 256;
export const RING_SLOTS_MULTIPLE = 16;
/** At most 2^24 − 16 descriptors per ring (GROUND_TRUTH). */
export const RING_MAX_SLOTS = 2 ** 24 - 16;
