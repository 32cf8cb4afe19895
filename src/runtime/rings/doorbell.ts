/**
 * The doorbell: after a packet's descriptors are in ring memory, tell the queue how many there are —
 * a write of the RX count to the S2M queue's drtp_inc, then of the TX count to the M2S queue's
 * (GROUND_TRUTH). Kept behind one small interface so the vring writer does not care how it rings.
 */
import type { RegisterFile } from "../../hal/register-file.js";
import { type AddressProfile, queueRegisterAddress } from "../../spec/address-map.js";
import type { QueueId } from "./queue-registers.js";

export interface Doorbell {
  /** Announce `rxCount` new RX descriptors, then `txCount` new TX descriptors. */
  ring(rxCount: number, txCount: number): void;
}

/** The accessor name the register log shows for doorbell writes. */
export const DOORBELL_ACCESSOR = "vring_doorbell";

/**
 * The doorbell as register writes through the HAL register file.
 * @example new RegisterDoorbell(registers, CAYMAN, { engine: 0, queue: 0 }).ring(1, 3)
 */
export class RegisterDoorbell implements Doorbell {
  /** The two drtp_inc registers, computed once (the doorbell rings for every packet). */
  private readonly rxAddr: bigint;
  private readonly txAddr: bigint;

  constructor(
    private readonly registers: RegisterFile,
    profile: AddressProfile,
    queue: QueueId,
  ) {
    this.rxAddr = queueRegisterAddress(profile, queue, "rx", "drtp_inc");
    this.txAddr = queueRegisterAddress(profile, queue, "tx", "drtp_inc");
  }

  ring(rxCount: number, txCount: number): void {
    this.registers.write32(this.rxAddr, rxCount, DOORBELL_ACCESSOR);
    this.registers.write32(this.txAddr, txCount, DOORBELL_ACCESSOR);
  }
}

/**
 * A doorbell that adds up the counts of the packets posted since its last {@link flush} and rings
 * them then, RX total then TX total: one drtp_inc write a ring per batch instead of two writes a
 * packet. drtp_inc takes any count (the driver rings once per chain it adds), so the queue ends in
 * the same state as ringing each packet; a host that runs the engine itself (the collectives'
 * device machine) flushes before every run, so the engine sees every descriptor it would have.
 */
export class DeferredDoorbell implements Doorbell {
  private rx = 0;
  private tx = 0;

  /** `onFirst` is called when a count arrives with none pending (the host lists what to flush). */
  constructor(
    private readonly inner: Doorbell,
    private readonly onFirst: (bell: DeferredDoorbell) => void,
  ) {}

  ring(rxCount: number, txCount: number): void {
    if (this.rx === 0 && this.tx === 0) this.onFirst(this);
    this.rx += rxCount;
    this.tx += txCount;
  }

  /** Ring what is pending (nothing when none is). */
  flush(): void {
    if (this.rx === 0 && this.tx === 0) return;
    const rx = this.rx;
    const tx = this.tx;
    this.rx = 0;
    this.tx = 0;
    this.inner.ring(rx, tx);
  }
}
