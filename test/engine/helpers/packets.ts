/**
 * Test-side packet writer: encodes descriptors from the spec layouts exactly as
 * src/spec/packet-model.ts lays them out, writes them into ring memory, programs the queue
 * registers and rings the doorbell — the way the runtime does, so engine tests do not depend on it.
 */
import type { Device } from "../../../src/engine/index.js";
import {
  ADD_META,
  COMBO_MORE,
  DEFAULT_COPY_META,
  Dtype,
  dtypeBytes,
  EXT_META,
  FMA_DESC,
  FMA_META,
  GCE_META,
  GRADIENT_DESC,
  MIN_MAX_DESC,
  MIN_MAX_META,
  queueRegisterAddress,
  REPLICATION_DESC,
  SEED_INIT_DESC,
  UDMA_RX,
  UDMA_TX,
} from "../../../src/spec/index.js";

/** Where the ring writer stamps a descriptor's position: len_ctrl's leaves, through their readers. */
const POS = {
  ring: UDMA_TX.field("len_ctrl.ring_id"),
  first: UDMA_TX.field("len_ctrl.first"),
  last: UDMA_TX.field("len_ctrl.last"),
};
/** W0 with the ring phase, FIRST and LAST replaced. */
function stampPosition(w0: number, phase: number, first: boolean, last: boolean): number {
  const bit = (r: { readonly shift: number }) => 2 ** r.shift;
  const cleared =
    w0 -
    POS.ring.ofWord(w0) * bit(POS.ring) -
    (POS.first.isSet(w0) ? bit(POS.first) : 0) -
    (POS.last.isSet(w0) ? bit(POS.last) : 0);
  return (cleared + phase * bit(POS.ring) + (first ? bit(POS.first) : 0) + (last ? bit(POS.last) : 0)) >>> 0;
}

export type Op = "add" | "fma" | "min" | "max";
const OPTYPE: Record<Op, number> = { add: 0, fma: 1, max: 2, min: 3 };

const word = (b: Uint8Array, off = 0) => new DataView(b.buffer, b.byteOffset).getUint32(off, true);

/** A 16-byte descriptor before the writer stamps ring_id / FIRST / LAST. */
export type Desc = Uint8Array;

export function txData(addr: bigint, len: number, meta: number): Desc {
  return UDMA_TX.encode({ "len_ctrl.length": len, meta_ctrl: meta >>> 0, buf_ptr: addr });
}

export function rxData(addr: bigint, len: number, meta?: number): Desc {
  return UDMA_RX.encode(
    meta === undefined
      ? { "len_ctrl.length": len, buf1_ptr: addr }
      : {
          "len_ctrl.length": len,
          "len_ctrl.has_meta": true,
          buf2_ptr_lo: meta >>> 0,
          buf1_ptr: addr,
        },
  );
}

export interface Packet {
  readonly tx: Desc[];
  readonly rx: Desc[];
}

export function copyPacket(src: bigint, dst: bigint, len: number): Packet {
  const tx: Desc[] = [];
  const rx: Desc[] = [];
  for (let off = 0; off < len; off += 65536) {
    const n = Math.min(65536, len - off);
    tx.push(txData(src + BigInt(off), n, DEFAULT_COPY_META));
    rx.push(rxData(dst + BigInt(off), n));
  }
  return { tx, rx };
}

export interface CceRequest {
  readonly op: Op;
  readonly sources: readonly bigint[];
  readonly elements: number;
  readonly inDt: Dtype;
  readonly accumDt?: Dtype;
  readonly outDt: Dtype;
  readonly dest: bigint;
  readonly extraDests?: readonly bigint[];
  readonly scales?: readonly number[];
  /** FMA operand selectors (default input, scale, stored). */
  readonly sel?: readonly [number, number, number];
  readonly constant?: { readonly word: number; readonly constDt: 0 | 1 | 2 };
  readonly seed?: number;
  readonly gce?: {
    readonly mode: 1 | 2;
    readonly headerAddr: bigint;
    readonly blockLog2: number;
    readonly payloadBytes?: number;
  };
}

function sourceMeta(r: CceRequest, last: boolean, more: boolean): number {
  const accum = r.accumDt ?? Dtype.FP32;
  let m: number;
  if (r.gce) m = word(GCE_META.encode({ in_dt: r.inDt, scale_dt: Dtype.FP32, accum_dt: accum, last }));
  else if (r.op === "add") m = word(ADD_META.encode({ out_dt: r.inDt, accum_dt: accum, last }));
  else if (r.op === "fma")
    m = word(FMA_META.encode({ in_dt: r.inDt, scale_dt: Dtype.FP32, accum_dt: accum, last }));
  else
    m = word(
      MIN_MAX_META.encode({
        in_dt: r.inDt,
        accum_dt: accum,
        const_dt: OPTYPE[r.op],
        use_const: r.constant !== undefined,
        last,
      }),
    );
  return (more ? m | COMBO_MORE : m) >>> 0;
}

