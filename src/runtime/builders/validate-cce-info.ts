/**
 * What libnrt says about 140 cce_info bytes, given the op they travel with: the bytes are decoded
 * through the CCE_INFO layout and handed to the very builder the runtime uses
 * (vring_add_dma_packet_cce_int's dispatch, {@link buildCcePacket}), so the checks are not written
 * twice: the FMA scale-dtype assert (vring.c:0x3BA), the kbin dtype remap assert (helper.c:0x1AF),
 * the source / destination counts, the MIN/MAX constant dtype (-EINVAL) and the replication gate
 * (-EINVAL on arch ≤ 2).
 */
import { FieldError, isEinval, SdmaAssertError } from "../../bits/errors.js";
import type { ArchProfile } from "../../hal/arch-profile.js";
import { Dtype } from "../../spec/dtype.js";
import { CCE_OP_BY_NAME, type CceOpName } from "../../spec/enums.js";
import { CCE_INFO } from "../../spec/layouts/index.js";
import { MAX_PACKET_DESCRIPTORS } from "../../spec/packet-model.js";
import { buildCcePacket, remapCceRequest } from "./cce-packet.js";

/** One refusal: how libnrt fails (assert, -EINVAL, or a count the struct cannot hold) and its message. */
export interface CceInfoReason {
  readonly code: "assert" | "einval" | "field";
  readonly field: string;
  readonly message: string;
}

/**
 * Run libnrt's checks of a CCE request carrying these cce_info bytes on `profile` (one fp32 element
 * per source; the counts come from the bytes). A count past what one packet can carry is cut to one
 * past the packet limit: the builder refuses it exactly as it refuses the full count.
 * @returns the refusals, empty when libnrt would build the packet.
 * @throws DecodeError when `bytes` is not 140 bytes.
 */
export function validateCceInfo(bytes: Uint8Array, op: CceOpName, profile: ArchProfile): CceInfoReason[] {
  // The builder reads the union arm its op reads, as add_dma_packet_cce does from these bytes.
  const info = CCE_INFO.decode(bytes);
  const cut = (n: number) => Math.min(n, MAX_PACKET_DESCRIPTORS + 1);
  const request = {
    op: CCE_OP_BY_NAME[op],
    sources: Array.from({ length: cut(info.num_sources) }, (_, i) => BigInt(i + 1) * 0x1000n),
    dests: Array.from({ length: cut(info.num_dests) }, (_, i) => BigInt(i + 1) * 0x100000n),
    size: 4,
    inDtype: Dtype.FP32,
    cceInfo: { ...info, num_sources: cut(info.num_sources), num_dests: cut(info.num_dests) },
  };
  try {
    const packet = buildCcePacket(
      profile,
      { stochasticRounding: false, srSeed: 0 },
      remapCceRequest(request),
    );
    return isEinval(packet) ? [{ code: "einval", field: "cce_info", message: packet.message }] : [];
  } catch (e) {
    if (e instanceof SdmaAssertError) return [{ code: "assert", field: "cce_info", message: e.message }];
    if (e instanceof FieldError) {
      // Report the count the bytes hold, not the cut one the builder saw.
      const real =
        e.field === "num_sources" ? info.num_sources : e.field === "num_dests" ? info.num_dests : undefined;
      const err = real === undefined ? e : new FieldError(e.context, e.field, real, e.allowed);
      return [{ code: "field", field: err.field, message: err.message }];
    }
    throw e;
  }
}
