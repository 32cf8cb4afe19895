/**
 * How a packet sits on a queue's two rings: the prose and the ring constants. The order of a
 * compute packet's descriptors is declared as data in ring-packet.ts (the builders walk it, a test
 * pins the engine's planner to it); this comment explains it.
 *
 * MODEL (docs/FIDELITY.md "ring model"): the seeds give each 16-byte descriptor's bits but not how a
 * compute descriptor sits beside its data descriptor; we take the public UDMA model (GROUND_TRUTH):
 * a copy is a TX (M2S) descriptor chain for the source stream plus an RX (S2M) chain for the
 * destination, on one queue. The TX chain is opened by FIRST and closed by LAST in len_ctrl; the
 * RX chain carries neither (public driver: udma.h defines FIRST / LAST for M2S only and
 * udma_m2m_build_rx_descriptor writes length, ring id and INT_EN alone): the engine takes RX
 * descriptors from the head until they cover the bytes the TX chain streams (a copy, a transpose,
 * a flush), or the one RX descriptor of a compute packet (engine/decode/packet-plan.ts rxStreamBytes).
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
 *                                               has_meta CLEAR (W0 bit 23 = 0: a data descriptor),
 *                                               meta_ctrl = the op's meta-control word
 *                                               (add-meta / fma-meta / min-max-meta / gce-meta),
 *                                               `last` (meta bit 7) set on the final source only
 *     [gradient-desc]                           GCE only (see below)
 *     [replication-desc × (num_dests − 1)]       combo path, arch > 2: one per extra destination
 *   Every descriptor of the TX chain has len_ctrl.ring_id = the ring phase, FIRST on the first, LAST
 *   on the last. Compute descriptors (has_meta = 1, W0 bit 23: seed-init, min-max, fma, replication,
 *   gradient) carry the ring phase in meta_idx bits 1:0, FIRST / LAST in bits 2 / 3 and DMB in bit 6
 *   — the same bits as the udma len_ctrl view (declared as meta_idx's `position` view in
 *   spec/layouts/descriptors.ts, which checks the coincidence); their W0 bits 22:0 (wb) are 0.
 *   So W0 bit 23 alone tells a compute descriptor (1) from a data descriptor (0); a compute
 *   descriptor's kind follows from W1: seed-init 0x6000000 / 0x4000000 with W2 = 0; min-max
 *   W2 bit 25 set; fma W1 op 4 optype 1; replication W1 op 1 optype 2; gradient W1 op 4 optype 5.
 *   min-max-desc: W2 length = the bytes of one source, W1 const_dt = the constant's SDMA dtype & 7.
 *   Data lengths: a source's TX length = elements × in-dtype bytes; the RX length = elements ×
 *   out-dtype bytes (dtypeBytes). A CCE packet never needs more than one descriptor per stream
 *   (the element cap keeps it ≤ 16 KiB).
 *   RX: udma-rx × 1 for destination 0, with has_meta set and buf2_ptr_lo = the S2M meta-control:
 *   an add-meta word whose out_dt is the output dtype and accum_dt the accumulation dtype (for a
 *   combo packet: the ext-meta word — same nibbles, mid_dt = output dtype, optype 4 = EXT).
 *
 * Combo / EXT packet (seed 000 §5.1; num_dests > 1, arch > 2): the same TX chain, except
 *   - it always opens with a seed-init descriptor carrying the combo-member flag (W1 0x4000000,
 *     sub_desc 2; 0x6000000, sub_desc 3, when the seed is loaded too), MIN/MAX's constant
 *     descriptor following it when use_const;
 *   - every per-source udma-tx but the final one carries COMBO_MORE (0x40000000, bit 30) in its
 *     meta-control word (MODEL: the seed ORs it at 0x44a83b right after build_*_meta_ctrl);
 *   - replication-desc × (num_dests − 1) close it: W1 = replication meta with mode 1
 *     (0x24a00000), W2..W3 = destination k (k = 1 .. num_dests − 1). The engine writes the reduced
 *     result to destination 0 (RX) and to each replication destination, with the RX length.
 *
 * GCE packet (seed 000 §5.2; header format and codec in gce-header.ts):
 *   TX: [seed-init] · per source udma-tx (gce-meta, last on the final) · gradient-desc (mode
 *   COMPRESS 1 / DECOMPRESS 2, block_log2, header_addr). RX: udma-rx × 1 (add-meta out/accum).
 *   COMPRESS: sources are plain tensors (TX length = elements × in bytes); the engine reduces them,
 *   writes the header at header_addr and the payload at the RX destination (RX length =
 *   gcePayloadBytes). DECOMPRESS: one source, the payload (TX length = gcePayloadBytes); the host
 *   writes the header at header_addr before posting; the engine expands into the destination
 *   (RX length = elements × out bytes).
 *
 * The engine reads the CCE op from the meta-control word: op (bits 25:23) = 4 means compute, and
 * optype (bits 22:20) selects ADD 0 / FMA 1 / MAX 2 / MIN 3 / EXT 4 / GCE 5 (min-max-meta's const_dt
 * field is written with the optype). The input dtype of a source is the in_dt nibble (11:8) — for
 * ADD, whose meta-control has no in_dt, the out_dt nibble (15:12) of the TX word.
 *
 * Completion: a packet that must signal is followed on the same TX / RX rings by a 4-byte plain copy
 * whose destination is a semaphore increment window (NeuronCore event block + 0x2700000 + 0x1800 +
 * 4·index, GROUND_TRUTH); the engine's memory map turns that write into the increment.
 *
 * MARIANA embedded-semaphore write (seed 003 §4, s2m_set_embedded_sem_fields; MODEL reading in
 * docs/FIDELITY.md): a plain-copy RX descriptor may carry len_ctrl bit 31 (the seed's
 * desc[+3] |= 0x80, "strong_ord_wr") with al_embedded_sem_t packed into W1 = buf2_ptr_lo (the seed's
 * "a2[0..3]"; bit positions in src/hal/embedded-sem.ts). Not in W0: there the fields would sit on
 * ring_id / FIRST / LAST. After the packet's data has landed the engine updates semaphore
 * intra_reg_offset of region reg_sel, whose address it reads from the engine's
 * embedded_semaphore_update CSRs. The bit on a compute or transpose RX descriptor (whose W1 is taken)
 * or on SUNDA / CAYMAN is a fault.
 */
