/**
 * What the engine reports for every executed packet: enough for a timing model and a trace
 * (Perfetto) without re-reading memory. Times come from the swappable {@link CostModel}.
 */

/** The kind of work a packet did. */
export type WorkKind = "copy" | "cce" | "gce-compress" | "gce-decompress" | "transpose" | "fence";

/** The work of one packet, before it is placed in time. */
export interface Work {
  readonly engine: number;
  readonly queue: number;
  readonly kind: WorkKind;
  /** CCE op for `cce` / GCE packets (`add`, `fma`, `min`, `max`). */
  readonly op?: "add" | "fma" | "min" | "max";
  /** TX + RX descriptors consumed. */
  readonly descriptors: number;
  readonly bytesRead: number;
  readonly bytesWritten: number;
  /** Source streams read (1 for a copy). */
  readonly sources: number;
  /** Destinations written (RX + replication). */
  readonly destinations: number;
  /** The packet asked for a data memory barrier / write barrier (DMB, wrbar). */
  readonly barrier: boolean;
  /** Ring slots of the first TX and RX descriptors. */
  readonly txSlot: number;
  readonly rxSlot: number;
}

/** An executed packet placed in time, in ns since the device was created. */
export interface EngineEvent extends Work {
  readonly start: number;
  readonly end: number;
}