/** A CCE packet as packet-model.ts lays it out (combo when extraDests is non-empty). */
export function ccePacket(r: CceRequest): Packet {
  const combo = (r.extraDests?.length ?? 0) > 0;
  const accum = r.accumDt ?? Dtype.FP32;
  const tx: Desc[] = [];
  if (r.seed !== undefined || combo) {
    tx.push(SEED_INIT_DESC.encode({ sub_desc: r.seed !== undefined ? 3 : 2, seed: r.seed ?? 0 }));
  }
  if (r.constant) {
    tx.push(
      MIN_MAX_DESC.encode({
        const_dt: r.constant.constDt,
        sub_desc: 3,
        length: r.elements * dtypeBytes(r.inDt),
        constant: r.constant.word,
      }),
    );
  }
  const srcLen = r.gce?.mode === 2 ? (r.gce.payloadBytes as number) : r.elements * dtypeBytes(r.inDt);
  r.sources.forEach((s, i) => {
    const last = i === r.sources.length - 1;
    if (r.op === "fma") {
      const [a, b, c] = r.sel ?? [1, 2, 0];
      tx.push(FMA_DESC.encode({ optype: 1, op: 4, a_sel: a, b_sel: b, c_sel: c, scale: r.scales?.[i] ?? 1 }));
    }
    tx.push(txData(s, srcLen, sourceMeta(r, last, combo && !last)));
  });
  if (r.gce)
    tx.push(
      GRADIENT_DESC.encode({ mode: r.gce.mode, block_log2: r.gce.blockLog2, header_addr: r.gce.headerAddr }),
    );
  for (const d of r.extraDests ?? [])
    tx.push(
      REPLICATION_DESC.encode({
        "meta.optype": 2,
        "meta.op": 1,
        "meta.flag26": true,
        "meta.mode": 1,
        dest: d,
      }),
    );
  const rxMeta = combo
    ? word(EXT_META.encode({ mid_dt: r.outDt, accum_dt: accum }))
    : word(ADD_META.encode({ out_dt: r.outDt, accum_dt: accum }));
  const outLen = r.gce?.mode === 1 ? (r.gce.payloadBytes as number) : r.elements * dtypeBytes(r.outDt);
  return { tx, rx: [rxData(r.dest, outLen, rxMeta)] };
}

/** One queue's two rings, written the way the runtime's vring writer does. */
export class QueueWriter {
  private txHead = 0;
  private rxHead = 0;
  private txPhase = 1;
  private rxPhase = 1;

  constructor(
    readonly dev: Device,
    readonly engine: number,
    readonly queue: number,
    readonly txBase: bigint,
    readonly rxBase: bigint,
    readonly slots: number,
  ) {
    for (const [ring, base] of [
      ["tx", txBase],
      ["rx", rxBase],
    ] as const) {
      this.reg(ring, "drbp_hi", Number(base >> 32n));
      this.reg(ring, "drbp_lo", Number(base & 0xffffffffn));
      this.reg(ring, "drl", slots);
    }
  }

  private reg(ring: "tx" | "rx", reg: "drbp_lo" | "drbp_hi" | "drl" | "drtp_inc", v: number): void {
    this.dev.memory.writeU32(queueRegisterAddress(this.dev.profile, this, ring, reg), v);
  }

  /** Write a chain, stamping ring_id (and on TX FIRST and LAST); returns the slots used. */
  private writeChain(
    ring: "tx" | "rx",
    chain: readonly Desc[],
    mutate?: (i: number, b: Uint8Array) => void,
  ): number[] {
    const slots: number[] = [];
    chain.forEach((d, i) => {
      const b = d.slice();
      const head = ring === "tx" ? this.txHead : this.rxHead;
      const phase = ring === "tx" ? this.txPhase : this.rxPhase;
      const v = new DataView(b.buffer);
      // FIRST / LAST on the M2S chain only: S2M descriptors have none (aws-neuron-driver udma.h).
      v.setUint32(
        0,
        stampPosition(
          v.getUint32(0, true),
          phase,
          ring === "tx" && i === 0,
          ring === "tx" && i === chain.length - 1,
        ),
        true,
      );
      mutate?.(i, b);
      this.dev.memory.write((ring === "tx" ? this.txBase : this.rxBase) + BigInt(head * 16), b);
      slots.push(head);
      const next = head + 1;
      if (ring === "tx") {
        this.txHead = next % this.slots;
        if (next === this.slots) this.txPhase = (this.txPhase + 1) % 4;
      } else {
        this.rxHead = next % this.slots;
        if (next === this.slots) this.rxPhase = (this.rxPhase + 1) % 4;
      }
    });
    return slots;
  }

  /**
   * Write a packet and ring the doorbell (RX then TX). `mutate` may corrupt a TX descriptor's bytes
   * after stamping (tests of faults).
   */
  post(
    p: Packet,
    mutate?: { ring: "tx" | "rx"; fn: (i: number, b: Uint8Array) => void },
  ): { tx: number[]; rx: number[] } {
    const tx = this.writeChain("tx", p.tx, mutate?.ring === "tx" ? mutate.fn : undefined);
    const rx = this.writeChain("rx", p.rx, mutate?.ring === "rx" ? mutate.fn : undefined);
    this.reg("rx", "drtp_inc", p.rx.length);
    this.reg("tx", "drtp_inc", p.tx.length);
    return { tx, rx };
  }
}
