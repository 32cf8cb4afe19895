/**
 * Trn3 UDMA QoS (GROUND_TRUTH: "round-robin across queues (Trn1/2), 4 QoS classes (Trn3)"). A queue's
 * class comes from the register aws_hal_mariana_sdma_set_udma_qos writes: udma_qos_ctrl[q] in its
 * engine's CSR space (offset and encoding are the HAL's MODEL, src/hal/mariana-csr.ts).
 *
 * MODEL (docs/FIDELITY.md): class 3 is served first, class 0 last (higher value, higher
 * priority, as AXI QoS). Arbitration is strict priority, then round-robin inside a class, once per
 * packet. A queue whose register was never written, or was written without the enable bit, is
 * class 0. The model runs one packet at a time, and every engine keeps its own clock. So one arbiter
 * over all engines gives each engine the same order a per-engine arbiter would.
 */
import { MARIANA_CSR_MODEL, UDMA_QOS_CLASSES, UDMA_QOS_ENABLE } from "../hal/mariana-csr.js";

/** The class of a queue nobody programmed. */
export const DEFAULT_QOS_CLASS = 0;
/** Classes from highest to lowest priority: the order the arbiter serves them. */
export const QOS_SERVICE_ORDER: readonly number[] = Array.from(
  { length: UDMA_QOS_CLASSES },
  (_, i) => UDMA_QOS_CLASSES - 1 - i,
);

/** The queue whose udma_qos_ctrl sits at `offset` in an engine's CSR space, or undefined. */
export function qosQueueAt(offset: number, queues: number): number | undefined {
  const rel = offset - MARIANA_CSR_MODEL.udmaQosCtrl;
  if (rel < 0 || rel % 4 !== 0 || rel / 4 >= queues) return undefined;
  return rel / 4;
}

/** The class a udma_qos_ctrl value selects: bits 1:0 when the enable bit is set. */
export function qosClassOf(value: number): number {
  return (value & UDMA_QOS_ENABLE) !== 0 ? value & (UDMA_QOS_CLASSES - 1) : DEFAULT_QOS_CLASS;
}
