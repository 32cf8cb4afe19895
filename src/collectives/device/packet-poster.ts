/**
 * The packets of a leg that is not SB2SB, posted to its vring (DeviceMachine.post). A leg's packets
 * differ only in their addresses (and the last in its size): each shape's first packet is posted
 * from its runtime request, the rest from that request's template re-pointed (no request, bigint or
 * descriptor object a packet); a shape posted before on the vring (another leg's) starts from its
 * template too. One poster a machine, aimed at each leg in turn: no closure, packet list or address
 * array is made a leg or a packet — under tsx (the bench, the tests), which names each closure it
 * makes with an Object.defineProperty, two closures a leg were ≈ 1 % of the 8-rank 64 MiB bf16
 * all-reduce's run, and the packet list an object a packet (≈ 100 000 a run).
 */
import { DeviceFault, isEinval } from "../../bits/errors.js";
import type { ArchProfile } from "../../hal/arch-profile.js";
import type { Sb2sbPacket } from "../../isa/index.js";
import type { AluOp } from "../../numerics/index.js";
import {
  cceTemplateOf,
  chunkCount,
  copyTemplateOf,
  type PacketTemplate,
  postPacketBytes,
  retryOnFullRing,
  type Vring,
} from "../../runtime/index.js";
import { type Dtype, dtypeBytes } from "../../spec/dtype.js";
import { legCallMaker, shapeKey } from "../plan/leg-calls.js";
import { legAluOp } from "../plan/leg-math.js";
import { packetElems } from "../plan/packets.js";
import type { BufRef, Leg, LegSource, ReduceOp } from "../plan/plan.js";

/** Address arrays by length, each made once (a template takes exactly its request's count). */
class ByLength {
  private readonly arrays: Float64Array[] = [];

  of(n: number): Float64Array {
    let a = this.arrays[n];
    if (a === undefined) {
      a = new Float64Array(n);
      this.arrays[n] = a;
    }
    return a;
  }
}

export class PacketPoster {
  private readonly eb: number;
  // The leg being posted and what its packets share (set by `post`).
  private leg: Leg | undefined;
  private vring: Vring | undefined;
  private shapes: Map<number, PacketTemplate> | undefined;
  private alu: AluOp | undefined;
  private srcs: Float64Array = new Float64Array(1);
  private dsts: Float64Array = new Float64Array(1);
  private request: ((pk: { start: number; count: number }) => Sb2sbPacket) | undefined;
  private shape: PacketTemplate | undefined;
  private shapeCount = -1;
  /** The packet being posted: its elements, relative to the leg's first, moved along the leg. */
  private readonly packet = { start: 0, count: 0 };
  private readonly srcArrays = new ByLength();
  private readonly dstArrays = new ByLength();
  private readonly srcBases = new ByLength();
  private readonly dstBases = new ByLength();
  /** {@link postPacket}, made once: what retryOnFullRing calls (again after a drain). */
  private readonly postOne = (): void => this.postPacket();

  /**
   * @param addr the address of a buffer element.
   * @param drain runs the device (a full ring first makes room so).
   * @param pending when given, each posted packet's leg id is pushed to it (the events' legs).
   */
  constructor(
    private readonly profile: ArchProfile,
    private readonly dtype: Dtype,
    private readonly op: ReduceOp,
    private readonly addr: (ref: BufRef, plus: number) => bigint,
    private readonly drain: () => void,
    private readonly pending?: number[],
  ) {
    this.eb = dtypeBytes(dtype);
  }

  /**
   * Post every packet of `leg` (not SB2SB) to `vring`, whose templates by shapeKey are `shapes`;
   * a full ring first drains what is posted.
   * @throws DeviceFault when the runtime refuses a packet.
   */
  post(leg: Leg, vring: Vring, shapes: Map<number, PacketTemplate>): void {
    const alu = legAluOp(leg, this.op);
    const nSrcs = alu === undefined ? 1 : leg.srcs.length;
    const nDsts = alu === undefined ? 1 : leg.dsts.length;
    const srcBase = this.srcBases.of(nSrcs);
    const dstBase = this.dstBases.of(nDsts);
    for (let i = 0; i < nSrcs; i++) srcBase[i] = Number(this.addr((leg.srcs[i] as LegSource).ref, 0));
    for (let i = 0; i < nDsts; i++) dstBase[i] = Number(this.addr(leg.dsts[i] as BufRef, 0));
    const srcs = this.srcArrays.of(nSrcs);
    const dsts = this.dstArrays.of(nDsts);
    this.leg = leg;
    this.vring = vring;
    this.shapes = shapes;
    this.alu = alu;
    this.srcs = srcs;
    this.dsts = dsts;
    this.request = undefined;
    this.shape = undefined;
    this.shapeCount = -1;
    // The packets of plan/packets.ts legPackets: full ones, the last with the remainder.
    const max = packetElems(this.profile, leg, this.dtype);
    const packets = chunkCount(leg.count, max);
    const per = max ?? leg.count;
    const pk = this.packet;
    for (let k = 0; k < packets; k++) {
      pk.start = k * per;
      pk.count = Math.min(per, leg.count - pk.start);
      const off = pk.start * this.eb;
      for (let i = 0; i < nSrcs; i++) srcs[i] = (srcBase[i] as number) + off;
      for (let i = 0; i < nDsts; i++) dsts[i] = (dstBase[i] as number) + off;
      retryOnFullRing(this.postOne, this.drain);
      this.pending?.push(leg.id);
    }
  }

  /** Post {@link packet}: from its shape's template on this vring, else from its request. */
  private postPacket(): void {
    const leg = this.leg as Leg;
    const vring = this.vring as Vring;
    const shapes = this.shapes as Map<number, PacketTemplate>;
    const pk = this.packet;
    const nSrcs = this.srcs.length;
    const nDsts = this.dsts.length;
    if (pk.count !== this.shapeCount) {
      this.shape = shapes.get(shapeKey(this.alu, nSrcs, nDsts, pk.count));
      this.shapeCount = pk.count;
    }
    if (this.shape?.postAt(vring, this.srcs, this.dsts) === true) return;
    this.request ??= legCallMaker(leg, this.dtype, this.op, this.addr);
    const call = this.request(pk);
    const written = postPacketBytes(vring, call);
    if (isEinval(written))
      throw new DeviceFault(`leg ${leg.id}: the runtime refused the packet: ${written.message}`);
    this.shape = call.kind === "copy" ? copyTemplateOf(call.copy) : cceTemplateOf(vring, call.cce);
    const key = shapeKey(this.alu, nSrcs, nDsts, pk.count);
    if (this.shape !== undefined && !Number.isNaN(key)) shapes.set(key, this.shape);
  }
}
