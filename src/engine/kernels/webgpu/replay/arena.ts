/**
 * The buffers replays run in. A replayed step's temps (activations, gradients, its inputs and outputs)
 * are written before they are read, and replays never overlap (each is one command buffer, in queue
 * order), so every captured shape can run in the same buffers: memory follows the largest step, not
 * the number of shapes. Each capture leases one distinct buffer per temp, at least as large; a buffer no
 * capture leases is destroyed.
 */
export interface Need {
  size: number;
  usage: number;
}

/**
 * For each need, the index of a buffer among `have` (at least as large, same usage, each used once),
 * else -1: a new one must be made. Largest needs first, each taking the smallest buffer that fits.
 */
export function assignBuffers(needs: readonly Need[], have: readonly Need[]): number[] {
  const out = new Array<number>(needs.length).fill(-1);
  const taken = new Uint8Array(have.length);
  const order = needs.map((_, i) => i).sort((a, b) => needs[b].size - needs[a].size);
  for (const i of order) {
    let best = -1;
    for (let k = 0; k < have.length; k++) {
      if (taken[k] || have[k].usage !== needs[i].usage || have[k].size < needs[i].size) continue;
      if (best < 0 || have[k].size < have[best].size) best = k;
    }
    if (best >= 0) {
      taken[best] = 1;
      out[i] = best;
    }
  }
  return out;
}

/** New buffers are made a little larger than asked (to the next 1/4 power of two), so nearby sizes share them. */
export function arenaSize(size: number): number {
  if (size <= 4096) return Math.max(4, Math.ceil(size / 256) * 256);
  const step = 2 ** (Math.floor(Math.log2(size)) - 2);
  return Math.ceil(size / step) * step;
}

interface Slot extends Need {
  buffer: GPUBuffer;
  leases: number;
}

export class ReplayArena {
  private slots: Slot[] = [];
  private staging: GPUBuffer | null = null;

  constructor(private readonly device: GPUDevice) {}

  /** One buffer per need, shared with other captures' leases. */
  lease(needs: readonly Need[]): GPUBuffer[] {
    const picks = assignBuffers(needs, this.slots);
    return needs.map((need, i) => {
      let slot = this.slots[picks[i]];
      if (!slot) {
        const size = Math.max(need.size, Math.min(arenaSize(need.size), this.device.limits.maxBufferSize));
        slot = { size, usage: need.usage, buffer: this.device.createBuffer({ size, usage: need.usage, label: 'eorm replay arena' }), leases: 0 };
        this.slots.push(slot);
      }
      slot.leases++;
      return slot.buffer;
    });
  }

  release(buffers: readonly GPUBuffer[]): void {
    for (const b of buffers) {
      const slot = this.slots.find((s) => s.buffer === b);
      if (slot) slot.leases--;
    }
    this.slots = this.slots.filter((s) => {
      if (s.leases > 0) return true;
      s.buffer.destroy();
      return false;
    });
  }

  /** The buffer the inputs are written into before each replay copies them out, at least `bytes` long. */
  stagingFor(bytes: number): GPUBuffer {
    if (!this.staging || this.staging.size < bytes) {
      this.staging?.destroy();
      this.staging = this.device.createBuffer({ size: arenaSize(bytes), usage: 0x4 | 0x8 /* COPY_SRC | COPY_DST */, label: 'eorm replay inputs' });
    }
    return this.staging;
  }

  bytes(): number {
    return this.slots.reduce((n, s) => n + s.size, 0) + (this.staging?.size ?? 0);
  }

  destroy(): void {
    for (const s of this.slots) s.buffer.destroy();
    this.slots = [];
    this.staging?.destroy();
    this.staging = null;
  }
}