/** The largest length one descriptor moves; written as 0 in the 16-bit length field (declared there). */
export { MAX_DESCRIPTOR_BYTES } from "./layouts/udma.js";
/** The first ring phase after reset; +1 mod 4 at every wrap. */
export const INITIAL_RING_PHASE = 1;
/** Bytes per descriptor slot. */
export const DESCRIPTOR_BYTES = 16;
/**
 * Rings are 256-byte aligned and a multiple of 16 descriptors, so a ring's end is aligned too
 * (aws-neuron-driver udma.h UDMA_QUEUE_ADDR_BYTE_ALIGNMENT; udma_m2m_init_queue).
 */
export const RING_ALIGN_BYTES = 256;
export const RING_SLOTS_MULTIPLE = 16;
/** At least 32 descriptors per ring (aws-neuron-driver udma.h UDMA_MIN_Q_SIZE; udma_q_init refuses fewer). */
export const RING_MIN_SLOTS = 32;
/** At most 2^24 − 16 descriptors per ring (GROUND_TRUTH; udma.h UDMA_MAX_Q_SIZE). */
export const RING_MAX_SLOTS = 2 ** 24 - 16;

/**
 * Queue registers (udma-regs.ts) as the ring writer programs them and the engine reads them —
 * MODEL, in the spirit of the Annapurna al_hal_udma queue:
 *   drbp_lo / drbp_hi  the ring's base byte address (low / high 32 bits), written at ring creation;
 *   drl                the ring's size in descriptor slots;
 *   drtp_inc           the doorbell: the count of descriptors just written (RX queue first, then TX);
 *   drhp               the head: the slot index (0 .. slots − 1) of the next descriptor the engine
 *                      will fetch; the engine writes it as it consumes, the host reads it.
 * The host keeps 16 slots empty, as the public driver's udma_available_get does ((head − (tail +
 * UDMA_MAX_NUM_CDESC_PER_CACHE_LINE)) mod slots, UDMA_MAX_NUM_CDESC_PER_CACHE_LINE = 16; libnrt's
 * al_udma_available_get is not public), so a ring of n slots holds at most n − 16 outstanding
 * descriptors — a 32-slot ring 16 copies — and refuses a packet that does not fit.
 */
export const RING_RESERVED_SLOTS = 16;

/** Plain copy / CCE packets: at most 64 descriptors per packet (+1 meta; GROUND_TRUTH). */
export const MAX_PACKET_DESCRIPTORS = 64;
