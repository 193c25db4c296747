import * as tf from '@tensorflow/tfjs';
import { type BackendProfile, activeProfile } from '../backend/profile.ts';
import { type DropoutRows, hostDropout } from '../kernels/hostDropout.ts';
import { type DropoutSeed, fusedDropout } from '../kernels/webgpu/dropout.ts';

/** One dropout of the forward (a layer's attention probabilities, its FFN output, …), with its own seed. */
export interface DropoutSite {
  /**
   * x with dropout. `rows` keys x's rows ([rows, cols]) by chunk-local candidate and position: with them,
   * on the host backends, each row's mask depends on its keys only, not on how the step is split.
   */
  apply(x: tf.Tensor, rows?: DropoutRows): tf.Tensor;
}

export interface DropoutOptions {
  /** The chunk's first candidate's index in the step: host-kernel row keys are step-wide candidates. */
  firstCandidate?: number;
}

/**
 * Seeded dropout. Each site draws its masks from (seed, site counter), so replaying the same forward
 * pass with the same seed reproduces every mask: the micro-batched step relies on that to compute
 * energies without gradients first and then again with gradients. A site takes its counter once, however
 * many tensors it applies to (packed attention's per-candidate blocks), so a site's seed does not depend
 * on how many candidates the pass has.
 */
export class SeededDropout {
  private calls = 0;
  private readonly fused: boolean;
  private readonly host: boolean;
  private readonly firstCandidate: number;
  /**
   * `seed`: a number, or (fused WebGPU kernel only) the step's seed on the device mixed with a path of
   * constants, so that no value of the step itself reaches the GPU work (replay/stepReplay.ts).
   */
  constructor(
    readonly rate: number,
    private readonly seed: number | DropoutSeed,
    profile: BackendProfile = activeProfile(),
    { firstCandidate = 0 }: DropoutOptions = {},
  ) {
    this.fused = profile.fused.dropout;
    this.host = profile.hostKernels;
    this.firstCandidate = firstCandidate;
    if (typeof seed !== 'number' && !this.fused) throw new Error('a seed on the device needs the fused dropout kernel');
  }

  /** The forward's next site: sites are taken in the same order on every replay of the pass. */
  site(): DropoutSite {
    const siteSeed = mixInto(this.seed, this.calls++);
    // Off the host kernel a mask spans a whole tensor: each chunk (by its first candidate) and each further
    // tensor of the site draws from its own seed. Index 0 keeps the seed, so a first chunk's single-tensor
    // sites (the padded reference, WebGPU) draw the masks they drew before sites existed.
    const chunkSeed = deriveInto(siteSeed, this.firstCandidate);
    let tensors = 0;
    return {
      apply: (x, rows) => {
        if (this.rate <= 0) return x;
        if (rows && this.host) {
          const candidate = rows.candidate.map((b) => b + this.firstCandidate);
          return hostDropout(x, siteSeed as number, this.rate, { candidate, position: rows.position });
        }
        const callSeed = deriveInto(chunkSeed, tensors++);
        // The fused kernel (WebGPU) draws the mask on the device from the same seed (kernels/webgpu/dropout.ts).
        if (this.fused) return fusedDropout(x, typeof callSeed === 'number' ? { base: callSeed, path: [] } : callSeed, this.rate);
        return tf.dropout(x, this.rate, undefined, callSeed as number);
      },
    };
  }
}

/** mixSeed(seed, k), on the host, or appended to a device seed's path. */
function mixInto(seed: number | DropoutSeed, k: number): number | DropoutSeed {
  return typeof seed === 'number' ? mixSeed(seed, k) : { base: seed.base, path: [...seed.path, k] };
}

function deriveInto(seed: number | DropoutSeed, k: number): number | DropoutSeed {
  return k === 0 ? seed : mixInto(seed, k);
}

/**
 * The dropout of chunk `chunk` of a step, whose first candidate is the step's `first`-th. On the host
 * backends, where a layout keys rows by candidate, every chunk shares one seed for the step, so any split
 * of the candidates (micro-batches, workers) draws the same masks; elsewhere each chunk has its own seed.
 * A step seed on the device (an int32 tensor; fused WebGPU dropout) draws the masks a number would.
 */
export function dropoutForChunk(rate: number, stepSeed: number | tf.Tensor, chunk: number, first: number, profile: BackendProfile): SeededDropout {
  if (typeof stepSeed !== 'number') return new SeededDropout(rate, { base: stepSeed, path: [chunk] }, profile);
  return profile.hostKernels
    ? new SeededDropout(rate, mixSeed(stepSeed, STEP_KEY), profile, { firstCandidate: first })
    : new SeededDropout(rate, mixSeed(stepSeed, chunk), profile);
}

/** Keeps the step-wide seed apart from chunk 0's seed mixSeed(stepSeed, 0). */
const STEP_KEY = -1;

/** A well-spread 32-bit seed from two integers (a splitmix-style finaliser). */
export function mixSeed(a: number, b: number): number {
  let h = (Math.imul(a ^ 0x9e3779b9, 0x85ebca6b) + Math.imul(b + 0x632be5ab, 0xc2b2ae35)) | 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x7feb352d);
  h ^= h >>> 15;
  h = Math.imul(h, 0x846ca68b);
  h ^= h >>> 16;
  return h >>> 0;
}
